// Why a turn failed, in one rule for every place that says it: the chat's footer and live region, the status bar,
// the notification. A turn can report several errors; the one that ended it names the failure.
import type { Turn } from "../protocol/messages";
import type { ErrorBlock } from "../protocol/transcript";

/**
 * The error that ended the turn: the last one that was not recoverable, else the last one. A recoverable error that
 * follows the fatal one (a retry that was never made, a warning while shutting down) does not name the failure.
 */
export function failingError(turn: Pick<Turn, "blocks">): ErrorBlock | null {
  // Newest first. (No findLast: the webview's library is ES2022.)
  const errors = turn.blocks.filter((b): b is ErrorBlock => b.kind === "error").reverse();
  return errors.find((e) => !e.recoverable) ?? errors[0] ?? null;
}

/** A message's first line, at most 200 characters: what fits in a footer, a tooltip or a notification. */
export function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 200 ? line.slice(0, 199) + "…" : line;
}
