// Text an agent or a tool produced (what a command printed, a diff, a raw request), folded under a one-line summary.
// Always text in a <pre>, never markup, and at most MAX_SHOWN_CHARS of it with a note saying how much more there was.
import { bounded } from "../../common/bounded-text";
import { truncationNote } from "../../common/transcript-markdown";
import { element, icon } from "../element";

export const MAX_SHOWN_CHARS = 20_000;

export class FoldedText {
  readonly element: HTMLDetailsElement;
  private readonly label: HTMLElement;
  private readonly text: HTMLPreElement;
  private readonly note: HTMLElement;
  private shown: string | null = null;

  constructor(className: string) {
    this.label = element("span", { className: "folded-label" });
    this.text = element("pre", { className: "folded-text" });
    this.note = element("div", { className: "truncated-note" });
    this.element = element("details", { className: `folded ${className}` }, element("summary", {}, icon("chevron-right", "chevron"), this.label), this.text, this.note);
  }

  /**
   * Keeps the fold open or closed as the user left it; writes the text only when it changed. `cutChars`: characters
   * already left out of `text` before it came here.
   */
  show(label: string, text: string, cutChars = 0): void {
    this.label.textContent = label;
    if (text === this.shown) return;
    this.shown = text;
    const start = bounded(text, MAX_SHOWN_CHARS);
    const dropped = start.cutChars + cutChars;
    this.text.textContent = start.text;
    this.note.textContent = dropped > 0 ? truncationNote(dropped) : "";
    this.note.hidden = dropped === 0;
  }
}

/** "12 lines", for a fold's summary. */
export function countLines(text: string): string {
  const lines = text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  return lines === 1 ? "1 line" : `${lines.toLocaleString("en-US")} lines`;
}
