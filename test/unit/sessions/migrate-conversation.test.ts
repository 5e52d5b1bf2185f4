import * as assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Turn } from "../../../src/protocol/messages";
import { StoredSessionSchema, type SessionId, type StoredSession } from "../../../src/protocol/sessions";
import { migrateConversation, type StoredConversation } from "../../../src/sessions/migrate-conversation";
import { SessionStore } from "../../../src/sessions/session-store";
import { statusOf, summaryOf } from "../../../src/sessions/session-summary";
import { permissionBlock, turnWith } from "../../helpers/turn-builder";

const NOW = 1_700_000_000_000;
const ID = "0b4c9a52-5d1e-4c1b-9a8e-3f1f6e2d7c10" as SessionId;
const CLI_CONVERSATION = "5f0c7b0e-8a51-4d7e-9c36-0f8a8f6a2b91";

/** Today's store after a conversation with `claude`: what the five keys hold, none set unless given. */
function stored(values: Partial<StoredConversation>): StoredConversation {
  return { turns: undefined, runningTurn: undefined, cliConversation: undefined, runningCliConversation: undefined, acpSession: undefined, ...values };
}

function finished(id: number, agent = "claude"): Turn {
  return { ...turnWith(id, [{ kind: "text", text: `answer ${id}` }], { done: true }), agent };
}

/** A running turn as the window saved it while it streamed: stopped, with an end of its making. */
function savedWhileRunning(id: number, agent = "claude"): Turn {
  const done = { exitCode: -1, durationMs: 800, toolsUsed: [], tokensUsed: null, success: false, synthesized: true, usage: null };
  return { ...turnWith(id, [{ kind: "text", text: "half an ans" }]), agent, state: "canceled", status: "canceled", done };
}

function migrated(values: Partial<StoredConversation>): StoredSession {
  const session = migrateConversation(stored(values), NOW, () => ID);
  assert.ok(session !== null);
  assert.ok(StoredSessionSchema.safeParse(session).success, "the session fits the schema the store reads it back with");
  return session;
}

/** What earlier versions wrote under `agentStream.acpSession`: the conversation, the agent's command line, its session id. */
function legacyAcpSession(request: { conversation: { id: string }; command: string; args: string[] }, sessionId: string): unknown {
  return { conversation: request.conversation.id, agent: [request.command, ...request.args], sessionId };
}

