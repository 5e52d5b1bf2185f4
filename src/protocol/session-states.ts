// The states a session goes through, as the host and the webview name them (the transitions are the session's:
// src/session/session-state.ts).
export const SESSION_STATES = ["idle", "starting", "running", "streaming", "completed", "failed", "canceled"] as const;
export type SessionState = (typeof SESSION_STATES)[number];
export type FinishedState = "completed" | "failed" | "canceled";

export function isFinished(state: SessionState): state is FinishedState {
  return state === "completed" || state === "failed" || state === "canceled";
}
