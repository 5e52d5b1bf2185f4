// The @ picker's match: the letters typed, in order, anywhere in a path ("authmw" finds src/auth/middleware.ts), a
// match in the file's own name and at the start of words ranked first. One pass over each path, no regular
// expression: a 50,000-file workspace is scored on each keystroke.
import type { TreeEntry } from "./workspace-tree";

export interface PickedEntry extends TreeEntry {
  /** One of the files open in the editor: offered first. */
  open: boolean;
}

/** Longer is not something a person types into a picker. */
export const MAX_QUERY_CHARS = 200;

/** Where a word starts: after a separator, or a capital after a small letter (camelCase). */
function startsWord(text: string, index: number): boolean {
  if (index === 0) return true;
  const before = text[index - 1];
  if (before === "/" || before === "\\" || before === "." || before === "-" || before === "_" || before === " ") return true;
  const here = text[index];
  return here >= "A" && here <= "Z" && before >= "a" && before <= "z";
}

/**
 * How well `query` (lower case, no spaces) matches `text` from `from` on, greedily: each letter of the query at its
 * first place, a point for each, more for one right after the last and for one that starts a word. Null: not all found.
 */
function scoreFrom(query: string, text: string, lower: string, from: number): number | null {
  let score = 0;
  let at = from;
  let previous = -2;
  for (const letter of query) {
    const found = lower.indexOf(letter, at);
    if (found === -1) return null;
    score += 1;
    if (found === previous + 1) score += 5;
    if (startsWord(text, found)) score += 8;
    previous = found;
    at = found + 1;
  }
  return score;
}

/** The entry's score for the query, or null when it does not match. Higher is better. */
export function matchScore(query: string, entry: TreeEntry): number | null {
  const lower = entry.path.toLowerCase();
  const nameStart = lower.lastIndexOf("/") + 1;
  const name = lower.slice(nameStart);
  // The file's own name first: "readme" should find README.md before docs/readme-images/a.png.
  const inName = scoreFrom(query, entry.path, lower, nameStart);
  const anywhere = inName ?? scoreFrom(query, entry.path, lower, 0);
  if (anywhere === null) return null;
  let score = anywhere + (inName === null ? 0 : 20);
  if (name.startsWith(query)) score += 40;
  else if (name.includes(query)) score += 25;
  else if (lower.includes(query)) score += 15;
  // Of equals, the shorter path (nearer the top, less to read).
  return score - entry.path.length / 100;
}

/**
 * The best `limit` entries for what was typed: open files first when nothing is typed yet, else by score (open files
 * ahead of equals). `query` is cut to MAX_QUERY_CHARS, lower-cased, spaces dropped.
 */
export function pickEntries(entries: readonly TreeEntry[], open: ReadonlySet<string>, typed: string, limit: number): PickedEntry[] {
  const query = typed.slice(0, MAX_QUERY_CHARS).toLowerCase().split(" ").join("");
  const picked = (entry: TreeEntry): PickedEntry => ({ ...entry, open: open.has(entry.path) });
  if (query === "") {
    const openFirst = entries.filter((entry) => open.has(entry.path));
    const rest = entries.filter((entry) => !open.has(entry.path) && entry.kind === "file");
    return [...openFirst, ...rest].slice(0, limit).map(picked);
  }
  const scored: { entry: TreeEntry; score: number }[] = [];
  for (const entry of entries) {
    const score = matchScore(query, entry);
    if (score !== null) scored.push({ entry, score: score + (open.has(entry.path) ? 10 : 0) });
  }
  scored.sort((a, b) => b.score - a.score || (a.entry.path < b.entry.path ? -1 : 1));
  return scored.slice(0, limit).map(({ entry }) => picked(entry));
}