describe("migrating the single stored conversation to the first session", () => {
  it("gives nothing when no conversation was stored", () => {
    assert.equal(migrateConversation(stored({}), NOW, () => ID), null);
  });

  it("keeps every finished turn, titled by the first prompt, with the agent the turns name", () => {
    const turns = [{ ...finished(1), prompt: "\n  Fix the flaky test in parser.ts  \nIt fails on CI." }, finished(2)];
    const session = migrated({ turns });
    assert.deepEqual(session.turns, turns);
    assert.equal(session.title, "Fix the flaky test in parser.ts");
    assert.deepEqual(session.agent, { profile: "claude", displayName: "claude", command: "claude", args: [] });
    assert.deepEqual([session.id, session.createdAt, session.updatedAt, session.source, session.agentSession], [ID, NOW, NOW, "agent-stream", null]);
  });

  it("adds the turn that was running, with the CLI conversation it had begun", () => {
    const running = savedWhileRunning(3);
    const session = migrated({
      turns: [finished(1), finished(2)],
      cliConversation: { agent: "claude", id: randomUUID() },
      runningTurn: running,
      runningCliConversation: { agent: "claude", id: CLI_CONVERSATION },
    });
    assert.deepEqual(session.turns.map((turn) => turn.id), [1, 2, 3]);
    assert.deepEqual(session.turns[2], running);
    assert.deepEqual(session.agentSession, { conversationId: CLI_CONVERSATION, spoke: true, acpSessionId: null });
    assert.equal(statusOf(session), "stopped");
  });

  it("does not add a running turn twice when the window saved it with the finished ones as it closed", () => {
    const session = migrated({ turns: [finished(1), savedWhileRunning(2)], runningTurn: savedWhileRunning(2) });
    assert.deepEqual(session.turns.map((turn) => turn.id), [1, 2]);
  });

  it("keeps a running turn stored alone", () => {
    assert.deepEqual(migrated({ runningTurn: savedWhileRunning(1) }).turns.map((turn) => turn.id), [1]);
  });

  it("keeps the CLI conversation a follow-up continues", () => {
    const session = migrated({ turns: [finished(1)], cliConversation: { agent: "claude", id: CLI_CONVERSATION } });
    assert.deepEqual(session.agentSession, { conversationId: CLI_CONVERSATION, spoke: true, acpSessionId: null });
  });

  it("keeps an ACP agent's session and its command line as the session's agent", () => {
    const request = { conversation: { id: CLI_CONVERSATION, continues: false }, command: "/usr/local/bin/gemini", args: ["--experimental-acp"] };
    const session = migrated({
      turns: [finished(1, "gemini")],
      cliConversation: { agent: "gemini", id: CLI_CONVERSATION },
      acpSession: legacyAcpSession(request, "acp-session-7"),
    });
    assert.deepEqual(session.agent, { profile: "gemini", displayName: "gemini", command: "/usr/local/bin/gemini", args: ["--experimental-acp"] });
    assert.deepEqual(session.agentSession, { conversationId: CLI_CONVERSATION, spoke: true, acpSessionId: "acp-session-7" });
  });

  it("does not continue an ACP session kept from an earlier conversation, which the panel would not have continued", () => {
    const earlier = { conversation: { id: randomUUID(), continues: false }, command: "gemini", args: ["--experimental-acp"] };
    const session = migrated({
      turns: [finished(1)],
      cliConversation: { agent: "claude", id: CLI_CONVERSATION },
      acpSession: legacyAcpSession(earlier, "acp-session-7"),
    });
    assert.deepEqual(session.agentSession, { conversationId: CLI_CONVERSATION, spoke: true, acpSessionId: null });
  });

  it("names the built-in agent as such", () => {
    const session = migrated({ turns: [finished(1, "Built-in agent")], cliConversation: { agent: "Built-in agent", id: CLI_CONVERSATION } });
    assert.deepEqual(session.agent, { profile: "builtin", displayName: "Built-in agent", command: "", args: [] });
  });

  it("names the agent unknown when only replayed recordings were stored", () => {
    const replay: Turn = { ...finished(1, "Recorded stream"), origin: "replay" };
    assert.deepEqual(migrated({ turns: [replay] }).agent, { profile: "unknown", displayName: "unknown", command: "", args: [] });
  });

  it("keeps the turns that fit their schema when one no longer does", () => {
    const session = migrated({ turns: [finished(1), { id: 2, prompt: 42 }, finished(3)] });
    assert.deepEqual(session.turns.map((turn) => turn.id), [1, 3]);
  });

  it("ignores values that are not what the keys held, rather than trusting them", () => {
    const session = migrated({ turns: [finished(1)], runningTurn: "a turn", cliConversation: { agent: "claude", id: "../../etc" }, acpSession: { sessionId: 7 } });
    assert.deepEqual([session.turns.length, session.agentSession], [1, null]);
  });

  it("stores a permission request an earlier version left waiting as cancelled", () => {
    const session = migrated({ turns: [turnWith(1, [permissionBlock()])] });
    const block = session.turns[0]?.blocks[0];
    assert.deepEqual(block?.kind === "permission" && [block.decision, block.optionId], ["cancelled", null]);
  });

  it("becomes a session the store saves and gives back whole", async () => {
    const storage = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-migrate-"));
    try {
      const session = migrated({ turns: [finished(1), finished(2)], cliConversation: { agent: "claude", id: CLI_CONVERSATION } });
      const store = await SessionStore.open(storage, { maxBytes: Infinity, log: { warn: (message) => assert.fail(message) } });
      assert.equal(await store.save(session, summaryOf(session, statusOf(session))), true);
      await store.flush();
      const reopened = await SessionStore.open(storage, { maxBytes: Infinity, log: { warn: (message) => assert.fail(message) } });
      assert.deepEqual(reopened.list().map((summary) => [summary.title, summary.status, summary.turnCount]), [["prompt 1", "completed", 2]]);
      assert.deepEqual(await reopened.load(ID), session);
    } finally {
      fs.rmSync(storage, { recursive: true, force: true });
    }
  });
});
