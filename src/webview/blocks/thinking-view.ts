// The model's thinking: open while it streams, folded once the answer moves on.
import type { ThinkingBlock } from "../../protocol/transcript";
import { element, icon } from "../element";
import { MarkdownView } from "../markdown-view";
import type { BlockView } from "./block-view";

export class ThinkingView implements BlockView<ThinkingBlock> {
  readonly element: HTMLDetailsElement;
  private markdown: MarkdownView;
  private readonly label: HTMLElement;
  private live: boolean;

  constructor(block: ThinkingBlock, live: boolean) {
    this.markdown = ThinkingView.render(block);
    this.label = element("span", { className: "thinking-label" });
    const summary = element("summary", {}, icon("chevron-right", "chevron"), icon("lightbulb"), this.label);
    this.element = element("details", { className: "thinking" }, summary, this.markdown.element);
    this.live = live;
    this.element.open = live;
    this.showLabel();
  }

  /** Replaced whole: the new text in the same fold, open or closed as the user left it. */
  update(block: ThinkingBlock): void {
    const next = ThinkingView.render(block);
    this.markdown.element.replaceWith(next.element);
    this.markdown = next;
    next.paint();
    next.showCut(block.truncatedChars ?? 0);
    if (!this.live) next.settle();
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

  private static render(block: ThinkingBlock): MarkdownView {
    return new MarkdownView("thinking-text", block.text);
  }
}
