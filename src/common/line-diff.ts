// What an edit changes, line by line: the `+N −M` counts a tool card and a permission card show per file, and a
// short text preview of the changed lines. The lines the two texts share at their start and end are set aside, and
// jsdiff's Myers diff works out the middle between them, bounded: past MAX_EDIT_LINES changed lines, or a middle of
// more than MAX_DIFFED_CHARS, every line of the middle counts as changed instead, so that no file costs more than a
// few milliseconds however large or different.
import { diffLines as myersLines } from "diff";
import type { BoundedText } from "./bounded-text";

export type LineChange = "same" | "added" | "removed";

/** Lines in a row that changed alike: their text (each line ends in a newline, but the last may not), and how many. */
export interface LineRun {
  change: LineChange;
  text: string;
  count: number;
}

export interface LineDiff {
  added: number;
  removed: number;
  runs: LineRun[];
}

/** Lines added and removed up to which an edit is worked out exactly. */
export const MAX_EDIT_LINES = 200;
/** Characters of the two middles together up to which they are compared line by line at all. */
export const MAX_DIFFED_CHARS = 512 * 1024;
/** Unchanged lines kept around a change in the preview. */
const CONTEXT_LINES = 2;

/** `oldText` null: a new file, every line added. A missing newline at the end is no change. */
export function diffLines(oldText: string | null, newText: string): LineDiff {
  const before = oldText ?? "";
  const shared = sharedLines(before, newText);
  const oldMiddle = before.slice(shared.old.head, shared.old.tail);
  const newMiddle = newText.slice(shared.new.head, shared.new.tail);
  const changes = oldMiddle.length + newMiddle.length > MAX_DIFFED_CHARS ? undefined : myersLines(oldMiddle, newMiddle, { maxEditLength: MAX_EDIT_LINES, ignoreNewlineAtEof: true });
  const middle =
    changes === undefined
      ? [...run("removed", oldMiddle), ...run("added", newMiddle)]
      : changes.map((change): LineRun => ({ change: change.added ? "added" : change.removed ? "removed" : "same", text: change.value, count: change.count }));
  const runs = joinSame([...run("same", before.slice(0, shared.old.head)), ...middle, ...run("same", before.slice(shared.old.tail))]);
  const total = (change: LineChange) => runs.reduce((all, each) => (each.change === change ? all + each.count : all), 0);
  return { added: total("added"), removed: total("removed"), runs };
}

/**
 * The changed lines as text (`+ added`, `- removed`, `  context`), runs of unchanged lines folded to one line, at most
 * `maxChars` characters; `cutChars` says how many more there were.
 */
export function diffPreview(diff: LineDiff, maxChars: number): BoundedText {
  const out = new PreviewText(maxChars);
  diff.runs.forEach((run, index) => {
    if (run.change !== "same") {
      for (const line of linesOf(run.text)) out.line(`${PREFIX[run.change]}${line}`);
      return;
    }
    // Context after the change before, and before the change after; the unchanged lines between are folded.
    const head = index === 0 ? 0 : CONTEXT_LINES;
    const tail = index === diff.runs.length - 1 ? 0 : CONTEXT_LINES;
    if (run.count <= head + tail) {
      for (const line of linesOf(run.text)) out.line(`${PREFIX.same}${line}`);
      return;
    }
    for (const line of firstLines(run.text, head)) out.line(`${PREFIX.same}${line}`);
    const folded = run.count - head - tail;
    // An unchanged file, or unchanged lines before its first change or after its last: said only around a change.
    if (diff.runs.length > 1) out.line(`⋯ ${folded} unchanged ${folded === 1 ? "line" : "lines"}`);
    for (const line of lastLines(run.text, tail)) out.line(`${PREFIX.same}${line}`);
  });
  return out.result();
}

const PREFIX: Record<LineChange, string> = { same: "  ", added: "+ ", removed: "- " };

/** Text of lines joined by newlines, kept up to a bound: past it only counted, never built. */
class PreviewText {
  private readonly parts: string[] = [];
  private length = 0;

