// An agent asks before it acts (ACP `session/request_permission`): what it wants to do, exactly (the command line,
// the file and its diff, the URL, else the raw request), and its options as buttons in its own words. Escape answers
// with the agent's "reject once", or dismisses (cancelled): closing or dismissing is never an allow. Once answered,
// the card says what was answered and by whom, and its buttons are gone. Only a running turn's request can wait: in a
// turn that has ended (a reloaded window, a replay cut short) an unanswered card reads Cancelled, with no buttons.
import { answeredByWords } from "../../common/permission-answer";
import type { PermissionBlock, PermissionOption, ToolCard } from "../../protocol/transcript";
import { button, element, icon } from "../element";
import type { BlockContext, BlockView } from "./block-view";
import { diffList } from "./diff-list";
import { FoldedText } from "./folded-text";
import { MarkdownView } from "../markdown-view";
import { toolKindLook } from "./tool-card";

const OPTION_LOOK: Record<PermissionOption["kind"], { icon: string; className: string }> = {
  allow_once: { icon: "check", className: "text-button primary" },
  allow_always: { icon: "check-all", className: "text-button secondary" },
  reject_once: { icon: "close", className: "text-button secondary" },
  reject_always: { icon: "circle-slash", className: "text-button secondary" },
};

export class PermissionCardView implements BlockView<PermissionBlock> {
  readonly element: HTMLElement;
  private block: PermissionBlock;
  private readonly header: HTMLElement;
  private readonly what: HTMLElement;
  private readonly options: HTMLElement;
  private readonly answer: HTMLElement;

  constructor(
    block: PermissionBlock,
    private readonly context: BlockContext,
  ) {
    this.block = block;
    this.header = element("div", { className: "permission-title" });
    this.what = element("div", { className: "permission-what" });
    this.options = element("div", { className: "permission-options" });
    this.answer = element("div", { className: "permission-answer" });
    // A region the keyboard can reach (tabindex -1: focused by us, not a stop of its own in the Tab order).
    this.element = element("section", { attributes: { role: "region", tabindex: "-1" } }, this.header, this.what, this.options, this.answer);
    this.element.addEventListener("keydown", (event) => this.onKey(event));
    this.show();
  }

  update(block: PermissionBlock): void {
    const wasWaiting = this.shown.decision === null;
    const hadFocus = this.element.contains(document.activeElement);
    this.block = block;
    this.show();
    if (!wasWaiting || this.shown.decision === null) return;
    this.context.announce(`${answerWords(this.shown)}: ${block.title}`);
    // The button that had focus is gone: keep the keyboard on the card rather than lose it to the page.
    if (hadFocus) this.element.focus({ preventScroll: true });
  }

  /** A request that appears while its turn runs takes focus: it is what the agent waits for. */
  placed(): void {
    // Without scrolling to it: the chat follows the end, where its buttons are; a tall card's top is above.
    if (this.context.running && this.block.decision === null) this.element.focus({ preventScroll: true });
  }

  /** The block as the card shows it: unanswered outside a running turn, cancelled, since nobody waits for it. */
  private get shown(): PermissionBlock {
    if (this.block.decision !== null || this.context.running) return this.block;
    return { ...this.block, decision: "cancelled", optionId: null, answeredBy: null };
  }

  private show(): void {
    const block = this.shown;
    const tool = block.toolId === null ? null : this.context.toolCard(block.toolId);
    const kind = toolKindLook(tool?.card.toolKind ?? null);
    this.element.className = `permission permission-${block.decision ?? "waiting"}`;
    this.element.setAttribute("aria-label", `Permission: ${block.title}`);
    this.header.replaceChildren(
      icon("shield"),
      element("span", { className: "permission-heading", text: block.title }),
      ...(kind === null ? [] : [element("span", { className: "permission-kind", text: kind.words })]),
    );
    this.what.replaceChildren(...outsideWarning(block), ...whatItWillDo(block, tool, this.context));
    this.what.hidden = this.what.childElementCount === 0;
    const waiting = block.decision === null;
    this.options.replaceChildren(...(waiting ? block.options.map((option) => this.optionButton(option)) : []));
    this.options.hidden = !waiting;
    this.answer.textContent = waiting ? "" : answerText(block);
    this.answer.hidden = waiting;
  }

