// The agent's answer: markdown that grows as it streams.
import type { TextBlock } from "../../protocol/transcript";
import { MarkdownView } from "../markdown-view";
import type { BlockView } from "./block-view";

export class TextView implements BlockView<TextBlock> {
  private markdown: MarkdownView;
  private settled = false;

  constructor(block: TextBlock) {
    this.markdown = TextView.render(block);
  }

  get element(): HTMLElement {
    return this.markdown.element;
  }

  /** A text block replaced whole is rendered anew, in the old one's place. */
  update(block: TextBlock): void {
    const next = TextView.render(block);
    this.markdown.element.replaceWith(next.element);
    this.markdown = next;
    next.paint();
    next.showCut(block.truncatedChars ?? 0);
    if (this.settled) next.settle();
  }

  /** Painted once in the page, as before the views moved to blocks/: the first paint lands where every later one does. */
  placed(): void {
    this.markdown.paint();
  }

  grow(text: string): void {
    this.markdown.append(text);
    this.markdown.paint();
  }

  showCut(droppedChars: number): void {
    this.markdown.showCut(droppedChars);
  }

  settle(): void {
    this.settled = true;
    this.markdown.settle();
  }

  private static render(block: TextBlock): MarkdownView {
    return new MarkdownView("answer-text", block.text);
  }
}
