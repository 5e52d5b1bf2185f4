// What the chat shows of an ACP conversation that was meant to continue a saved session (after a window reload), and
// what it keeps of the session's settings as the agent says them.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { AcpConversation } from "../../../src/acp/acp-conversation";
import { LOST_SESSION_MESSAGE } from "../../../src/dialects/acp/acp-event-translator";
import { NodeWorkspaceFiles } from "../../../src/acp/workspace-files";
import { applyAgentState, emptyAgentState, type AgentState } from "../../../src/protocol/agent-state";
import { acpTransportOf } from "../../../src/profiles/cli-profile";
import { resolveProfile, type ProfileSetting } from "../../../src/profiles/profile-registry";
import { cancellingDesk } from "../../helpers/acp-harness";
import { openingSettings, type RecordedOpening } from "../../helpers/acp-openings";
import { fakeCli, repoRoot } from "../../helpers/repo";
import type { Transcript } from "../../../src/protocol/transcript";

function conversation(env: Record<string, string>, workspace: string): AcpConversation {
  return new AcpConversation({
    command: process.execPath,
    args: [fakeCli("fake-acp-agent.mjs"), "load"],
    env: { ...process.env, ...env },
    workspaceRoots: [workspace],
    files: new NodeWorkspaceFiles([workspace]),
    permissions: cancellingDesk([workspace]),
    savedSessionId: "saved-7",
  });
}

