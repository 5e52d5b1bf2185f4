// Splits growing markdown into segments that are finished for good, so a streaming answer renders each part
// once. A segment ends at a safe boundary: a blank line outside a fenced code block, followed by a line that
// starts at the margin. What follows such a boundary cannot change how the text before it renders, with two
// exceptions we accept: a loose list cut at a blank line shows as two lists, and a link reference definition
// applies only to segments after it. Whether a position is a boundary depends only on the text up to the first
// character after it, so streamed and replayed text split the same way.
//
// It also tells where a fenced code block still open at the end of the text keeps its code, so the view can add
// the code's new lines as text instead of rendering the whole block again (markdown-view.ts).

interface Fence {
  marker: "`" | "~";
  length: number;
  /** Spaces before the opening marker. */
  indent: number;
  /** Offset in `open` of the first line of code, after the opening line. */
  codeStart: number;
}

/**
 * A fenced code block opened at the margin and still open at the end of the tail. markdown-it renders such a tail
 * as the text up to `codeStart` renders, with the code (`codeText` of the source) inside the fence's <code>.
 */
export interface OpenFence {
  /** Offset in `tail` where the code starts; it stays put while the fence is open. */
  codeStart: number;
  /** Offset in `tail` just past the last whole line: the code before it does not change while the fence is open. */
  wholeLinesEnd: number;
  /** The line still being written, as markdown-it shows it after the whole lines. */
  unfinishedLine: string;
}

/** The marker's run is taken whole (the lookaheads): a line that does not match is not tried with a shorter run. */
const FENCE_OPEN = /^( {0,3})(`{3,}(?!`)|~{3,}(?!~))([^\n]*)$/;
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

  /** The fenced code block the tail ends in, if it was opened at the margin (an indented one may sit in a list item). */
  get openFence(): OpenFence | null {
    const fence = this.fence;
    if (fence === null || fence.indent > 0) return null;
    const unfinished = this.open.slice(this.scanned) + (this.heldCarriageReturn ? "\n" : "");
    return { codeStart: fence.codeStart, wholeLinesEnd: this.scanned, unfinishedLine: shownUnfinishedLine(unfinished, fence) };
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
      this.followFence(line, lineEnd + 1);
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

  /** `nextLineStart`: where the line after this one starts in `open`. */
  private followFence(line: string, nextLineStart: number): void {
    if (this.fence === null) {
      const open = FENCE_OPEN.exec(line);
      if (open === null) return;
      const marker = open[2][0] as "`" | "~";
      // A backtick fence's info string may not contain a backtick: "```a```" is inline code, not a fence.
      if (marker === "`" && open[3].includes("`")) return;
      this.fence = { marker, length: open[2].length, indent: open[1].length, codeStart: nextLineStart };
      return;
    }
    if (closesFence(line, this.fence)) this.fence = null;
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
    // A fence still open began after the last boundary: no boundary is ever found inside one.
    if (this.fence !== null) this.fence.codeStart -= start;
    return segments;
  }
}

/** Code as markdown-it shows it: it reads NUL as U+FFFD (its line ends are LF already in `tail`). */
export function codeText(source: string): string {
  return source.includes("\0") ? source.replaceAll("\0", "\uFFFD") : source;
}

function closesFence(line: string, fence: Fence): boolean {
  const close = FENCE_CLOSE.exec(line);
  return close !== null && close[1][0] === fence.marker && close[1].length >= fence.length;
}

/**
 * markdown-it renders the text as it is so far: a last line that would close the fence closes it, and a last
 * line of only blanks, not yet ended, is not part of the code.
 */
function shownUnfinishedLine(unfinished: string, fence: Fence): string {
  const ended = unfinished.endsWith("\n");
  const line = ended ? unfinished.slice(0, -1) : unfinished;
  if (closesFence(line, fence) || (!ended && isBlank(line))) return "";
  return codeText(unfinished);
}

function isBlank(line: string): boolean {
  return /^[ \t]*$/.test(line);
}

function isWhitespace(char: string): boolean {
  return char === " " || char === "\t";
}
