// The file changes an edit or write tool makes, worked out from what its stream says: the whole file before and after
// where the CLI reports the file (Claude Code's tool_use_result), else the replaced part only, marked as an excerpt.
import * as z from "zod/mini";
import type { ToolDiff } from "../../protocol/transcript";

/** One text replacement, as the edit tools of every CLI take it. */
export interface Replacement {
  readonly oldText: string;
  readonly newText: string;
  /** Every occurrence, not only the first (Claude's `replace_all`). */
  readonly all?: boolean;
}

/**
 * The text after the replacements, made one after the other as the tools make them, or undefined when one of them
 * does not match (the file is not the one the tool changed). Sliced, not String.replace: `$&` in an edit is text.
 */
export function applyReplacements(text: string, replacements: readonly Replacement[]): string | undefined {
  let result = text;
  for (const { oldText, newText, all } of replacements) {
    if (oldText === "") {
      // An empty old string writes the new text into an empty file (Claude's Edit creating a file).
      if (result !== "") return undefined;
      result = newText;
      continue;
    }
    const at = result.indexOf(oldText);
    if (at === -1) return undefined;
    result = all ? result.split(oldText).join(newText) : result.slice(0, at) + newText + result.slice(at + oldText.length);
  }
  return result;
}

/**
 * Characters of one diff (path, old and new text) the session's transcript keeps (TRANSCRIPT_LIMITS.blockChars, which
 * this layer cannot import; a test holds them equal): a larger one is dropped whole there, so a whole file that large
 * is better left as the excerpt that fits.
 */
export const MAX_DIFF_CHARS = 4 * 1024 * 1024;

/** Whether the transcript keeps this diff. */
export function fitsTranscript(diff: ToolDiff): boolean {
  return diff.path.length + (diff.oldText?.length ?? 0) + diff.newText.length <= MAX_DIFF_CHARS;
}

/** The whole file before (null: it did not exist) and after. */
export function wholeFileDiff(path: string, before: string | null, after: string): ToolDiff {
  return { path, oldText: before, newText: after };
}

/** Only the part replaced: what the card can show when the stream carries no whole file. */
export function excerptDiffs(path: string, replacements: readonly Replacement[]): ToolDiff[] {
  return replacements.map((each) => ({ path, oldText: each.oldText, newText: each.newText, excerpt: true }));
}

/** The edit and write tools of Gemini CLI and its fork Qwen Code (and opencode's, in camelCase). */
const REPLACE_INPUT = z.object({
  file_path: z.string(),
  old_string: z.string(),
  new_string: z.string(),
  replace_all: z.optional(z.boolean()),
  expected_replacements: z.optional(z.number()),
});
const WRITE_INPUT = z.object({ file_path: z.string(), content: z.string() });

/**
 * The change a `{file_path, old_string, new_string}` edit or a `{file_path, content}` write proposes, from its input
 * alone: the replaced part (an excerpt), or the written file (before unknown, so shown as the file it writes). Undefined
 * for any other input.
 */
export function inputDiffs(kind: "edit" | "write", input: unknown): ToolDiff[] | undefined {
  if (kind === "write") {
    const write = WRITE_INPUT.safeParse(input);
    return write.success ? [wholeFileDiff(write.data.file_path, null, write.data.content)] : undefined;
  }
  const edit = REPLACE_INPUT.safeParse(input);
  if (!edit.success) return undefined;
  const { file_path, old_string, new_string, replace_all, expected_replacements } = edit.data;
  return excerptDiffs(file_path, [{ oldText: old_string, newText: new_string, all: replace_all === true || (expected_replacements ?? 1) > 1 }]);
}
