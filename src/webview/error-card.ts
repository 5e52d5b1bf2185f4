// An error the agent reported: what happened, in words, and the buttons that fix it.
import type { ProtocolErrorCode } from "../protocol/events";
import type { ErrorAction, WebviewIntent } from "../protocol/messages";
import type { ErrorBlock } from "../protocol/transcript";
import { button, element, icon } from "./element";

interface ErrorGuide {
  title: string;
  actions: readonly ErrorAction[];
}

const GUIDES: Record<ProtocolErrorCode, ErrorGuide> = {
  CLI_NOT_FOUND: { title: "The agent CLI could not be found", actions: ["setCliPath", "useBuiltinAgent", "showLog"] },
  AUTH_EXPIRED: { title: "The agent needs you to log in again", actions: ["logIn"] },
  NETWORK_TIMEOUT: { title: "The network timed out", actions: ["retry"] },
  CONTEXT_LIMIT: { title: "The conversation is too long for the model", actions: ["newSession"] },
  SESSION_NOT_FOUND: { title: "The agent could not find this session", actions: ["newSession"] },
  PROCESS_CRASHED: { title: "The agent stopped unexpectedly", actions: ["showLog", "retry"] },
  MALFORMED_EVENT: { title: "The agent sent output that could not be read", actions: ["showLog", "retry"] },
  UNKNOWN: { title: "Something went wrong", actions: ["showLog", "retry"] },
};

const ACTION_LOOK: Record<ErrorAction, { caption: string; icon: string }> = {
  setCliPath: { caption: "Set CLI Path", icon: "gear" },
  useBuiltinAgent: { caption: "Use Built-in Agent", icon: "hubot" },
  showLog: { caption: "Show Log", icon: "output" },
  logIn: { caption: "Log In", icon: "sign-in" },
  retry: { caption: "Retry", icon: "refresh" },
  newSession: { caption: "New Session", icon: "add" },
};

export function errorCard(block: ErrorBlock, turnId: number, post: (intent: WebviewIntent) => void): HTMLElement {
  const guide = GUIDES[block.code];
  const header = element(
    "div",
    { className: "error-header" },
    icon("error"),
    element("span", { className: "error-title", text: guide.title }),
    element("span", { className: "error-code", text: block.code }),
  );
  // stderr tails and stack traces keep their lines.
  const message = block.message.includes("\n")
    ? element("pre", { className: "error-message", text: block.message })
    : element("p", { className: "error-message", text: block.message });
  const actions = element("div", { className: "error-actions" });
  guide.actions.forEach((action, index) => {
    const look = ACTION_LOOK[action];
    const className = index === 0 ? "text-button primary" : "text-button secondary";
    const onClick = () => post({ type: "errorAction", action, turnId });
    actions.append(button({ label: look.caption, caption: look.caption, iconName: look.icon, className, onClick }));
  });
  return element("div", { className: "error-card", attributes: { role: "group", "aria-label": `Error: ${guide.title}` } }, header, message, actions);
}
