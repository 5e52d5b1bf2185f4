// An error the agent reported: what happened, in words, and the buttons that fix it.
import { ACTION_CAPTIONS, guideFor } from "../../protocol/error-guides";
import type { ErrorAction, WebviewIntent } from "../../protocol/messages";
import type { ErrorBlock } from "../../protocol/transcript";
import { button, element, icon } from "../element";
import type { BlockContext, BlockView } from "./block-view";

const ACTION_ICONS: Record<ErrorAction, string> = {
  setCliPath: "gear",
  useBuiltinAgent: "hubot",
  showLog: "output",
  logIn: "sign-in",
  retry: "refresh",
  newSession: "add",
  openCliEnv: "settings-gear",
};

export class ErrorCardView implements BlockView<ErrorBlock> {
  element: HTMLElement;

  constructor(
    block: ErrorBlock,
    private readonly context: BlockContext,
  ) {
    this.element = this.card(block);
  }

  update(block: ErrorBlock): void {
    const next = this.card(block);
    this.element.replaceWith(next);
    this.element = next;
  }

  private card(block: ErrorBlock): HTMLElement {
    const { turnId, replay, post } = this.context;
    return errorCard(block, turnId, replay ? null : post);
  }
}

/** `post` is null for a replayed stream: nothing ran here, so there is nothing to retry or set up. */
function errorCard(block: ErrorBlock, turnId: number, post: ((intent: WebviewIntent) => void) | null): HTMLElement {
  const guide = guideFor(block);
  const header = element(
    "div",
    { className: "error-header" },
    icon("error"),
    element("span", { className: "error-title", text: guide.title }),
    ...(guide.showsCode === false ? [] : [element("span", { className: "error-code", text: block.code })]),
  );
  // stderr tails and stack traces keep their lines.
  const message = block.message.includes("\n")
    ? element("pre", { className: "error-message", text: block.message })
    : element("p", { className: "error-message", text: block.message });
  const actions = element("div", { className: "error-actions" });
  if (post !== null) guide.actions.forEach((action, index) => {
    const caption = ACTION_CAPTIONS[action];
    const className = index === 0 ? "text-button primary" : "text-button secondary";
    const onClick = () => post({ type: "errorAction", action, turnId });
    actions.append(button({ label: caption, caption, iconName: ACTION_ICONS[action], className, onClick }));
  });
  return element("div", { className: "error-card", attributes: { role: "group", "aria-label": `Error: ${guide.title}` } }, header, message, actions);
}
