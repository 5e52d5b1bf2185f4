import * as assert from "node:assert/strict";
import type { Turn } from "../../../src/protocol/messages";
import { TITLE_CHARS, titleFromPrompt } from "../../../src/common/session-title";
import { listedSessions, statusOf, summaryOf } from "../../../src/sessions/session-summary";
import { storedSession } from "../../helpers/stored-session-builder";
import { toolBlock, turnWith } from "../../helpers/turn-builder";

describe("a session's summary", () => {
  it("lists a Claude Code session once, as ours, when one of our sessions runs that conversation", () => {
    const claudeId = "0b0e5a6c-1f3d-4c4e-9a51-7a3c5f0d2e11";
    const ours = summaryOf(storedSession({ updatedAt: 5_000, agentSession: { conversationId: claudeId, spoke: true, acpSessionId: null } }), "completed");
    const theirs = (id: string, updatedAt: number) => ({ ...summaryOf(storedSession({ id, updatedAt }), "completed"), source: "claude-code" as const, agentConversationId: null });
    const outside = theirs("5d7c2b9e-3a41-4f0b-8e6d-2c9a1b7f4e30", 4_000);
    assert.deepEqual(
      listedSessions([ours], [theirs(claudeId, 6_000), outside]).map((summary) => summary.id),
      [ours.id, outside.id],
    );
  });

  it("lists an opened Claude Code session once, and an index entry written before the agent's id was kept as it is", () => {
    const opened = summaryOf(storedSession({ updatedAt: 3_000 }), "completed");
    const { agentConversationId: _unknown, ...older } = summaryOf(storedSession({ updatedAt: 1_000 }), "stopped");
    const theirs = { ...opened, source: "claude-code" as const, updatedAt: 9_000 };
    assert.deepEqual(
      listedSessions([older, opened], [theirs]).map((summary) => [summary.id, summary.source]),
      [
        [opened.id, "agent-stream"],
        [older.id, "agent-stream"],
      ],
    );
  });

  it("is titled by the first line of a prompt that has text, trimmed", () => {
    assert.equal(titleFromPrompt("\r\n   \n  Explain the build  \r\nin detail"), "Explain the build");
  });

  it("cuts a long title short with an ellipsis", () => {
    const title = titleFromPrompt("word ".repeat(100_000));
    assert.equal(title.length, TITLE_CHARS);
    assert.ok(title.endsWith("…"));
  });

  it("says how a stored session's last turn ended, a turn saved while it ran as stopped", () => {
    const ended = (status: Turn["status"]): Turn => ({ ...turnWith(1, []), status });
    assert.equal(statusOf(storedSession({ turns: [] })), "new");
    assert.equal(statusOf(storedSession({ turns: [ended("completed")] })), "completed");
    assert.equal(statusOf(storedSession({ turns: [ended("failed")] })), "failed");
    assert.equal(statusOf(storedSession({ turns: [ended("canceled")] })), "stopped");
    assert.equal(statusOf(storedSession({ turns: [ended(null)] })), "stopped");
  });

  it("counts the lines the turns' edits added and removed, over every turn", () => {
    const edit = (oldText: string | null, newText: string) => toolBlock({ diffs: [{ path: "src/a.ts", oldText, newText }] });
    const session = storedSession({ turns: [turnWith(1, [edit("a\nb\nc\n", "a\nB\nc\n")]), turnWith(2, [edit(null, "x\ny\n"), toolBlock()])] });
    assert.deepEqual(summaryOf(session, "completed").changes, { added: 3, removed: 1 });
  });

  it("counts a call's new diffs once the agent replaced its old ones", () => {
    const turn = turnWith(1, [toolBlock({ diffs: [{ path: "a", oldText: "a\n", newText: "b\n" }] })]);
    const session = storedSession({ turns: [turn] });
    assert.deepEqual(summaryOf(session, "running").changes, { added: 1, removed: 1 });
    turn.blocks[0] = toolBlock({ diffs: [{ path: "a", oldText: "a\n", newText: "b\nc\nd\n" }] });
    assert.deepEqual(summaryOf(session, "running").changes, { added: 3, removed: 1 });
  });

  it("has no changes to show when no tool call said what it changed", () => {
    assert.equal(summaryOf(storedSession({ turns: [turnWith(1, [toolBlock()])] }), "completed").changes, null);
  });

  it("carries the session's own facts and the status it is given", () => {
    const session = storedSession({ title: "t", turns: [turnWith(1, []), turnWith(2, [])], agentSession: { conversationId: "c-1", spoke: true, acpSessionId: null } });
    assert.deepEqual(summaryOf(session, "waiting"), {
      id: session.id,
      title: "t",
      agent: { profile: "claude", displayName: "Claude Code" },
      status: "waiting",
      createdAt: session.createdAt,
      updatedAt: session.updatedAt,
      turnCount: 2,
      changes: null,
      source: "agent-stream",
      agentConversationId: "c-1",
    });
  });
});
