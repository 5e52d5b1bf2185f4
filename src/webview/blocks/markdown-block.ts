// A text or thinking block's markdown: grows as deltas arrive, and is rendered anew in place when the whole block
// is replaced. The text view is this; the thinking view folds one.
import type { TextBlock, ThinkingBlock } from "../../protocol/transcript";
import { MarkdownView } from "../markdown-view";

export class MarkdownBlock {
  private markdown: MarkdownView;
  private settled = false;

  constructor(
    private readonly className: string,
    block: TextBlock | ThinkingBlock,
  ) {
    this.markdown = new MarkdownView(className, block.text);
  }

  get element(): HTMLElement {
    return this.markdown.element;
  }

  /** A block replaced whole is rendered anew, in the old one's place. */
  update(block: TextBlock | ThinkingBlock): void {
    const next = new MarkdownView(this.className, block.text);
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
}
