// "Open Diff" on a tool card: VS Code's diff editor, the file before ↔ after the agent's change, from the texts the
// agent reported (read-only documents of our own scheme; nothing on disk is touched). An edit known only by the part
// it replaced is shown as the whole file where the workspace's file as it is now says what it was (excerpt-file.ts).
import * as path from "node:path";
import * as vscode from "vscode";
import { confineToWorkspace } from "../acp/workspace-files";
import type { ToolDiff } from "../protocol/transcript";
import { wholeFileOfExcerpt } from "./excerpt-file";

const SCHEME = "agent-stream-diff";
/** Texts of the diffs opened so far in this window, by id; the newest few are kept. */
const KEPT_DIFFS = 50;
/** A file larger than this is not read to rebuild an excerpt's whole file. */
const MAX_REBUILT_BYTES = 4 * 1024 * 1024;

export class DiffViewer implements vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private nextId = 0;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
      provideTextDocumentContent: (uri) => this.texts.get(uri.query) ?? "",
    });
  }

  async open(diff: ToolDiff): Promise<void> {
    const name = path.basename(diff.path);
    const whole = diff.excerpt === true ? await this.wholeFile(diff) : undefined;
    const before = this.keep(name, whole?.before ?? diff.oldText ?? "");
    const after = this.keep(name, whole?.after ?? diff.newText);
    const what = diff.oldText === null ? "new file" : diff.excerpt !== true ? "before ↔ after" : whole !== undefined ? "before ↔ now" : "the changed part only";
    const title = `${name} (${what}, proposed by the agent)`;
    await vscode.commands.executeCommand("vscode.diff", before, after, title, { preview: true });
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }

  /** The file in a workspace folder as it is now, with the excerpt's edit undone for "before"; undefined if it cannot say. */
  private async wholeFile(diff: ToolDiff): Promise<{ before: string; after: string } | undefined> {
    const file = await workspaceFile(diff.path);
    if (file === undefined) return undefined;
    try {
      const stat = await vscode.workspace.fs.stat(file);
      if (stat.type !== vscode.FileType.File || stat.size > MAX_REBUILT_BYTES) return undefined;
      const current = new TextDecoder("utf-8", { fatal: true }).decode(await vscode.workspace.fs.readFile(file));
      return wholeFileOfExcerpt(current, diff);
    } catch {
      // Gone, unreadable or not text: the excerpt is all there is to show.
      return undefined;
    }
  }

  private keep(name: string, text: string): vscode.Uri {
    const id = String(this.nextId++);
    this.texts.set(id, text);
    for (const old of this.texts.keys()) {
      if (this.texts.size <= KEPT_DIFFS * 2) break;
      this.texts.delete(old);
    }
    return vscode.Uri.from({ scheme: SCHEME, path: `/${name}`, query: id });
  }
}

/**
 * The agent's path (absolute, or relative to the first workspace folder, as pi gives it), once every symlink is
 * resolved, when it lies in a workspace folder: the one rule every read on an agent's word follows.
 */
async function workspaceFile(agentPath: string): Promise<vscode.Uri | undefined> {
  const roots = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  const first = roots[0];
  if (first === undefined) return undefined;
  const confined = await confineToWorkspace(path.isAbsolute(agentPath) ? agentPath : path.join(first, agentPath), roots);
  return confined.ok ? vscode.Uri.file(confined.path) : undefined;
}
