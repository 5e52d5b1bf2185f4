// A fixed-size digest of a JSON value that does not depend on the order of its objects' keys: what a tool call will
// do (its input, its diffs) kept as an identity after the value itself is let go or cut.
import { createHash, type Hash } from "node:crypto";

/**
 * SHA-256, hex, of `value` in a canonical form: every object's keys sorted, every string (key or value) written as its
 * length and then its UTF-16 code units as they are (a lone surrogate too: UTF-8 would make every one U+FFFD). Length-prefixed, a string is told apart from any other without being
 * escaped first: a copy of a 10 MB diff made to hash it doubled what reading a hostile agent's line costs.
 */
export function canonicalDigest(value: unknown): string {
  const hash = createHash("sha256");
  hashCanonicalJson(hash, value);
  return hash.digest("hex");
}

const HASHED_PIECE_CHARS = 64 * 1024;

/** A piece of the canonical text itself, as opposed to a value still to be written. */
class Written {
  constructor(readonly text: string) {}
}

/** A loop, not recursion: an agent's raw input may nest deeper than the stack goes. Undefined is written as null. */
function hashCanonicalJson(hash: Hash, value: unknown): void {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next instanceof Written) hash.update(next.text, "utf16le");
    else if (Array.isArray(next)) pushEnclosed(pending, "[", "]", next.length, () => "", (i) => next[i]);
    else if (typeof next === "object" && next !== null) {
      const record = next as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      pushEnclosed(pending, "{", "}", keys.length, (i) => `k${keys[i]!.length}:${keys[i]!}`, (i) => record[keys[i]!]);
    } else if (typeof next === "string") {
      hash.update(`s${next.length}:`, "utf16le");
      // In pieces: each update copies its text into bytes first, and one piece's copy is small where the whole was not.
      for (let at = 0; at < next.length; at += HASHED_PIECE_CHARS) hash.update(next.slice(at, at + HASHED_PIECE_CHARS), "utf16le");
    } else hash.update(JSON.stringify(next) ?? "null", "utf16le");
  }
}

/** Queues `count` items between brackets, comma-separated, each after its prefix: the last to be written first. */
function pushEnclosed(pending: unknown[], open: string, close: string, count: number, prefix: (i: number) => string, item: (i: number) => unknown): void {
  pending.push(new Written(close));
  for (let i = count - 1; i >= 0; i--) pending.push(item(i), new Written((i > 0 ? "," : "") + prefix(i)));
  pending.push(new Written(open));
}
