// Splits growing markdown into segments that are finished for good, so a streaming answer renders each part
// once. A segment ends at a safe boundary: a blank line outside a fenced code block, followed by a line that
// starts at the margin. What follows such a boundary cannot change how the text before it renders, with two
// exceptions we accept: a loose list cut at a blank line shows as two lists, and a link reference definition
// applies only to segments after it. Whether a position is a boundary depends only on the text up to the first
// character after it, so streamed and replayed text split the same way.

interface Fence {
  marker: "`" | "~";
  length: number;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})([^\n]*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

export class MarkdownSegmenter {
  /** Text after the last boundary: the open segment. */
  private open = "";
  /** Offset in `open` of the first line not yet seen whole. */
  private scanned = 0;
  /** How much of `open` is known to hold no line break after `scanned`: a long line is not searched again. */
  private searched = 0;
  private fence: Fence | null = null;
  private previousLineBlank = false;
  private heldCarriageReturn = false;

  /** The open segment: everything from the last safe boundary on (line ends as LF). */
  get tail(): string {
    return this.heldCarriageReturn ? this.open + "\n" : this.open;
  }

  /** Adds streamed text; returns the segments it finished, in order (often none). */
  push(text: string): string[] {
    const normalized = this.normalizeLineEnds(text);
    if (normalized.length === 0) return [];
    this.open += normalized;
    const boundaries: number[] = [];
    let lineStart = this.scanned;
    let searchFrom = Math.max(lineStart, this.searched);
    for (;;) {
      const lineEnd = this.open.indexOf("\n", searchFrom);
      const line = lineEnd === -1 ? this.open.slice(lineStart) : this.open.slice(lineStart, lineEnd);
      // Only the line's first character matters here, so an unfinished line may already start a segment.
      if (lineStart > (boundaries.at(-1) ?? 0) && this.startsSegment(line)) boundaries.push(lineStart);
      if (lineEnd === -1) break;
      this.followFence(line);
      this.previousLineBlank = isBlank(line);
      lineStart = lineEnd + 1;
      searchFrom = lineStart;
    }
    this.scanned = lineStart;
    this.searched = this.open.length;
    return this.cut(boundaries);
  }

  /**
   * markdown-it reads CR LF and a lone CR as line breaks too; the scan sees them as LF. A CR at the end of a
   * piece waits for the next one, which may start with the LF of the same CR LF.
   */
  private normalizeLineEnds(text: string): string {
    let pending = this.heldCarriageReturn ? "\r" + text : text;
    this.heldCarriageReturn = pending.endsWith("\r");
    if (this.heldCarriageReturn) pending = pending.slice(0, -1);
    return pending.includes("\r") ? pending.replace(/\r\n?/g, "\n") : pending;
  }

  private startsSegment(line: string): boolean {
    return this.fence === null && this.previousLineBlank && line.length > 0 && !isWhitespace(line[0]);
  }

  private followFence(line: string): void {
    if (this.fence === null) {
      const open = FENCE_OPEN.exec(line);
      if (open === null) return;
      const marker = open[1][0] as "`" | "~";
      // A backtick fence's info string may not contain a backtick: "```a```" is inline code, not a fence.
      if (marker === "`" && open[2].includes("`")) return;
      this.fence = { marker, length: open[1].length };
      return;
    }
    const close = FENCE_CLOSE.exec(line);
    if (close !== null && close[1][0] === this.fence.marker && close[1].length >= this.fence.length) this.fence = null;
  }

  private cut(boundaries: readonly number[]): string[] {
    if (boundaries.length === 0) return [];
    const segments: string[] = [];
    let start = 0;
    for (const boundary of boundaries) {
      segments.push(this.open.slice(start, boundary));
      start = boundary;
    }
    this.open = this.open.slice(start);
    this.scanned -= start;
    this.searched -= start;
    return segments;
  }
}

function isBlank(line: string): boolean {
  return /^[ \t]*$/.test(line);
}

function isWhitespace(char: string): boolean {
  return char === " " || char === "\t";
}
