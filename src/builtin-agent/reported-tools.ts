// The agent's three tools, each call reported as a tool card: tool_started, the real work, then tool_completed
// with its measured duration and, when it failed, why.
import { performance } from "node:perf_hooks";
import type { ProtocolEmitter } from "./emitter";
import { LIST_FILES_LIMITS, listFiles, type FileListing, type ListedFile } from "./tools/list-files";
import { readFile, type FileText } from "./tools/read-file";
import { searchText, type SearchResults } from "./tools/search-text";
import type { ToolResult } from "./tools/tool-result";

export class ReportedTools {
  private calls = 0;

  constructor(
    private readonly emitter: ProtocolEmitter,
    private readonly workspace: string,
    private readonly signal: AbortSignal,
  ) {}

  listFiles(): Promise<ToolResult<FileListing>> {
    return this.call("ListFiles", { path: ".", gitignore: true, maxFiles: LIST_FILES_LIMITS.maxFiles }, () =>
      listFiles(this.workspace, { signal: this.signal }),
    );
  }

  readFile(path: string): Promise<ToolResult<FileText>> {
    return this.call("ReadFile", { path }, () => readFile(this.workspace, path));
  }

  /** `shown` is the pattern as the user reads it on the tool card. */
  searchText(files: readonly ListedFile[], pattern: RegExp, shown: string): Promise<ToolResult<SearchResults>> {
    return this.call("SearchText", { pattern: shown, caseSensitive: !pattern.flags.includes("i"), files: files.length }, () =>
      searchText(this.workspace, files, pattern, { signal: this.signal }),
    );
  }

  private async call<T>(tool: string, parameters: Record<string, unknown>, run: () => Promise<ToolResult<T>>): Promise<ToolResult<T>> {
    const toolId = `builtin-${++this.calls}`;
    await this.emitter.toolStarted(tool, toolId, parameters);
    const began = performance.now();
    const result = await run();
    const durationMs = performance.now() - began;
    await this.emitter.toolCompleted({ tool, toolId, success: result.ok, durationMs, ...(result.ok ? {} : { error: result.error }) });
    return result;
  }
}
