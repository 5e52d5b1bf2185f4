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

/** An entry as the match reads it: lower-cased once, where its file's own name starts. */
interface Indexed {
  entry: TreeEntry;
  lower: string;
  nameStart: number;
}

function indexed(entry: TreeEntry): Indexed {
  const lower = entry.path.toLowerCase();
  return { entry, lower, nameStart: lower.lastIndexOf("/") + 1 };
}

function scoreOf(query: string, { entry, lower, nameStart }: Indexed): number | null {
  // The file's own name first: "readme" should find README.md before docs/readme-images/a.png.
  const inName = scoreFrom(query, entry.path, lower, nameStart);
  const anywhere = inName ?? scoreFrom(query, entry.path, lower, 0);
  if (anywhere === null) return null;
  let score = anywhere + (inName === null ? 0 : 20);
  const nameAt = lower.indexOf(query, nameStart);
  if (nameAt === nameStart) score += 40;
  else if (nameAt !== -1) score += 25;
  else if (lower.includes(query)) score += 15;
  // Of equals, the shorter path (nearer the top, less to read).
  return score - entry.path.length / 100;
}

/** The entry's score for the query (lower case, no spaces), or null when it does not match. Higher is better. */
export function matchScore(query: string, entry: TreeEntry): number | null {
  return scoreOf(query, indexed(entry));
}

/** A workspace's entries made ready to be matched on every keystroke (each path lower-cased once). */
export class FuzzyIndex {
  private readonly entries: readonly Indexed[];

  constructor(entries: readonly TreeEntry[]) {
    this.entries = entries.map(indexed);
  }

  /**
   * The best `limit` entries for what was typed: open files first when nothing is typed yet, else by score (open
   * files ahead of equals). `typed` is cut to MAX_QUERY_CHARS, lower-cased, spaces dropped.
   */
  pick(open: ReadonlySet<string>, typed: string, limit: number): PickedEntry[] {
    const query = typed.slice(0, MAX_QUERY_CHARS).toLowerCase().split(" ").join("");
    const picked = (entry: TreeEntry): PickedEntry => ({ ...entry, open: open.has(entry.path) });
    if (query === "") {
      const openFirst = this.entries.filter(({ entry }) => open.has(entry.path));
      const rest = this.entries.filter(({ entry }) => !open.has(entry.path) && entry.kind === "file");
      return [...openFirst, ...rest].slice(0, limit).map(({ entry }) => picked(entry));
    }
    // The best `limit` so far, best first: most entries score below the last of them and cost one comparison.
    const best: { entry: TreeEntry; score: number }[] = [];
    for (const item of this.entries) {
      const raw = scoreOf(query, item);
      if (raw === null) continue;
      const score = raw + (open.has(item.entry.path) ? 10 : 0);
      if (best.length === limit && !ranksBefore(score, item.entry, best[best.length - 1])) continue;
      let at = best.length;
      while (at > 0 && ranksBefore(score, item.entry, best[at - 1])) at--;
      best.splice(at, 0, { entry: item.entry, score });
      if (best.length > limit) best.pop();
    }
    return best.map(({ entry }) => picked(entry));
  }
}

function ranksBefore(score: number, entry: TreeEntry, other: { entry: TreeEntry; score: number }): boolean {
  return score > other.score || (score === other.score && entry.path < other.entry.path);
}

/** One query over `entries` (FuzzyIndex keeps the work of lower-casing them for the next keystroke). */
export function pickEntries(entries: readonly TreeEntry[], open: ReadonlySet<string>, typed: string, limit: number): PickedEntry[] {
  return new FuzzyIndex(entries).pick(open, typed, limit);
}
