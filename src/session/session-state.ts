// The session's state machine. Every (state, input) pair is defined: the table below is total.
import type { CliEventType } from "../protocol/events";
import { isFinished, type SessionState } from "../protocol/session-states";

/** Events that say more about a turn already under way: the session moves on them as on the protocol-1 input named. */
type DetailEventType = "tool_updated" | "permission_requested" | "permission_answered" | "plan";

/**
 * What can happen to a session: it is begun, an event arrives, it ends one of three ways, or (a stream of several
 * turns) a finished turn is followed by the next.
 */
export type SessionInput =
  | "begin"
  | "next_turn"
  | Exclude<CliEventType, "done" | DetailEventType>
  | "done:completed"
  | "done:failed"
  | "done:canceled";
export const SESSION_INPUTS: readonly SessionInput[] = [
  "begin",
  "next_turn",
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
  // A finished session stays finished (whatever comes after `done` is dropped), unless its next turn begins.
  if (input === "next_turn") return isFinished(state) ? "starting" : state;
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