  constructor(private readonly maxChars: number) {}

  line(text: string): void {
    const start = this.length === 0 ? text : `\n${text}`;
    const room = this.maxChars - this.length;
    if (room > 0) this.parts.push(start.length <= room ? start : start.slice(0, room));
    this.length += start.length;
  }

  result(): BoundedText {
    return { text: this.parts.join(""), cutChars: Math.max(0, this.length - this.maxChars) };
  }
}

function linesOf(text: string): string[] {
  if (text === "") return [];
  return (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
}

/** The first `count` lines of a run, without splitting the rest of it. */
function firstLines(text: string, count: number): string[] {
  const lines: string[] = [];
  let start = 0;
  while (lines.length < count) {
    const end = text.indexOf("\n", start);
    lines.push(text.slice(start, end === -1 ? undefined : end));
    if (end === -1) break;
    start = end + 1;
  }
  return lines;
}

/** The last `count` lines of a run, without splitting the rest of it. */
function lastLines(text: string, count: number): string[] {
  const lines: string[] = [];
  let end = text.endsWith("\n") ? text.length - 1 : text.length;
  while (lines.length < count) {
    const newline = end === 0 ? -1 : text.lastIndexOf("\n", end - 1);
    lines.unshift(text.slice(newline + 1, end));
    if (newline === -1) break;
    end = newline;
  }
  return lines;
}

/** Where, in one text, the lines shared at the start end and the lines shared at the end begin. */
interface Middle {
  head: number;
  tail: number;
}

/**
 * The whole lines two texts share at their start and at their end, never overlapping: in each text, where the middle
 * between them lies. Walked line by line from each end, stopping at the first difference: cheap however long the texts.
 */
function sharedLines(before: string, after: string): { old: Middle; new: Middle } {
  let i = 0;
  let j = 0;
  while (i < before.length && j < after.length) {
    const endBefore = lineEnd(before, i);
    const endAfter = lineEnd(after, j);
    if (endBefore - i !== endAfter - j || before.slice(i, endBefore) !== after.slice(j, endAfter)) break;
    i = Math.min(endBefore + 1, before.length);
    j = Math.min(endAfter + 1, after.length);
  }
  let tailBefore = before.length;
  let tailAfter = after.length;
  // A last line with and without its newline is the same line.
  let endBefore = before.endsWith("\n") ? before.length - 1 : before.length;
  let endAfter = after.endsWith("\n") ? after.length - 1 : after.length;
  while (endBefore > i && endAfter > j) {
    const startBefore = before.lastIndexOf("\n", endBefore - 1) + 1;
    const startAfter = after.lastIndexOf("\n", endAfter - 1) + 1;
    if (startBefore < i || startAfter < j || endBefore - startBefore !== endAfter - startAfter) break;
    if (before.slice(startBefore, endBefore) !== after.slice(startAfter, endAfter)) break;
    tailBefore = startBefore;
    tailAfter = startAfter;
    endBefore = startBefore - 1;
    endAfter = startAfter - 1;
  }
  return { old: { head: i, tail: tailBefore }, new: { head: j, tail: tailAfter } };
}

/** Where the line starting at `start` ends: its newline, or the end of the text. */
function lineEnd(text: string, start: number): number {
  const end = text.indexOf("\n", start);
  return end === -1 ? text.length : end;
}

/** A run of these lines, none when there are none. */
function run(change: LineChange, text: string): LineRun[] {
  if (text === "") return [];
  let count = text.endsWith("\n") ? 0 : 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return [{ change, text, count }];
}

/** Unchanged runs side by side (the shared head and the middle's own start) are one run. */
function joinSame(runs: readonly LineRun[]): LineRun[] {
  const joined: LineRun[] = [];
  for (const next of runs) {
    const last = joined.at(-1);
    if (last?.change === "same" && next.change === "same") joined[joined.length - 1] = { change: "same", text: last.text + next.text, count: last.count + next.count };
    else joined.push(next);
  }
  return joined;
}
