// The files pi's edit tools change, for the tool cards: `edit {path, edits: [{oldText, newText}]}` (0.73; earlier
// versions took one `oldText`/`newText`) and `write {path, content}`, from the call's arguments
// (test/fixtures/pi-recorded/0.73.1/tool-edit.ndjson). pi's result reports its own numbered diff, not the file, so an
// edit is shown as the parts it replaced. Paths are as the model gave them, relative to pi's working folder.
import * as z from "zod/mini";
import type { ToolDiff } from "../protocol/transcript";
import { excerptDiffs, wholeFileDiff } from "./kit/file-edits";

const EDITS = z.object({ path: z.string(), edits: z.array(z.object({ oldText: z.string(), newText: z.string() })) });
const ONE_EDIT = z.object({ path: z.string(), oldText: z.string(), newText: z.string() });
const WRITE = z.object({ path: z.string(), content: z.string() });

/** The change a call proposes; undefined for a tool that changes no file, or arguments of another shape. */
export function piToolDiffs(tool: string, args: unknown): ToolDiff[] | undefined {
  switch (tool) {
    case "edit": {
      const many = EDITS.safeParse(args);
      if (many.success) return excerptDiffs(many.data.path, many.data.edits);
      const one = ONE_EDIT.safeParse(args);
      return one.success ? excerptDiffs(one.data.path, [one.data]) : undefined;
    }
    case "write": {
      const write = WRITE.safeParse(args);
      // Whether the file was there before, pi does not say: shown as the file it writes.
      return write.success ? [wholeFileDiff(write.data.path, null, write.data.content)] : undefined;
    }
    default:
      return undefined;
  }
}
