// Text an agent or a tool produced (what a command printed, a diff, a raw request), folded under a one-line summary.
// Always text in a <pre>, never markup, and at most MAX_SHOWN_CHARS of it with a note saying how much more there was.
import { bounded, type BoundedText } from "../../common/bounded-text";
import { truncationNote } from "../../common/transcript-markdown";
import { element, icon } from "../element";

export const MAX_SHOWN_CHARS = 20_000;

export class FoldedText {
  readonly element: HTMLDetailsElement;
  private readonly label: HTMLElement;
  private readonly text: HTMLPreElement;
  private readonly note: HTMLElement;
  private shown: string | null = null;
  /** The text to make when the fold is first opened (`showWhenOpened`). */
  private unmade: (() => BoundedText) | undefined;

  constructor(className: string) {
    this.label = element("span", { className: "folded-label" });
    this.text = element("pre", { className: "folded-text" });
    this.note = element("div", { className: "truncated-note" });
    this.note.hidden = true;
    const summary = element("summary", {}, icon("chevron-right", "chevron"), this.label);
    this.element = element("details", { className: `folded ${className}` }, summary, this.text, this.note);
    // The click comes before the fold opens, so the text is there when it does; "toggle" covers any other opening.
    summary.addEventListener("click", () => this.make());
    this.element.addEventListener("toggle", () => this.make());
  }

  /**
   * Keeps the fold open or closed as the user left it; writes the text only when it changed. `cutChars`: characters
   * already left out of `text` before it came here.
   */
  show(label: string, text: string, cutChars = 0): void {
    this.unmade = undefined;
    this.label.textContent = label;
    if (text === this.shown) return;
    this.shown = text;
    const start = bounded(text, MAX_SHOWN_CHARS);
    const dropped = start.cutChars + cutChars;
    this.text.textContent = start.text;
    this.note.textContent = dropped > 0 ? truncationNote(dropped) : "";
    this.note.hidden = dropped === 0;
  }

  /** As `show`, with the text made only when the fold is first opened: what it costs is paid only by who looks. */
  showWhenOpened(label: string, text: () => BoundedText): void {
    this.label.textContent = label;
    this.unmade = text;
    if (this.element.open) this.make();
  }

  private make(): void {
    const make = this.unmade;
    if (make === undefined) return;
    const { text, cutChars } = make();
    this.show(this.label.textContent ?? "", text, cutChars);
  }
}

/** "12 lines", for a fold's summary. */
export function countLines(text: string): string {
  const lines = text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  return lines === 1 ? "1 line" : `${lines.toLocaleString("en-US")} lines`;
}
