// Stored sessions for tests of the session store and its readers: a plain valid session of one finished turn, with
// whatever the test is about overridden.
import { randomUUID } from "node:crypto";
import type { Turn } from "../../src/protocol/messages";
import type { StoredSession } from "../../src/protocol/sessions";
import { turnWith } from "./turn-builder";

export function storedSession(overrides: Partial<StoredSession> = {}): StoredSession {
  const turns: Turn[] = [turnWith(1, [{ kind: "text", text: "Hello." }], { done: true })];
  return {
    version: 1,
    id: randomUUID(),
    title: "prompt 1",
    titleSource: "prompt",
    agent: { profile: "claude", displayName: "Claude Code", command: "claude", args: ["-p"] },
    createdAt: 1_000,
    updatedAt: 2_000,
    turns,
    agentSession: null,
    source: "agent-stream",
    pendingPrompts: [],
    ...overrides,
  };
}
