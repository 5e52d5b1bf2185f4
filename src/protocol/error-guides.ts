// What each ProtocolError means to a user and what they can do about it: one table for the panel's error cards
// and the editor's notifications, so both always offer the same actions under the same names.
import type { ErrorCause, ProtocolErrorCode } from "./events";
import type { ErrorAction } from "./messages";

export interface ErrorGuide {
  title: string;
  /** False when the code would only puzzle: a refusal is what the user chose, not an UNKNOWN fault. */
  showsCode?: false;
  /** In the order they are offered; the first is the one most likely to help. */
  actions: readonly ErrorAction[];
}

export const ERROR_GUIDES: Record<ProtocolErrorCode, ErrorGuide> = {
  CLI_NOT_FOUND: { title: "The agent CLI could not be found", actions: ["setCliPath", "useBuiltinAgent", "showLog"] },
  AUTH_EXPIRED: { title: "The agent needs you to log in again", actions: ["logIn"] },
  NETWORK_TIMEOUT: { title: "The network timed out", actions: ["retry"] },
  CONTEXT_LIMIT: { title: "The conversation is too long for the model", actions: ["newSession"] },
  SESSION_NOT_FOUND: { title: "The agent could not find this session", actions: ["newSession"] },
  PROCESS_CRASHED: { title: "The agent stopped unexpectedly", actions: ["showLog", "retry"] },
  MALFORMED_EVENT: { title: "The agent sent output that could not be read", actions: ["showLog", "retry"] },
  UNKNOWN: { title: "Something went wrong", actions: ["showLog", "retry"] },
};

/** A known cause says more than the code: its own title, and the setting that fixes it first. */
const CAUSE_GUIDES: Record<ErrorCause["kind"], ErrorGuide> = {
  // Alongside Log In, not instead: the user may rather log in and remove the key.
  "api-key-rejected": { title: "The API key was rejected", actions: ["openCliEnv", "logIn"] },
  "root-refused": { title: "The agent refuses to run as root", actions: ["openCliEnv", "showLog"] },
  // Retry asks again, so the user can allow what they refused.
  refused: { title: "Not allowed: nothing was done", actions: ["retry"], showsCode: false },
};

/** The error's headline as one line of text: its guide's title, with the code when the code says something. */
export function errorHeadline(error: { code: ProtocolErrorCode; cause?: ErrorCause }): string {
  const guide = guideFor(error);
  return guide.showsCode === false ? guide.title : `${guide.title} (${error.code})`;
}

/** The guide for one error: its cause's when the run knows it, else its code's. */
export function guideFor(error: { code: ProtocolErrorCode; cause?: ErrorCause }): ErrorGuide {
  return error.cause === undefined ? ERROR_GUIDES[error.code] : CAUSE_GUIDES[error.cause.kind];
}

export const ACTION_CAPTIONS: Record<ErrorAction, string> = {
  setCliPath: "Set CLI Path",
  useBuiltinAgent: "Use Built-in Agent",
  showLog: "Show Log",
  logIn: "Log In",
  retry: "Retry",
  newSession: "New Session",
  openCliEnv: "Open Settings",
};
