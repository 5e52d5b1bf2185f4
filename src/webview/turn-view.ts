// One prompt and its answer. Changes from the host update this view's copy of the turn at once and mark what
// must be painted; `paint` (once per frame) renders only that: new blocks, the growing tail, a card that finished.
import type { SessionChange, Turn, WebviewIntent } from "../protocol/messages";
import type { TranscriptBlock } from "../protocol/transcript";
import { isFinished } from "../protocol/session-states";
import { button, element, icon } from "./element";
import { permissionElement } from "./permission-view";
import { planElement } from "./plan-view";
import { errorCard } from "./error-card";
import { MarkdownView } from "./markdown-view";
import { ProblemsNotice } from "./problems-notice";
import { ThinkingView } from "./thinking-view";
import { ToolCardView } from "./tool-card";
import { announcement, outcomeOf, turnFooter } from "./turn-outcome";
import { turnToMarkdown } from "./turn-markdown";

type StatusBlock = Extract<TranscriptBlock, { kind: "status" }>;

type BlockView =
  | { kind: "text"; view: MarkdownView }
  | { kind: "thinking"; view: ThinkingView }
  | { kind: "tool"; view: ToolCardView }
  | { kind: "error"; element: HTMLElement }
  /** Rebuilt whole when their block is updated. */
  | { kind: "plan" | "permission"; element: HTMLElement }
  /** Status blocks have no element: only the latest shows, in the status line. */
  | { kind: "status" };

export class TurnView {
  readonly element: HTMLElement;
  private readonly turn: Turn;
  private readonly views: (BlockView | undefined)[] = [];
  private readonly blocksElement: HTMLElement;
  private readonly statusLine: HTMLElement;
  private readonly statusText: HTMLElement;
  private readonly problems = new ProblemsNotice();
  private footer: HTMLElement | null = null;

  /** Blocks to create or update from the model at the next paint. */
  private readonly staleBlocks = new Set<number>();
  /** Text blocks whose "not shown" note must be brought up to date. */
  private readonly cutBlocks = new Set<number>();
  /** Text that arrived for blocks whose view exists. */
  private readonly arrivedText = new Map<number, string[]>();
  private endChanged = true;
  private problemsChanged = true;
  /** Blocks before this index are complete: they will not grow again. */
  private settledBlocks = 0;
  private latestStatus: { index: number; block: StatusBlock } | null = null;
  private stopRequested = false;
  /** Set when the turn ends while the user watches (not when a snapshot replays it). */
  private endedLive = false;

  constructor(
    turn: Turn,
    private readonly post: (intent: WebviewIntent) => void,
  ) {
    this.turn = { ...turn, blocks: [...turn.blocks], problems: [...turn.problems] };
    turn.blocks.forEach((_, index) => this.staleBlocks.add(index));
    this.blocksElement = element("div", { className: "blocks" });
    this.statusText = element("span", { className: "status-text" });
    this.statusLine = element("div", { className: "status-line" }, icon("loading", "codicon-modifier-spin"), this.statusText);
    const copy = button({
      label: "Copy answer as markdown",
      iconName: "copy",
      className: "icon-button",
      onClick: () => this.post({ type: "copy", text: turnToMarkdown(this.turn) }),
    });
    const prompt = element(
      "div",
      { className: "prompt" },
      element("div", { className: "turn-role" }, icon("account"), element("span", { text: "You" })),
      element("div", { className: "prompt-text", text: turn.prompt }),
    );
    if (turn.context !== null) {
      prompt.append(element("div", { className: "prompt-context", attributes: { title: turn.context.text } }, icon("file-symlink-file"), element("span", { text: `With ${turn.context.summary}` })));
    }
    const answerHeader = element(
      "div",
      { className: "turn-role" },
      icon("hubot"),
      element("span", { className: "agent-name", text: turn.agent }),
      element("span", { className: "spacer" }),
      copy,
    );
    const answer = element("div", { className: "answer" }, answerHeader, this.blocksElement, this.statusLine, this.problems.element);
    this.element = element("article", { className: "turn", attributes: { "aria-label": `Prompt ${turn.id + 1}` } }, prompt, answer);
  }

  get id(): number {
    return this.turn.id;
  }

  get running(): boolean {
    return !isFinished(this.turn.state) && this.turn.done === null;
  }

  /** The user pressed Stop while this turn ran: its footer says "Stopped" whatever the CLI's exit. */
  markStopRequested(): void {
    this.stopRequested = true;
  }

  apply(change: SessionChange): void {
    switch (change.kind) {
      case "block-added":
      case "block-updated":
        this.turn.blocks[change.index] = change.block;
        this.staleBlocks.add(change.index);
        this.arrivedText.delete(change.index);
        return;
      case "text-appended": {
        const block = this.turn.blocks[change.index];
        if (block === undefined || (block.kind !== "text" && block.kind !== "thinking")) return;
        block.text += change.text;
        // A block created at the next paint is built from the model, which already has this text.
        if (this.staleBlocks.has(change.index)) return;
        const arrived = this.arrivedText.get(change.index);
        if (arrived === undefined) this.arrivedText.set(change.index, [change.text]);
        else arrived.push(change.text);
        return;
      }
      case "text-truncated": {
        const block = this.turn.blocks[change.index];
        if (block === undefined || (block.kind !== "text" && block.kind !== "thinking")) return;
        block.truncatedChars = change.truncatedChars;
        this.cutBlocks.add(change.index);
        return;
      }
      case "state":
        this.turn.state = change.state;
        this.endChanged = true;
        return;
      case "problem":
        this.turn.problems.push(change.problem);
        this.problemsChanged = true;
        return;
      case "done":
        this.turn.done = change.done;
        this.turn.status = change.status;
        if (!isFinished(this.turn.state)) this.turn.state = change.status;
        this.endChanged = true;
        this.endedLive = true;
        return;
    }
  }

