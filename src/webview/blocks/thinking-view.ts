// The model's thinking: open while it streams, folded once the answer moves on.
import type { ThinkingBlock } from "../../protocol/transcript";
import { element, icon } from "../element";
import type { BlockView } from "./block-view";
import { MarkdownBlock } from "./markdown-block";

export class ThinkingView implements BlockView<ThinkingBlock> {
  readonly element: HTMLDetailsElement;
  private readonly markdown: MarkdownBlock;
  private readonly label: HTMLElement;
  private live: boolean;

  constructor(block: ThinkingBlock, live: boolean) {
    this.markdown = new MarkdownBlock("thinking-text", block);
    this.label = element("span", { className: "thinking-label" });
    const summary = element("summary", {}, icon("chevron-right", "chevron"), icon("lightbulb"), this.label);
    this.element = element("details", { className: "thinking" }, summary, this.markdown.element);
    this.live = live;
    this.element.open = live;
    this.showLabel();
  }

  /** Replaced whole: the new text in the same fold, open or closed as the user left it. */
  update(block: ThinkingBlock): void {
    this.markdown.update(block);
  }

  placed(): void {
    this.markdown.placed();
  }

  grow(text: string): void {
    this.markdown.grow(text);
  }

  showCut(droppedChars: number): void {
    this.markdown.showCut(droppedChars);
  }

  /** Folds it once, when it stops streaming; after that it stays as the user leaves it. */
  settle(): void {
    this.markdown.settle();
    if (!this.live) return;
    this.live = false;
    this.element.open = false;
    this.showLabel();
  }

  private showLabel(): void {
    this.label.textContent = this.live ? "Thinking…" : "Thinking";
  }
}
