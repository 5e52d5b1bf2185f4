// The model's thinking: open while it streams, folded once the answer moves on.
import { element, icon } from "./element";
import { MarkdownView } from "./markdown-view";

export class ThinkingView {
  readonly element: HTMLDetailsElement;
  private readonly markdown: MarkdownView;
  private readonly label: HTMLElement;
  private live: boolean;

  constructor(text: string, live: boolean) {
    this.markdown = new MarkdownView("thinking-text", text);
    this.label = element("span", { className: "thinking-label" });
    const summary = element("summary", {}, icon("chevron-right", "chevron"), icon("lightbulb"), this.label);
    this.element = element("details", { className: "thinking" }, summary, this.markdown.element);
    this.live = live;
    this.element.open = live;
    this.showLabel();
  }

  append(text: string): void {
    this.markdown.append(text);
  }

  paint(): void {
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
}
