// The <code> of a fenced block the model is still writing. Its whole lines go in as text nodes and are never
// rendered again. They sit in chunks of lines that each lay out on their own: Chromium lays out one <pre> of text
// whole on every frame, so adding a line to it cost 1.4 ms at line 50 and 6.8 ms at line 1,500; in chunks, 0.9 and
// 0.8 ms. Once the fence closes, or the text ends, the renderer's own DOM takes its place (markdown-view.ts).
import { element } from "./element";

const LINES_PER_CHUNK = 64;

export class OpenCodeBlock {
  /** The line still being written: always last, in the last chunk. */
  private readonly unfinished = document.createTextNode("");
  private linesInChunk = 0;

  /** Takes over a <code> just rendered from the same text: `wholeLines` and `unfinishedLine` are its code. */
  constructor(
    private readonly code: Element,
    wholeLines: string,
    unfinishedLine: string,
  ) {
    code.replaceChildren();
    this.startChunk();
    this.appendLines(wholeLines);
    this.showUnfinishedLine(unfinishedLine);
  }

  /** Adds whole lines: text that ends with a line break (or nothing). */
  appendLines(text: string): void {
    let rest = text;
    while (rest.length > 0) {
      if (this.linesInChunk === LINES_PER_CHUNK) this.startChunk();
      const { end, lines } = firstLines(rest, LINES_PER_CHUNK - this.linesInChunk);
      this.unfinished.before(document.createTextNode(rest.slice(0, end)));
      this.linesInChunk += lines;
      rest = rest.slice(end);
    }
  }

  showUnfinishedLine(text: string): void {
    if (this.unfinished.data !== text) this.unfinished.data = text;
  }

  /**
   * A chunk is a line box's strut as the <pre> makes it, around text in the <code>'s font, so each line sits
   * exactly where the finished block puts it (styles.css, .code-lines).
   */
  private startChunk(): void {
    const text = element("span", { className: "code-lines-text" }, this.unfinished);
    this.code.append(element("span", { className: "code-lines" }, text));
    this.linesInChunk = 0;
  }
}

/** Where the first `count` lines of `text` end (or its end), and how many lines that is. */
function firstLines(text: string, count: number): { end: number; lines: number } {
  let end = 0;
  for (let lines = 0; lines < count; lines++) {
    const lineEnd = text.indexOf("\n", end);
    if (lineEnd === -1) return { end: text.length, lines };
    end = lineEnd + 1;
  }
  return { end, lines: count };
}