describe("an ACP conversation continuing a saved session", () => {
  let workspace: string;
  beforeEach(() => (workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-conv-")))));
  afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

  it("says in the turn that the agent starts afresh when it cannot continue the saved session", async () => {
    const chat = conversation({ FAKE_ACP_LOAD: "refuse" }, workspace);
    try {
      const transcript = await chat.prompt([{ type: "text", text: "go on" }]).finished;
      assert.equal(transcript.status, "completed");
      const notes = transcript.blocks.filter((block) => block.kind === "status");
      assert.deepEqual(notes.map((block) => block.kind === "status" && block.message), [LOST_SESSION_MESSAGE]);
    } finally {
      await chat.dispose();
    }
  });

  it("says nothing of the kind when the session was continued", async () => {
    const chat = conversation({}, workspace);
    try {
      const transcript = await chat.prompt([{ type: "text", text: "go on" }]).finished;
      assert.equal(transcript.status, "completed");
      assert.deepEqual(transcript.blocks.filter((block) => block.kind === "status"), []);
      assert.deepEqual(transcript.blocks.filter((block) => block.kind === "text").map((block) => block.kind === "text" && block.text), ["continued saved-7"]);
    } finally {
      await chat.dispose();
    }
  });
});

describe("the agent state an ACP conversation keeps of the session", () => {
  let workspace: string;
  beforeEach(() => (workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-conv-")))));
  afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

  /** The fake agent opening its session with the settings `agent` really sent; the state as the conversation tells it. */
  async function stateAfterOneTurn(agent: RecordedOpening): Promise<AgentState> {
    const state = emptyAgentState();
    const profile = resolveProfile(agent.split("/")[0] as ProfileSetting, null);
    const chat = new AcpConversation({
      command: process.execPath,
      args: [fakeCli("fake-acp-modes-agent.mjs")],
      env: { ...process.env, FAKE_ACP_OPENING: JSON.stringify(openingSettings(agent)) },
      workspaceRoots: [workspace],
      files: new NodeWorkspaceFiles([workspace]),
      permissions: cancellingDesk([workspace]),
      modeRule: acpTransportOf(profile)?.modes,
      onAgentState: (update) => applyAgentState(state, update),
    });
    try {
      await chat.prompt([{ type: "text", text: "write it" }]).finished;
    } finally {
      await chat.dispose();
    }
    return state;
  }

  it("keeps Qwen Code 0.24.4's modes, each marked when it approves by itself, in the mode that asks, with its model and config options", async () => {
    const state = await stateAfterOneTurn("qwen/0.24.4");
    assert.equal(state.mode?.currentId, "default");
    assert.equal(state.mode?.configId, "mode");
    assert.deepEqual(
      state.mode?.offered.map((mode) => [mode.id, mode.approvesItself]),
      [["plan", false], ["default", false], ["auto-edit", true], ["auto", true], ["yolo", true]],
    );
    assert.equal(state.model?.currentId, "$runtime|openai|mock-model(openai)");
    assert.deepEqual(state.configOptions.map((option) => [option.id, option.currentValue]), [["mode", "default"], ["model", "$runtime|openai|mock-model(openai)"]]);
  });

  it("marks claude-agent-acp 0.101's auto and acceptEdits as approving by themselves, and keeps its effort option", async () => {
    const state = await stateAfterOneTurn("claude-acp/0.101.0");
    assert.equal(state.mode?.currentId, "default");
    assert.deepEqual(state.mode?.offered.filter((mode) => mode.approvesItself).map((mode) => mode.id), ["acceptEdits", "auto"]);
    assert.deepEqual(state.configOptions.find((option) => option.id === "effort")?.category, "thought_level");
  });

  it("keeps codex-acp 2.6's read-only mode as the one it runs in, and its full-access modes marked", async () => {
    const state = await stateAfterOneTurn("codex/2.6.0");
    assert.equal(state.mode?.currentId, "read-only");
    assert.deepEqual(state.mode?.offered.filter((mode) => mode.approvesItself).map((mode) => mode.id), ["workspace-write", "agent", "agent-full-access"]);
  });
});

describe("an ACP conversation's follow-ups", () => {
  let workspace: string;
  beforeEach(() => (workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-conv-")))));
  afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

  it("takes a follow-up the moment the turn's transcript arrives", async () => {
    const chat = new AcpConversation({
      command: process.execPath,
      args: [fakeCli("fake-acp-agent.mjs"), "turns"],
      env: process.env,
      workspaceRoots: [workspace],
      files: new NodeWorkspaceFiles([workspace]),
      permissions: cancellingDesk([workspace]),
    });
    try {
      const first = await chat.prompt([{ type: "text", text: "one" }]).finished;
      const second = await chat.prompt([{ type: "text", text: "two" }]).finished;
      assert.deepEqual([first.status, second.status], ["completed", "completed"]);
      assert.match(second.blocks.map((block) => (block.kind === "text" ? block.text : "")).join(""), /^turn 2 /);
    } finally {
      await chat.dispose();
    }
  });
});

describe("the usage of a live ACP turn", () => {
  let workspace: string;
  beforeEach(() => (workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-conv-")))));
  afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

  /** One turn of the fake agent (a `usage_update` of $0.01 and 1,200 of 200,000 tokens), its answer's `usage` as given. */
  async function usageOfOneTurn(promptUsage: unknown): Promise<Transcript["done"]["usage"]> {
    const chat = new AcpConversation({
      command: process.execPath,
      args: [fakeCli("fake-acp-agent.mjs"), "all-updates"],
      env: { ...process.env, ...(promptUsage === undefined ? {} : { FAKE_ACP_PROMPT_USAGE: JSON.stringify(promptUsage) }) },
      workspaceRoots: [workspace],
      files: new NodeWorkspaceFiles([workspace]),
      permissions: cancellingDesk([workspace]),
    });
    try {
      return (await chat.prompt([{ type: "text", text: "hello" }]).finished).done.usage;
    } finally {
      await chat.dispose();
    }
  }

  /** The `usage` of claude-agent-acp 0.101.0's answer to the prompt in a recorded run. */
  function recordedPromptUsage(): unknown {
    const log = fs.readFileSync(path.join(repoRoot, "test/fixtures/acp-recorded/claude-acp/0.101.0/edit-and-command.ndjson"), "utf8");
    const answer = log
      .split("\n")
      .filter((line) => line.includes('"stopReason"'))
      .map((line) => JSON.parse(line) as { result: { usage: unknown } })[0];
    return answer.result.usage;
  }

  it("shows the tokens claude-agent-acp counts in its answer to the prompt, with the cost and context of its usage_update", async () => {
    const usage = await usageOfOneTurn(recordedPromptUsage());
    assert.deepEqual(usage, { inputTokens: 360, outputTokens: 17, cacheReadTokens: 0, cost: { amount: 0.01, currency: "USD" }, contextUsed: 1200, contextSize: 200000 });
  });

  it("counts the prompt's cached part as input, and as read from the cache", async () => {
    const usage = await usageOfOneTurn({ inputTokens: 10, outputTokens: 5, cachedReadTokens: 900, cachedWriteTokens: 90, totalTokens: 1005 });
    assert.deepEqual([usage?.inputTokens, usage?.outputTokens, usage?.cacheReadTokens], [1000, 5, 900]);
  });

  it("invents no token counts when the answer has no usage, or one it got wrong", async () => {
    for (const promptUsage of [undefined, { inputTokens: -3, outputTokens: 5 }, { inputTokens: 1e300, outputTokens: 5 }, "many"]) {
      const usage = await usageOfOneTurn(promptUsage);
      assert.deepEqual([usage?.inputTokens, usage?.outputTokens, usage?.cacheReadTokens], [null, null, null], JSON.stringify(promptUsage));
      assert.equal(usage?.contextUsed, 1200);
    }
  });
});
