// What Claude Code's file tools would write, from their input alone: Write's whole new content, Edit's and MultiEdit's
// replacements applied to the file's text as it is now (`replace_all` honoured). The permission card shows this as the
// call's diff before the user answers; the tool card's own diff, after the call, comes from Claude's result.
import * as z from "zod/mini";
import type { ProposedEdit } from "../permissions/permission-channel";

const WRITE = z.object({ file_path: z.string(), content: z.string() });
const REPLACEMENT = z.object({ old_string: z.string(), new_string: z.string(), replace_all: z.optional(z.boolean()) });
const EDIT = z.object({ file_path: z.string(), ...REPLACEMENT.shape });
const MULTI_EDIT = z.object({ file_path: z.string(), edits: z.array(REPLACEMENT) });

type Replacement = z.infer<typeof REPLACEMENT>;

/** The edits a call of this tool with this input would make; none for other tools or an input of another shape. */
export function proposedEditsOf(tool: string, input: unknown): ProposedEdit[] {
  if (tool === "Write") {
    const write = WRITE.safeParse(input);
    return write.success ? [{ path: write.data.file_path, newTextOf: () => write.data.content }] : [];
  }
  if (tool === "Edit") {
    const edit = EDIT.safeParse(input);
    return edit.success ? [{ path: edit.data.file_path, newTextOf: (old) => replaced(old, [edit.data]) }] : [];
  }
  if (tool === "MultiEdit") {
    const edit = MULTI_EDIT.safeParse(input);
    return edit.success ? [{ path: edit.data.file_path, newTextOf: (old) => replaced(old, edit.data.edits) }] : [];
  }
  return [];
}

/**
 * The text after each replacement in turn; undefined when one finds nothing to replace (Claude would refuse it too).
 * An empty `old_string` on a missing file is Claude's way to create it.
 */
function replaced(oldText: string | null, replacements: readonly Replacement[]): string | undefined {
  let text = oldText;
  for (const replacement of replacements) {
    if (text === null) {
      if (replacement.old_string !== "") return undefined;
      text = replacement.new_string;
      continue;
    }
    const next = replaceIn(text, replacement);
    if (next === undefined) return undefined;
    text = next;
  }
  return text ?? undefined;
}

/** Plain text both ways: String.replace would read `$&` and `$1` in the new text as patterns. */
function replaceIn(text: string, { old_string: from, new_string: to, replace_all: all }: Replacement): string | undefined {
  if (from === "") return undefined;
  const at = text.indexOf(from);
  if (at < 0) return undefined;
  if (all === true) return text.split(from).join(to);
  return text.slice(0, at) + to + text.slice(at + from.length);
}
