// The lines an agent asks for (`line`, 1-based, and `limit`, a number of lines), taken from a file or from an open
// document without ever holding more than one read may return: a file is read only as far as the lines asked for go,
// never whole when a few lines are asked, and a read past the bound is refused with how to read it in parts.
import type { FileHandle } from "node:fs/promises";

/**
 * The most text one read returns: 4 MiB. It goes to the agent as one JSON-RPC line, up to 6× longer once escaped (a
 * control character is `\u0001`), so one answer stays under 25 MiB on its way out, well inside the 200 MB the host
 * holds to; and 4 MiB is already more than any model's context (about a million tokens).
 */
export const MAX_READ_BYTES = 4 * 1024 * 1024;

/** Enough to pass a file's lines in few calls, little enough that what a read holds besides its text stays small. */
const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;
const MIB = 1024 * 1024;

export interface LineRange {
  line?: number | null;
  limit?: number | null;
}

/** An open document's text, line by line: what the editor holds, unsaved changes included. */
export interface DocumentLines {
  readonly lineCount: number;
  /** The line at `index` (0-based), without its line break. */
  lineAt(index: number): string;
  /** The document's line break, put back between the lines taken. */
  readonly eol: string;
}

/** 0-based: the first line asked for and the one past the last (Infinity: to the end). */
interface LineBounds {
  first: number;
  end: number;
}

function boundsOf(range: LineRange): LineBounds {
  const first = Math.max(0, Math.trunc((range.line ?? 1) - 1));
  const end = range.limit === undefined || range.limit === null ? Infinity : first + Math.max(0, Math.trunc(range.limit));
  return { first, end };
}

/**
 * The lines asked for from `file` (opened for reading, at its start), joined by the line breaks between them as in the
 * file; the whole file when neither `line` nor `limit` is given. Reads no further than the last line asked for, and
 * stops at the next chunk once `signal` aborts. `name` is the path the agent asked for, for the errors.
 */
export async function readLines(file: FileHandle, size: number, range: LineRange, name: string, signal: AbortSignal, maxBytes = MAX_READ_BYTES): Promise<string> {
  const { first, end } = boundsOf(range);
  if (end <= first) return "";
  if (first === 0 && end === Infinity && size > maxBytes) throw wholeFileTooLarge(name, size, maxBytes);
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const taken: Buffer[] = [];
  let takenBytes = 0;
  /** Line breaks passed so far: the 0-based index of the line being read. */
  let breaks = 0;
  let taking = first === 0;
  /** Takes `chunk` from `from` to `to`, which ends in the line at index `lineIndex`. */
  const take = (chunk: Buffer, from: number, to: number, lineIndex: number): void => {
    takenBytes += to - from;
    if (takenBytes > maxBytes) throw rangeTooLarge(name, first, lineIndex === first, maxBytes);
    taken.push(Buffer.from(chunk.subarray(from, to)));
  };
  for (;;) {
    if (signal.aborted) throw new Error(`the read of ${name} was abandoned`);
    const { bytesRead } = await file.read(buffer, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    let from = taking ? 0 : bytesRead;
    let position = 0;
    // Line breaks are counted only while they matter: to find the first line, and then the end of the last.
    while (position < bytesRead && !(taking && end === Infinity)) {
      const lineBreak = chunk.indexOf(NEWLINE, position);
      if (lineBreak === -1) break;
      breaks++;
      position = lineBreak + 1;
      if (!taking && breaks === first) {
        taking = true;
        from = position;
      } else if (taking && breaks === end) {
        take(chunk, from, lineBreak, breaks - 1);
        return Buffer.concat(taken).toString("utf8");
      }
    }
    if (taking) take(chunk, from, bytesRead, breaks);
  }
  return Buffer.concat(taken).toString("utf8");
}

/** The lines asked for from an open document, by the same rules and bound as from a file. */
export function linesOfDocument(document: DocumentLines, range: LineRange, name: string, maxBytes = MAX_READ_BYTES): string {
  const { first, end } = boundsOf(range);
  const last = Math.min(end, document.lineCount);
  const lines: string[] = [];
  let bytes = 0;
  for (let index = first; index < last; index++) {
    const text = document.lineAt(index);
    bytes += Buffer.byteLength(text) + (index > first ? Buffer.byteLength(document.eol) : 0);
    if (bytes > maxBytes) throw rangeTooLarge(name, first, index === first, maxBytes);
    lines.push(text);
  }
  return lines.join(document.eol);
}

function wholeFileTooLarge(name: string, size: number, maxBytes: number): Error {
  return new Error(`${name} is ${mebibytes(size)}, more than the ${mebibytes(maxBytes)} one read returns: read it in parts with line and limit (say limit 2000, then line 2001)`);
}

function rangeTooLarge(name: string, first: number, withinFirstLine: boolean, maxBytes: number): Error {
  if (withinFirstLine) return new Error(`line ${first + 1} of ${name} alone is longer than ${mebibytes(maxBytes)}, the most one read returns, so it cannot be read as text`);
  return new Error(`the lines asked for from line ${first + 1} of ${name} come to more than ${mebibytes(maxBytes)}, the most one read returns: ask for fewer with limit`);
}

/** To a tenth, rounded up: a file just over the bound is never said to be the bound's size. */
function mebibytes(bytes: number): string {
  return `${Math.ceil((bytes / MIB) * 10) / 10} MiB`;
}