  /** Renders what changed since the last paint. */
  paint(): void {
    const stale = [...this.staleBlocks].sort((a, b) => a - b);
    this.staleBlocks.clear();
    for (const index of stale) this.showBlock(index);
    for (const [index, texts] of this.arrivedText) this.growBlock(index, texts.join(""));
    this.arrivedText.clear();
    for (const index of this.cutBlocks) this.showCut(index);
    this.cutBlocks.clear();
    this.settleCompleteBlocks();
    if (this.endChanged) this.showEnd();
    if (this.problemsChanged) this.problems.show(this.turn.problems);
    this.endChanged = false;
    this.problemsChanged = false;
  }

  /** What to announce, once, if the turn just ended while the user watched. */
  takeAnnouncement(): string | null {
    if (!this.endedLive || this.footer === null) return null;
    this.endedLive = false;
    const outcome = outcomeOf(this.turn, this.stopRequested);
    return outcome === null ? null : announcement(outcome);
  }

  private showBlock(index: number): void {
    const block = this.turn.blocks[index];
    if (block === undefined) return;
    const existing = this.views[index];
    if (existing?.kind === "tool" && block.kind === "tool") {
      existing.view.update(block);
      return;
    }
    const view = this.createView(block, index);
    this.views[index] = view;
    const node = elementOf(view);
    const old = existing === undefined ? null : elementOf(existing);
    if (old !== null && node !== null) old.replaceWith(node);
    else if (old !== null) old.remove();
    else if (node !== null) this.blocksElement.insertBefore(node, this.elementAfter(index));
    if (view.kind === "text" || view.kind === "thinking") view.view.paint();
    this.showCut(index);
  }

  private showCut(index: number): void {
    const view = this.views[index];
    const block = this.turn.blocks[index];
    if ((view?.kind !== "text" && view?.kind !== "thinking") || (block?.kind !== "text" && block?.kind !== "thinking")) return;
    view.view.showCut(block.truncatedChars ?? 0);
  }

  private createView(block: TranscriptBlock, index: number): BlockView {
    switch (block.kind) {
      case "text":
        return { kind: "text", view: new MarkdownView("answer-text", block.text) };
      case "thinking":
        return { kind: "thinking", view: new ThinkingView(block.text, this.running && index === this.turn.blocks.length - 1) };
      case "tool":
        return { kind: "tool", view: new ToolCardView(block) };
      case "error":
        return { kind: "error", element: errorCard(block, this.turn.id, this.turn.origin === "replay" ? null : this.post) };
      case "plan":
        return { kind: "plan", element: planElement(block) };
      case "permission":
        return { kind: "permission", element: permissionElement(block) };
      case "status":
        if (this.latestStatus === null || index >= this.latestStatus.index) {
          this.latestStatus = { index, block };
          this.endChanged = true;
        }
        return { kind: "status" };
    }
  }

  private growBlock(index: number, text: string): void {
    const view = this.views[index];
    if (view?.kind !== "text" && view?.kind !== "thinking") return;
    view.view.append(text);
    view.view.paint();
  }

  /** Blocks arrive in order, so this is almost always null (append at the end). */
  private elementAfter(index: number): Node | null {
    for (let i = index + 1; i < this.views.length; i++) {
      const view = this.views[i];
      const node = view === undefined ? null : elementOf(view);
      if (node !== null) return node;
    }
    return null;
  }

  /** A block is complete once something follows it or the turn ends: its thinking folds, its links resolve. */
  private settleCompleteBlocks(): void {
    const complete = this.running ? this.turn.blocks.length - 1 : this.turn.blocks.length;
    for (; this.settledBlocks < complete; this.settledBlocks++) {
      const view = this.views[this.settledBlocks];
      if (view?.kind === "text" || view?.kind === "thinking") view.view.settle();
    }
  }

  private showEnd(): void {
    const running = this.running;
    this.statusLine.hidden = !running;
    this.statusText.textContent = running ? this.statusWords() : "";
    const outcome = outcomeOf(this.turn, this.stopRequested);
    if (outcome === null) return;
    const footer = turnFooter(outcome);
    if (this.footer === null) this.problems.element.after(footer);
    else this.footer.replaceWith(footer);
    this.footer = footer;
  }

  private statusWords(): string {
    const latest = this.latestStatus?.block;
    if (latest !== undefined) return latest.message || latest.status;
    return this.turn.state === "idle" || this.turn.state === "starting" ? "Starting…" : "Working…";
  }
}

function elementOf(view: BlockView): HTMLElement | null {
  switch (view.kind) {
    case "text":
    case "thinking":
    case "tool":
      return view.view.element;
    case "error":
    case "plan":
    case "permission":
      return view.element;
    case "status":
      return null;
  }
}
