import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { listAgentSessions, loadAgentSession, type AgentVisitOptions } from "../../../src/acp/agent-sessions";
import { ReplayedTurns } from "../../../src/acp/replayed-turns";
import { sessionIdFor } from "../../../src/acp/session-list";
import { SessionSummarySchema } from "../../../src/protocol/sessions";
import type { ToolCard } from "../../../src/protocol/transcript";
import { disposeFakeAgents, prompt, startFakeAgent } from "../../helpers/acp-harness";
import { fakeCli } from "../../helpers/repo";

const AGENT = { profile: "fake", displayName: "Fake Agent" };

describe("an ACP agent's own sessions", () => {
  let workspace: string;
  let recordFile: string;

  beforeEach(() => {
    workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-sessions-")));
    recordFile = `${workspace}.record.ndjson`;
  });
  afterEach(async () => {
    await disposeFakeAgents();
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(recordFile, { force: true });
  });

  const visiting = (scenario: string, more: Partial<AgentVisitOptions> = {}): AgentVisitOptions => ({
    command: process.execPath,
    args: [fakeCli("fake-acp-sessions-agent.mjs"), scenario],
    env: { ...process.env, FAKE_ACP_RECORD: recordFile },
    cwd: workspace,
    agent: AGENT,
    ...more,
  });
  const requests = () => fs.readFileSync(recordFile, "utf8").trim().split("\n").map((line) => (JSON.parse(line) as { method: string }).method);

  describe("listing (session/list)", () => {
    it("lists this folder's sessions over every page, newest first, by an id of ours derived from the agent's", async () => {
      const listed = await listAgentSessions(visiting("lists"));
      assert.deepEqual(
        listed?.map((session) => [session.acpSessionId, session.summary.title, session.summary.source]),
        [
          ["ses_newer", "Add a test", "acp"],
          ["ses_older", "Fix the build", "acp"],
          ["ses_untitled", "Fake Agent session", "acp"],
        ],
      );
      for (const session of listed ?? []) {
        assert.ok(SessionSummarySchema.safeParse(session.summary).success);
        assert.equal(session.summary.id, sessionIdFor("fake", session.acpSessionId));
      }
    });

    it("asks only initialize and session/list of the agent: no session is made to list them", async () => {
      await listAgentSessions(visiting("lists"));
      assert.deepEqual(requests(), ["initialize", "session/list", "session/list"]);
    });

    it("is undefined for an agent whose initialize does not offer session/list, which is never asked", async () => {
      assert.equal(await listAgentSessions(visiting("no-list")), undefined);
      assert.deepEqual(requests(), ["initialize"]);
    });

    it("follows at most 20 pages of an agent whose every page has a next cursor", async () => {
      const problems: string[] = [];
      const listed = await listAgentSessions(visiting("endless", { log: (message) => problems.push(message) }));
      assert.equal(listed?.length, 20);
      assert.equal(requests().filter((method) => method === "session/list").length, 20);
      assert.match(problems.join("\n"), /more than 20 pages/);
    });

    it("gives up on an agent that does not answer within the deadline", async () => {
      await assert.rejects(listAgentSessions(visiting("silent", { deadlineMs: 1000 })), /^Error: Fake Agent did not answer within 1.0 s$/);
    });

    it("says so when the agent cannot be started", async () => {
      await assert.rejects(listAgentSessions({ ...visiting("lists"), command: path.join(workspace, "no-such-agent") }), /Could not start .*no-such-agent.* does not exist/);
    });

    it("makes the same id of the same session each time, and different ids for two agents' sessions of the same id", () => {
      assert.equal(sessionIdFor("qwen", "ses_1"), sessionIdFor("qwen", "ses_1"));
      assert.notEqual(sessionIdFor("qwen", "ses_1"), sessionIdFor("opencode", "ses_1"));
      assert.notEqual(sessionIdFor("qwen", "ses_1"), sessionIdFor("qwen", "ses_2"));
    });
  });

  describe("showing one (session/load)", () => {
    it("turns what session/load replays into turns: each user message a turn, the thinking, tool call and answer its blocks", async () => {
      const loaded = await loadAgentSession(visiting("lists"), "ses_older");
      assert.equal(loaded?.complete, true);
      assert.deepEqual(
        loaded?.turns.map((turn) => [turn.prompt, turn.agent, turn.status, turn.blocks.map((block) => block.kind)]),
        [
          ["When is the meeting?", "Fake Agent", "completed", ["thinking", "tool", "text"]],
          ["Thanks", "Fake Agent", "completed", ["text"]],
        ],
      );
      const tool = loaded?.turns[0]?.blocks.find((block): block is ToolCard => block.kind === "tool");
      assert.deepEqual([tool?.title, tool?.status, tool?.output, tool?.parameters], ["Read notes.txt", "succeeded", "10:30", { path: "notes.txt" }]);
      assert.deepEqual(loaded?.turns[0]?.blocks.at(-1), { kind: "text", text: "At 10:30." });
      assert.deepEqual(requests(), ["initialize", "session/load"]);
    });

    it("rejects with the agent's error when the session is gone", async () => {
      await assert.rejects(loadAgentSession(visiting("lists"), "ses_gone"), /Resource not found/);
    });

    it("is undefined for an agent that cannot load sessions", async () => {
      assert.equal(await loadAgentSession(visiting("no-list"), "ses_older"), undefined);
    });

    it("leaves out of the prompt the /model command Claude Code logged, which claude-agent-acp 0.23.1 replays as the user's words", () => {
      // As claude-agent-acp 0.23.1 replayed the session of test/fixtures/claude-recorded/2.1.83/sessions.
      const turns = new ReplayedTurns("Claude Code (ACP)");
      for (const text of [
        "<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args>default</command-args>",
        "<local-command-stdout>Set model to claude-sonnet-4-6</local-command-stdout>",
        "Say hi, and remember the word kumquat.",
      ]) {
        turns.accept({ sessionUpdate: "user_message_chunk", content: { type: "text", text } });
      }
      turns.accept({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hi! I will keep that word in mind." } });
      assert.deepEqual(
        turns.finish().map((turn) => turn.prompt),
        ["Say hi, and remember the word kumquat."],
      );
    });

    it("opens no turn for the session's news an agent replays before the first prompt (codex-acp 2.6.0)", () => {
      const turns = new ReplayedTurns("Codex");
      turns.accept({ sessionUpdate: "available_commands_update", availableCommands: [{ name: "review", description: "Review" }] });
      turns.accept({ sessionUpdate: "usage_update", used: 10, size: 1000 });
      turns.accept({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "Say hi." } });
      turns.accept({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hi!" } });
      assert.deepEqual(
        turns.finish().map((turn) => [turn.prompt, turn.blocks]),
        [["Say hi.", [{ kind: "text", text: "Hi!" }]]],
      );
    });

    it("keeps the first turns of a replay longer than its limits and says it is not complete", () => {
      const turns = new ReplayedTurns("Fake Agent", { turns: 1, chars: 1_000_000, blocks: 1_000 });
      for (const text of ["one", "two", "three"]) {
        turns.accept({ sessionUpdate: "user_message_chunk", content: { type: "text", text } });
        turns.accept({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `answer ${text}` } });
      }
      assert.equal(turns.full, true);
      assert.deepEqual(
        turns.finish().map((turn) => turn.prompt),
        ["one"],
      );
    });
  });

  describe("through a running connection", () => {
    it("hands over what session/load replays of a saved session, and offers the agent's list while it runs", async () => {
      const replayed = new ReplayedTurns("Fake Agent");
      const harness = startFakeAgent("lists", {
        args: [fakeCli("fake-acp-sessions-agent.mjs"), "lists"],
        savedSessionId: "ses_older",
        onReplayedUpdate: (update) => replayed.accept(update),
      });
      const sessionList = () => harness.connection.sessionList;
      assert.equal(sessionList(), undefined, "no list before the agent runs");
      const outcome = await harness.connection.prompt(prompt("And tomorrow?"));
      assert.equal(outcome.status, "completed");
      assert.deepEqual(
        replayed.finish().map((turn) => turn.prompt),
        ["When is the meeting?", "Thanks"],
      );
      assert.equal(harness.text(), "", "the replay is not shown again as the new turn's answer");
      const listed = await sessionList()?.list(harness.workspace, AGENT);
      assert.deepEqual(
        listed?.map((session) => session.acpSessionId),
        ["ses_newer", "ses_older", "ses_untitled"],
      );
    });

    it("offers no list for an agent that does not list sessions", async () => {
      const harness = startFakeAgent("no-list", { args: [fakeCli("fake-acp-sessions-agent.mjs"), "no-list"] });
      await harness.connection.prompt(prompt("Hello"));
      assert.equal(harness.connection.sessionList, undefined);
    });
  });
});
