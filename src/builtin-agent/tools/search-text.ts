// SearchText: the lines of the listed files that match a pattern, in file order. Binary and oversized files are
// skipped, unreadable ones are named, and a total byte budget keeps a huge tree from stalling the answer.
import type { ListedFile } from "./list-files";
import { MAX_READ_BYTES, readFile } from "./read-file";
import { failed, succeeded, type ToolResult } from "./tool-result";

export interface TextMatch {
  path: string;
  /** 1-based. */
  line: number;
  /** The matching line, trimmed and shortened. */
  text: string;
}

export interface SearchResults {
  /** The first `maxMatches` matches, in file then line order. */
  matches: TextMatch[];
  totalMatches: number;
  filesSearched: number;
  skippedBinary: number;
  skippedLarge: string[];
  unreadable: { path: string; error: string }[];
  /** The byte budget ran out before every file was searched. */
  budgetExhausted: boolean;
}

export interface SearchOptions {
  maxMatches?: number;
  maxFileBytes?: number;
  maxTotalBytes?: number;
  signal?: AbortSignal;
}

export const SEARCH_LIMITS = { maxMatches: 1000, maxTotalBytes: 64 * 1024 * 1024 } as const;
const MAX_LINE_CHARS = 160;
/** Reading a few files at once hides disk latency; more would only contend. */
const PARALLEL_READS = 8;

type FileOutcome =
  | { kind: "matches"; matches: TextMatch[] }
  | { kind: "binary" }
  | { kind: "unreadable"; error: string };

export async function searchText(
  root: string,
  files: readonly ListedFile[],
  pattern: RegExp,
  options: SearchOptions = {},
): Promise<ToolResult<SearchResults>> {
  const maxFileBytes = options.maxFileBytes ?? MAX_READ_BYTES;
  // A global or sticky regex remembers where it last matched; each line must be tested afresh.
  const linePattern = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ""));
  const results: SearchResults = { matches: [], totalMatches: 0, filesSearched: 0, skippedBinary: 0, skippedLarge: [], unreadable: [], budgetExhausted: false };
  const toSearch = withinBudget(files, maxFileBytes, options.maxTotalBytes ?? SEARCH_LIMITS.maxTotalBytes, results);
  const outcomes: FileOutcome[] = new Array<FileOutcome>(toSearch.length);
  let nextIndex = 0;
  const worker = async () => {
    for (let i = nextIndex++; i < toSearch.length; i = nextIndex++) {
      if (options.signal?.aborted) return;
      outcomes[i] = await searchFile(root, toSearch[i].path, linePattern, maxFileBytes);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_READS }, worker));
  if (options.signal?.aborted) return failed("interrupted");
  const maxMatches = options.maxMatches ?? SEARCH_LIMITS.maxMatches;
  outcomes.forEach((outcome, i) => collect(results, toSearch[i].path, outcome, maxMatches));
  return succeeded(results);
}

/** Decided from the listing's sizes, before reading, so the same tree always gives the same answer. */
function withinBudget(files: readonly ListedFile[], maxFileBytes: number, maxTotalBytes: number, results: SearchResults): ListedFile[] {
  const chosen: ListedFile[] = [];
  let total = 0;
  for (const file of files) {
    if (file.size > maxFileBytes) {
      results.skippedLarge.push(file.path);
      continue;
    }
    if (total + file.size > maxTotalBytes) {
      results.budgetExhausted = true;
      break;
    }
    total += file.size;
    chosen.push(file);
  }
  return chosen;
}

async function searchFile(root: string, relative: string, pattern: RegExp, maxFileBytes: number): Promise<FileOutcome> {
  const content = await readFile(root, relative, maxFileBytes);
  if (!content.ok) return { kind: "unreadable", error: content.error };
  if (content.value.binary) return { kind: "binary" };
  const matches: TextMatch[] = [];
  content.value.text.split(/\r?\n/).forEach((line, i) => {
    if (pattern.test(line)) matches.push({ path: relative, line: i + 1, text: shorten(line.trim()) });
  });
  return { kind: "matches", matches };
}

function collect(results: SearchResults, relative: string, outcome: FileOutcome, maxMatches: number): void {
  switch (outcome.kind) {
    case "binary":
      results.skippedBinary++;
      return;
    case "unreadable":
      results.unreadable.push({ path: relative, error: outcome.error });
      return;
    case "matches":
      results.filesSearched++;
      results.totalMatches += outcome.matches.length;
      for (const match of outcome.matches) {
        if (results.matches.length >= maxMatches) break;
        results.matches.push(match);
      }
  }
}

function shorten(line: string): string {
  return line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS - 1) + "…" : line;
}
