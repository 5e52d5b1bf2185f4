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
import { fakeCli } from "../../helpers/repo";

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
