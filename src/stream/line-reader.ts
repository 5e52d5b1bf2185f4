// Turns a byte stream into text lines. Bytes are joined before decoding, so a chunk boundary
// inside a multi-byte UTF-8 character is harmless. Memory is bounded by the line size limit.
import { isAscii } from "node:buffer";

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export interface LineHandlers {
  /** A complete, non-blank line without its line ending. `lineNumber` counts every line, blank ones too, from 1. */
  onLine(text: string, lineNumber: number): void;
  /** A line longer than the limit; its bytes were dropped as they arrived. */
  onOversizedLine(lineNumber: number, sizeBytes: number): void;
}

export class LineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes of the current line dropped because it passed the limit; -1 while within it. */
  private droppedBytes = -1;
  /** Whether the last dropped byte was a CR, which belongs to a CRLF ending rather than the line. */
  private droppedEndsWithCR = false;
  private lineNumber = 0;
  private ended = false;

  constructor(
    private readonly handlers: LineHandlers,
    private readonly maxLineBytes: number = DEFAULT_MAX_LINE_BYTES,
  ) {
    if (!(maxLineBytes > 0)) throw new RangeError("maxLineBytes must be positive");
  }

  /** Bytes of the current, unfinished line held in memory: never more than the limit plus a trailing CR. */
  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  /** Lines seen so far (including blank and oversized ones). */
  get linesSeen(): number {
    return this.lineNumber;
  }

  push(chunk: Uint8Array): void {
    if (this.ended) throw new Error("LineReader.push after end");
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    if (this.pendingBytes > 0 || this.droppedBytes >= 0) {
      // Finish the line a previous chunk began.
      const newline = bytes.indexOf(NEWLINE);
      if (newline === -1) {
        this.keep(bytes, 0, bytes.length);
        return;
      }
      this.keep(bytes, 0, newline);
      this.finishLine();
      start = newline + 1;
    }
    const last = bytes.lastIndexOf(NEWLINE);
    if (last >= start) {
      const region = bytes.subarray(start, last);
      // One-byte strings parse fastest: decode in bulk only when that is what every line will be.
      if (last - start <= this.maxLineBytes && isAscii(region)) this.emitWholeLines(region.toString("latin1"));
      else this.emitLinesOneByOne(bytes, start, last);
      start = last + 1;
    }
    this.keep(bytes, start, bytes.length);
  }

  /**
   * Fast path: this run of whole lines is ASCII and within the limit, so decode it with one toString
   * and split the string (slices share memory); it decodes exactly as line by line would.
   */
  private emitWholeLines(text: string): void {
    let from = 0;
    for (;;) {
      const newline = text.indexOf("\n", from);
      const end = newline === -1 ? text.length : newline;
      this.lineNumber++;
      const line = text.charCodeAt(end - 1) === CARRIAGE_RETURN ? text.slice(from, end - 1) : text.slice(from, end);
      if (line.length > 0) this.emitIfNotBlank(line);
      if (newline === -1) return;
      from = newline + 1;
    }
  }

  /** Lines that begin and end inside this chunk: decoded straight from it, no copy of their bytes. */
  private emitLinesOneByOne(bytes: Buffer, from: number, last: number): void {
    let start = from;
    while (start <= last) {
      const newline = bytes.indexOf(NEWLINE, start);
      this.lineNumber++;
      const end = newline > start && bytes[newline - 1] === CARRIAGE_RETURN ? newline - 1 : newline;
      if (end - start > this.maxLineBytes) this.handlers.onOversizedLine(this.lineNumber, end - start);
      else if (end > start) this.emitIfNotBlank(bytes.toString("utf8", start, end));
      start = newline + 1;
    }
  }

  private emitIfNotBlank(text: string): void {
    if (!isBlank(text)) this.handlers.onLine(text, this.lineNumber);
  }

  /** End of stream: a last line without a newline is still a line. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.pendingBytes > 0 || this.droppedBytes >= 0) this.finishLine();
  }

  private keep(bytes: Buffer, from: number, to: number): void {
    if (to <= from) return;
    const length = to - from;
    if (this.droppedBytes >= 0) {
      this.droppedBytes += length;
      this.droppedEndsWithCR = bytes[to - 1] === CARRIAGE_RETURN;
      return;
    }
    if (this.pendingBytes + length > this.maxLineBytes + 1) {
      // +1 leaves room for a trailing CR that is not part of the line's content.
      this.droppedBytes = this.pendingBytes + length;
      this.droppedEndsWithCR = bytes[to - 1] === CARRIAGE_RETURN;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    this.pending.push(from === 0 && to === bytes.length ? bytes : bytes.subarray(from, to));
    this.pendingBytes += length;
  }

  private finishLine(): void {
    this.lineNumber++;
    if (this.droppedBytes >= 0) {
      const size = this.droppedBytes - (this.droppedEndsWithCR ? 1 : 0);
      this.droppedBytes = -1;
      this.droppedEndsWithCR = false;
      this.handlers.onOversizedLine(this.lineNumber, size);
      return;
    }
    const parts = this.pending;
    const size = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    if (size === 0) return;
    const line = parts.length === 1 ? parts[0] : Buffer.concat(parts, size);
    const end = line[size - 1] === CARRIAGE_RETURN ? size - 1 : size;
    if (end > this.maxLineBytes) {
      this.handlers.onOversizedLine(this.lineNumber, end);
      return;
    }
    this.emitIfNotBlank(line.toString("utf8", 0, end));
  }
}

function isBlank(text: string): boolean {
  // Fast path: almost every line starts with "{". Only printable ASCII takes it, so every
  // whitespace-only line, whatever Unicode space it starts with, reaches trim() below.
  const first = text.charCodeAt(0);
  if (first > 0x20 && first < 0x7f) return false;
  return text.trim().length === 0;
}