  private optionButton(option: PermissionOption): HTMLButtonElement {
    const look = OPTION_LOOK[option.kind];
    return button({ label: option.name, caption: option.name, iconName: look.icon, className: look.className, onClick: () => this.answerWith(option.id) });
  }

  private onKey(event: KeyboardEvent): void {
    if (event.key !== "Escape" || this.shown.decision !== null) return;
    event.preventDefault();
    event.stopPropagation();
    const reject = this.block.options.find((option) => option.kind === "reject_once");
    this.answerWith(reject?.id ?? null);
  }

  /** The host answers the agent and sends the block back answered; until then the buttons take no second answer. */
  private answerWith(optionId: string | null): void {
    for (const node of this.options.querySelectorAll("button")) node.disabled = true;
    this.context.post({ type: "answerPermission", turnId: this.context.turnId, requestId: this.block.requestId, optionId });
  }
}

/** Files outside the workspace, named first: such a request is never allowed without the user. */
function outsideWarning(block: PermissionBlock): HTMLElement[] {
  if (block.outsideWorkspace.length === 0) return [];
  const files = block.outsideWorkspace.join(", ");
  return [element("p", { className: "permission-outside" }, icon("warning"), element("span", { text: `Outside your workspace: ${files}` }))];
}

/** What the agent will do if allowed, from the tool call the request is about. */
function whatItWillDo(block: PermissionBlock, tool: { card: ToolCard; index: number } | null, context: BlockContext): HTMLElement[] {
  if (tool === null) return [];
  const { card, index } = tool;
  switch (card.toolKind) {
    case "execute":
      return [labelled("Command", element("code", { className: "permission-command", text: commandLine(card) ?? card.title ?? block.title }))];
    case "fetch": {
      const url = stringParameter(card, ["url", "uri"]) ?? card.title ?? block.title;
      return [labelled("URL", element("code", { className: "permission-url", text: url }))];
    }
    case "edit":
    case "delete":
    case "move":
      if (card.diffs.length > 0) {
        const openDiff = (diffIndex: number) => context.post({ type: "openDiff", turnId: context.turnId, blockIndex: index, diffIndex });
        return [diffList(card.diffs, openDiff)];
      }
      if (card.locations.length > 0) return card.locations.map((place) => labelled("File", element("code", { text: place.path })));
      break;
    case "switch_mode": {
      // Claude Code's ExitPlanMode: the plan it asks to carry out, as the model wrote it (markdown, sanitised as its text is).
      const plan = stringParameter(card, ["plan"]);
      if (plan !== null) return [labelled("Plan", planView(plan))];
    }
  }
  return rawInput(card);
}

function planView(plan: string): HTMLElement {
  const view = new MarkdownView("permission-plan", plan);
  view.paint();
  view.settle();
  return view.element;
}

/** The request as the agent sent it, for a kind we cannot say better. */
function rawInput(card: ToolCard): HTMLElement[] {
  if (card.parameters === null) return [];
  const raw = new FoldedText("permission-raw");
  raw.show("Request", JSON.stringify(card.parameters, null, 2));
  raw.element.open = true;
  return [raw.element];
}

/** ACP agents send a command as one string or as argv; argv is shown with spaces, as a person would type it. */
function commandLine(card: ToolCard): string | null {
  const command = card.parameters?.["command"] ?? card.parameters?.["cmd"];
  if (typeof command === "string" && command !== "") return command;
  if (Array.isArray(command) && command.length > 0 && command.every((part) => typeof part === "string")) return command.join(" ");
  return null;
}

function stringParameter(card: ToolCard, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = card.parameters?.[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return null;
}

function labelled(label: string, value: HTMLElement): HTMLElement {
  return element("div", { className: "permission-detail" }, element("span", { className: "permission-detail-label", text: label }), value);
}

const DECISION_WORDS = { allowed: "Allowed", rejected: "Rejected", cancelled: "Cancelled" } as const;

/** "Allowed by you", "Rejected by your setting", "Allowed by your earlier “always”", "Cancelled". */
function answerWords(block: PermissionBlock): string {
  if (block.decision === null) return "waiting";
  return `${DECISION_WORDS[block.decision]}${answeredByWords(block)}`;
}

/** The answer, with the option chosen in the agent's words. */
function answerText(block: PermissionBlock): string {
  const chosen = block.options.find((option) => option.id === block.optionId);
  return `${answerWords(block)}${chosen ? `: ${chosen.name}` : ""}`;
}
