// The session's state machine. Every (state, input) pair is defined: the table below is total.
import type { CliEventType } from "../protocol/events";
import { isFinished, type SessionState } from "../protocol/session-states";

/** What can happen to a session: it is begun, an event arrives, or it ends one of three ways. */
export type SessionInput = "begin" | Exclude<CliEventType, "done"> | "done:completed" | "done:failed" | "done:canceled";
export const SESSION_INPUTS: readonly SessionInput[] = [
  "begin",
  "start",
  "text_delta",
  "thinking",
  "tool_started",
  "tool_completed",
  "status",
  "error",
  "done:completed",
  "done:failed",
  "done:canceled",
];

export function nextState(state: SessionState, input: SessionInput): SessionState {
  // A finished session stays finished: whatever comes after `done` is dropped.
  if (isFinished(state)) return state;
  switch (input) {
    case "begin":
      return state === "idle" ? "starting" : state;
    case "text_delta":
    case "thinking":
      return "streaming";
    case "start":
    case "tool_started":
    case "tool_completed":
      return state === "streaming" && input === "start" ? "streaming" : "running";
    case "status":
    case "error":
      return state === "idle" || state === "starting" ? "running" : state;
    case "done:completed":
      return "completed";
    case "done:failed":
      return "failed";
    case "done:canceled":
      return "canceled";
  }
}
