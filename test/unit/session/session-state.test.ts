import * as assert from "node:assert/strict";
import { SESSION_STATES, type SessionState } from "../../../src/protocol/session-states";
import { SESSION_INPUTS, nextState, type SessionInput } from "../../../src/session/session-state";

// The specification, written out pair by pair: what each input does in each state.
const EXPECTED: Record<SessionState, Record<SessionInput, SessionState>> = {
  idle: {
    next_turn: "idle", begin: "starting", start: "running", text_delta: "streaming", thinking: "streaming", tool_started: "running",
    tool_completed: "running", status: "running", error: "running",
    "done:completed": "completed", "done:failed": "failed", "done:canceled": "canceled",
  },
  starting: {
    next_turn: "starting", begin: "starting", start: "running", text_delta: "streaming", thinking: "streaming", tool_started: "running",
    tool_completed: "running", status: "running", error: "running",
    "done:completed": "completed", "done:failed": "failed", "done:canceled": "canceled",
  },
  running: {
    next_turn: "running", begin: "running", start: "running", text_delta: "streaming", thinking: "streaming", tool_started: "running",
    tool_completed: "running", status: "running", error: "running",
    "done:completed": "completed", "done:failed": "failed", "done:canceled": "canceled",
  },
  streaming: {
    next_turn: "streaming", begin: "streaming", start: "streaming", text_delta: "streaming", thinking: "streaming", tool_started: "running",
    tool_completed: "running", status: "streaming", error: "streaming",
    "done:completed": "completed", "done:failed": "failed", "done:canceled": "canceled",
  },
  completed: {
    next_turn: "starting", begin: "completed", start: "completed", text_delta: "completed", thinking: "completed", tool_started: "completed",
    tool_completed: "completed", status: "completed", error: "completed",
    "done:completed": "completed", "done:failed": "completed", "done:canceled": "completed",
  },
  failed: {
    next_turn: "starting", begin: "failed", start: "failed", text_delta: "failed", thinking: "failed", tool_started: "failed",
    tool_completed: "failed", status: "failed", error: "failed",
    "done:completed": "failed", "done:failed": "failed", "done:canceled": "failed",
  },
  canceled: {
    next_turn: "starting", begin: "canceled", start: "canceled", text_delta: "canceled", thinking: "canceled", tool_started: "canceled",
    tool_completed: "canceled", status: "canceled", error: "canceled",
    "done:completed": "canceled", "done:failed": "canceled", "done:canceled": "canceled",
  },
};

describe("session state machine", () => {
  it("defines every state and input pair in the specification table", () => {
    assert.deepEqual(Object.keys(EXPECTED).sort(), [...SESSION_STATES].sort());
    for (const state of SESSION_STATES) assert.deepEqual(Object.keys(EXPECTED[state]).sort(), [...SESSION_INPUTS].sort());
  });

  for (const state of SESSION_STATES) {
    for (const input of SESSION_INPUTS) {
      it(`goes from ${state} on ${input} to ${EXPECTED[state][input]}`, () => {
        assert.equal(nextState(state, input), EXPECTED[state][input]);
      });
    }
  }
});
