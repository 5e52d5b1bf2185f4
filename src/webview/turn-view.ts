// One prompt and its answer. Changes from the host update this view's copy of the turn at once and mark what
// must be painted; `paint` (once per frame) renders only that: new blocks, the growing tail, a card that finished.
import type { SessionChange, Turn, WebviewIntent } from "../protocol/messages";
import type { ToolCard } from "../protocol/transcript";
import type { TurnUsage } from "../protocol/usage";
import { isFinished } from "../protocol/session-states";
import { applyChange } from "../common/turn-changes";
import { shownAs } from "../common/shown-blocks";
import type { BlockContext } from "./blocks/block-view";
import { createBlockView, type ShownBlock } from "./blocks/block-views";
import type { StatusBlock } from "./blocks/status-view";
import { button, element, icon } from "./element";
import { ProblemsNotice } from "./problems-notice";
import { announcement, outcomeOf, turnFooter } from "./turn-outcome";
import { turnToMarkdown } from "./turn-markdown";

export class TurnView {
  readonly element: HTMLElement;
  private readonly turn: Turn;
  private readonly views: (ShownBlock | undefined)[] = [];
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
  /** What a block's view asked to say in the live region (a permission answered) since the last paint. */
  private blockAnnouncement: string | null = null;

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

  /** What the user asked (shown above the answer; ↑ in an empty composer brings it back). */
  get prompt(): string {
    return this.turn.prompt;
  }

  get id(): number {
    return this.turn.id;
  }

  /** What the turn used, once it ended and where its agent said. */
  get usage(): TurnUsage | null {
    return this.turn.done?.usage ?? null;
  }

  get running(): boolean {
    return !isFinished(this.turn.state) && this.turn.done === null;
  }

  /** The user pressed Stop while this turn ran: its footer says "Stopped" whatever the CLI's exit. */
  markStopRequested(): void {
    this.stopRequested = true;
  }

  /** Updates this view's copy of the turn (common/turn-changes.ts) and notes what to paint. */
  apply(change: SessionChange): void {
    if (!applyChange(this.turn, change)) return;
    switch (change.kind) {
      case "block-added":
      case "block-updated":
        this.staleBlocks.add(change.index);
        this.arrivedText.delete(change.index);
        return;
      case "text-appended": {
        // A block created at the next paint is built from the model, which already has this text.
        if (this.staleBlocks.has(change.index)) return;
        const arrived = this.arrivedText.get(change.index);
        if (arrived === undefined) this.arrivedText.set(change.index, [change.text]);
        else arrived.push(change.text);
        return;
      }
      case "text-truncated":
        this.cutBlocks.add(change.index);
        return;
      case "state":
        this.endChanged = true;
        return;
      case "problem":
        this.problemsChanged = true;
        return;
      case "done":
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

  /** What to announce, once: the turn just ended while the user watched, or a block asked to say something. */
  takeAnnouncement(): string | null {
    const fromBlock = this.blockAnnouncement;
    this.blockAnnouncement = null;
    if (!this.endedLive || this.footer === null) return fromBlock;
    this.endedLive = false;
    const outcome = outcomeOf(this.turn, this.stopRequested);
    return outcome === null ? fromBlock : announcement(outcome);
  }

  private showBlock(index: number): void {
    const block = this.turn.blocks[index];
    if (block === undefined) return;
    if (block.kind === "status") this.noteStatus(index, block);
    const existing = this.views[index];
    if (existing?.kind === block.kind) {
      existing.view.update(block);
      return;
    }
    const shown = createBlockView(block, this.contextFor(index));
    this.views[index] = shown;
    const node = shown.view.element;
    const old = existing?.view.element ?? null;
    if (old !== null && node !== null) old.replaceWith(node);
    else if (old !== null) old.remove();
    else if (node !== null) this.blocksElement.insertBefore(node, this.elementAfter(index));
    shown.view.placed?.();
    this.showCut(index);
  }

  private showCut(index: number): void {
    const block = this.turn.blocks[index];
    if (block?.kind !== "text" && block?.kind !== "thinking") return;
    this.views[index]?.view.showCut?.(block.truncatedChars ?? 0);
  }

  private noteStatus(index: number, block: StatusBlock): void {
    if (this.latestStatus !== null && index < this.latestStatus.index) return;
    this.latestStatus = { index, block };
    this.endChanged = true;
  }

  private contextFor(blockIndex: number): BlockContext {
    return {
      turnId: this.turn.id,
      blockIndex,
      running: this.running,
      last: blockIndex === this.turn.blocks.length - 1,
      shown: shownAs(this.turn.blocks, blockIndex),
      replay: this.turn.origin === "replay",
      post: this.post,
      toolCard: (toolId) => this.toolCard(toolId),
      announce: (words) => {
        this.blockAnnouncement = words;
      },
    };
  }

  private toolCard(toolId: string): { card: ToolCard; index: number } | null {
    for (let index = this.turn.blocks.length - 1; index >= 0; index--) {
      const card = this.turn.blocks[index];
      if (card?.kind === "tool" && card.toolId === toolId) return { card, index };
    }
    return null;
  }

  private growBlock(index: number, text: string): void {
    this.views[index]?.view.grow?.(text);
  }

  /** Blocks arrive in order, so this is almost always null (append at the end). */
  private elementAfter(index: number): Node | null {
    for (let i = index + 1; i < this.views.length; i++) {
      const node = this.views[i]?.view.element ?? null;
      if (node !== null) return node;
    }
    return null;
  }

  /** A block is complete once something follows it or the turn ends: its thinking folds, its links resolve. */
  private settleCompleteBlocks(): void {
    const complete = this.running ? this.turn.blocks.length - 1 : this.turn.blocks.length;
    for (; this.settledBlocks < complete; this.settledBlocks++) {
      this.views[this.settledBlocks]?.view.settle?.();
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
