// What an edit changes, line by line: the `+N −M` counts a tool card and a permission card show per file, and a
// short text preview of the changed lines. A plain LCS over the lines the two texts do not share at their start
// and end; past a size bound it counts every such line as changed rather than spend seconds on one diff.
import { bounded, type BoundedText } from "./bounded-text";

export type LineChange = "same" | "added" | "removed";

export interface DiffLine {
  change: LineChange;
  text: string;
}

export interface LineDiff {
  added: number;
  removed: number;
  lines: DiffLine[];
}

/** Lines × lines of the changed middle above which the exact diff is skipped (a 1,000 × 1,000-line rewrite). */
const MAX_COMPARED_CELLS = 1_000_000;
/** Unchanged lines kept around a change in the preview. */
const CONTEXT_LINES = 2;

/** `oldText` null: a new file, every line added. */
export function diffLines(oldText: string | null, newText: string): LineDiff {
  const before = linesOf(oldText ?? "");
  const after = linesOf(newText);
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore--;
    endAfter--;
  }
  const middle = diffMiddle(before.slice(start, endBefore), after.slice(start, endAfter));
  const lines = [...before.slice(0, start).map(same), ...middle, ...before.slice(endBefore).map(same)];
  return {
    added: middle.filter((line) => line.change === "added").length,
    removed: middle.filter((line) => line.change === "removed").length,
    lines,
  };
}

/**
 * The changed lines as text (`+ added`, `- removed`, `  context`), runs of unchanged lines folded to one line, at most
 * `maxChars` characters; `cutChars` says how many more there were.
 */
export function diffPreview(diff: LineDiff, maxChars: number): BoundedText {
  const out: string[] = [];
  const near = nearChanges(diff.lines);
  let skipped = 0;
  diff.lines.forEach((line, index) => {
    if (!near[index]) {
      skipped++;
      return;
    }
    if (skipped > 0) out.push(`⋯ ${skipped} unchanged ${skipped === 1 ? "line" : "lines"}`);
    skipped = 0;
    out.push(`${PREFIX[line.change]}${line.text}`);
  });
  if (skipped > 0 && out.length > 0) out.push(`⋯ ${skipped} unchanged ${skipped === 1 ? "line" : "lines"}`);
  return bounded(out.join("\n"), maxChars);
}

const PREFIX: Record<LineChange, string> = { same: "  ", added: "+ ", removed: "- " };

function linesOf(text: string): string[] {
  if (text === "") return [];
  return (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
}

function same(text: string): DiffLine {
  return { change: "same", text };
}

/** The longest common subsequence of two line lists, walked back into removed / added / same lines. */
function diffMiddle(before: readonly string[], after: readonly string[]): DiffLine[] {
  const removedAll = before.map((text): DiffLine => ({ change: "removed", text }));
  const addedAll = after.map((text): DiffLine => ({ change: "added", text }));
  if (before.length === 0 || after.length === 0 || before.length * after.length > MAX_COMPARED_CELLS) return [...removedAll, ...addedAll];
  const width = after.length + 1;
  // common[i * width + j]: the LCS length of before[i..] and after[j..].
  const common = new Uint32Array((before.length + 1) * width);
  for (let i = before.length - 1; i >= 0; i--) {
    for (let j = after.length - 1; j >= 0; j--) {
      common[i * width + j] = before[i] === after[j] ? common[(i + 1) * width + j + 1] + 1 : Math.max(common[(i + 1) * width + j], common[i * width + j + 1]);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length && j < after.length) {
    if (before[i] === after[j]) {
      lines.push(same(before[i]));
      i++;
      j++;
    } else if (common[(i + 1) * width + j] >= common[i * width + j + 1]) {
      lines.push(removedAll[i++]);
    } else {
      lines.push(addedAll[j++]);
    }
  }
  return [...lines, ...removedAll.slice(i), ...addedAll.slice(j)];
}

/** Which lines the preview keeps: every changed line and CONTEXT_LINES unchanged ones either side. */
function nearChanges(lines: readonly DiffLine[]): boolean[] {
  const keep = lines.map((line) => line.change !== "same");
  const changed = lines.flatMap((line, index) => (line.change === "same" ? [] : [index]));
  for (const index of changed) {
    for (let k = Math.max(0, index - CONTEXT_LINES); k <= Math.min(lines.length - 1, index + CONTEXT_LINES); k++) keep[k] = true;
  }
  return keep;
}
