// What the chat shows of an ACP conversation that was meant to continue a saved session (after a window reload).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { AcpConversation } from "../../../src/acp/acp-conversation";
import { LOST_SESSION_MESSAGE } from "../../../src/dialects/acp/acp-event-translator";
import { NodeWorkspaceFiles } from "../../../src/acp/workspace-files";
import { cancellingDesk } from "../../helpers/acp-harness";
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
