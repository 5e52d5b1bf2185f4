// The files Claude Code's edit tools change and what its tools return, for the tool cards. A tool's input
// (`Edit {file_path, old_string, new_string, replace_all}`, `MultiEdit {file_path, edits}`, `Write {file_path,
// content}`) says what it proposes: the replaced part only. Its result line's `tool_use_result` (2.1.330,
// test/fixtures/claude-recorded/README.md) adds the whole file before it (`originalFile`; NotebookEdit's
// `original_file` and `updated_file`), so a finished edit is shown as the whole file before and after. Qwen Code
// writes Claude's stream with Gemini CLI's tools (`edit`, `write_file`) and no `tool_use_result`.
import * as z from "zod/mini";
import type { ToolDiff } from "../protocol/transcript";
import { applyReplacements, excerptDiffs, fitsTranscript, inputDiffs, wholeFileDiff, type Replacement } from "./kit/file-edits";

const EDIT = z.object({ file_path: z.string(), old_string: z.string(), new_string: z.string(), replace_all: z.optional(z.boolean()) });
const MULTI_EDIT = z.object({
  file_path: z.string(),
  edits: z.array(z.object({ old_string: z.string(), new_string: z.string(), replace_all: z.optional(z.boolean()) })),
});

/** What `tool_use_result` says of a finished edit, by tool. */
const EDIT_RESULT = z.object({
  filePath: z.string(),
  oldString: z.string(),
  newString: z.string(),
  originalFile: z.nullable(z.string()),
  replaceAll: z.optional(z.boolean()),
});
const MULTI_EDIT_RESULT = z.object({
  filePath: z.string(),
  edits: z.array(z.object({ old_string: z.string(), new_string: z.string(), replace_all: z.optional(z.boolean()) })),
  originalFile: z.nullable(z.string()),
});
const WRITE_RESULT = z.object({ filePath: z.string(), content: z.string(), originalFile: z.nullable(z.string()) });
const NOTEBOOK_RESULT = z.object({ notebook_path: z.string(), original_file: z.string(), updated_file: z.string() });

/** The edit tools, Claude Code's names and Qwen Code's. */
type EditTool = "edit" | "multi-edit" | "write" | "notebook";
const EDIT_TOOLS: Readonly<Record<string, EditTool>> = {
  Edit: "edit",
  MultiEdit: "multi-edit",
  Write: "write",
  NotebookEdit: "notebook",
  edit: "edit",
  replace: "edit",
  write_file: "write",
};

/** Own names only: a tool called "constructor" changes no file. */
function editToolOf(tool: string): EditTool | undefined {
  return Object.hasOwn(EDIT_TOOLS, tool) ? EDIT_TOOLS[tool] : undefined;
}

/** The change a tool call proposes, from its input; undefined for a tool that changes no file, or odd input. */
export function proposedDiffs(tool: string, input: unknown): ToolDiff[] | undefined {
  switch (editToolOf(tool)) {
    case "edit": {
      const edit = EDIT.safeParse(input);
      // Qwen Code's edit takes the same fields, and may name them as Gemini CLI does.
      if (!edit.success) return inputDiffs("edit", input);
      return excerptDiffs(edit.data.file_path, [{ oldText: edit.data.old_string, newText: edit.data.new_string, all: edit.data.replace_all === true }]);
    }
    case "multi-edit": {
      const edit = MULTI_EDIT.safeParse(input);
      return edit.success ? excerptDiffs(edit.data.file_path, edit.data.edits.map(replacementOf)) : undefined;
    }
    case "write":
      return inputDiffs("write", input);
    default:
      // NotebookEdit's input names a cell, not its text: only its result says what changed.
      return undefined;
  }
}

/**
 * The change a finished tool made, from its result line's `tool_use_result`: the whole file before and after.
 * Undefined when the result does not say (an older CLI, a failed call), does not add up (its edit does not apply to
 * the file it reports), or is too large for the transcript to keep: the proposed change stays.
 */
export function madeDiffs(tool: string, toolUseResult: unknown): ToolDiff[] | undefined {
  const made = reportedDiffs(tool, toolUseResult);
  return made !== undefined && made.every(fitsTranscript) ? made : undefined;
}

function reportedDiffs(tool: string, toolUseResult: unknown): ToolDiff[] | undefined {
  switch (editToolOf(tool)) {
    case "edit": {
      const result = EDIT_RESULT.safeParse(toolUseResult);
      if (!result.success) return undefined;
      const { filePath, oldString, newString, originalFile, replaceAll } = result.data;
      return changedFile(filePath, originalFile, [{ oldText: oldString, newText: newString, all: replaceAll === true }]);
    }
    case "multi-edit": {
      const result = MULTI_EDIT_RESULT.safeParse(toolUseResult);
      return result.success ? changedFile(result.data.filePath, result.data.originalFile, result.data.edits.map(replacementOf)) : undefined;
    }
    case "write": {
      const result = WRITE_RESULT.safeParse(toolUseResult);
      return result.success ? [wholeFileDiff(result.data.filePath, result.data.originalFile, result.data.content)] : undefined;
    }
    case "notebook": {
      const result = NOTEBOOK_RESULT.safeParse(toolUseResult);
      return result.success ? [wholeFileDiff(result.data.notebook_path, result.data.original_file, result.data.updated_file)] : undefined;
    }
    default:
      return undefined;
  }
}

/** An edit of a file that did not exist (`originalFile` null) creates it from an empty text. */
function changedFile(path: string, original: string | null, replacements: readonly Replacement[]): ToolDiff[] | undefined {
  const after = applyReplacements(original ?? "", replacements);
  return after === undefined ? undefined : [wholeFileDiff(path, original, after)];
}

function replacementOf(edit: { old_string: string; new_string: string; replace_all?: boolean | undefined }): Replacement {
  return { oldText: edit.old_string, newText: edit.new_string, all: edit.replace_all === true };
}
