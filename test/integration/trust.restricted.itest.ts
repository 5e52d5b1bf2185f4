// A folder in Restricted Mode (the runner's second pass: workspace trust on, nothing trusted): no CLI is ever
// spawned, the chat says why, and replaying a recorded stream still works.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import type { AgentStreamTestApi } from "../../src/extension";
import type { HostMessage } from "../../src/protocol/messages";
import { eventually } from "../helpers/eventually";

describe("Restricted Mode", function () {
  let api: AgentStreamTestApi;
  const marker = path.join(os.tmpdir(), `agent-stream-restricted-${process.pid}`);
  const cli = path.join(os.tmpdir(), `agent-stream-restricted-cli-${process.pid}.js`);

  before(async function () {
    assert.equal(vscode.workspace.isTrusted, false, "the runner opens this folder untrusted");
    const extension = vscode.extensions.getExtension<AgentStreamTestApi | undefined>("agent-stream.agent-stream");
    api = (await extension?.activate()) ?? assert.fail("the runner sets AGENT_STREAM_TEST_API=1");
    // A CLI that leaves a mark if it ever runs.
    fs.writeFileSync(cli, `#!/usr/bin/env node\nrequire("fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n`, { mode: 0o755 });
    await vscode.workspace.getConfiguration("agentStream").update("cli.path", cli, vscode.ConfigurationTarget.Global);
  });

  after(async function () {
    await vscode.workspace.getConfiguration("agentStream").update("cli.path", undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(cli, { force: true });
    fs.rmSync(marker, { force: true });
  });

  it("runs no CLI, from the chat or from Ask about Workspace, and the chat says why", async function () {
    const posted: HostMessage[] = [];
    api.conversation.handleIntent({ post: (message) => posted.push(message) }, { type: "ready" });
    assert.equal(posted[0]?.type, "snapshot");
    assert.match((posted[0] as { restriction: string | null }).restriction ?? "", /Restricted Mode.*does not run the agent CLI/);

    assert.equal(api.conversation.send("hello"), false);
    // The command shows the chat and a warning (with Manage Workspace Trust), and never an input box or a run.
    await vscode.commands.executeCommand("agentStream.askAboutWorkspace", "run anyway?");
    assert.equal(api.conversation.running, false);
    assert.equal(api.conversation.lastTurn, undefined);
    assert.equal(fs.existsSync(marker), false, "the CLI never ran");
  });

  it("still replays a recorded stream", async function () {
    const file = path.join(os.tmpdir(), `agent-stream-restricted-${process.pid}.ndjson`);
    const event = (type: string, payload: unknown) => JSON.stringify({ protocol: 1, type, sessionId: "rec", timestamp: 1, payload });
    fs.writeFileSync(file, [event("start", { command: "exec" }), event("text_delta", { content: "from the file" }), event("done", { exitCode: 0, duration: 3, success: true })].join("\n"));
    try {
      await vscode.commands.executeCommand("agentStream.replayStreamFile", vscode.Uri.file(file));
      await eventually("the replay to finish", () => api.conversation.lastTurn?.done != null);
      const turn = api.conversation.lastTurn!;
      assert.deepEqual([turn.origin, turn.status], ["replay", "completed"]);
      assert.deepEqual(turn.blocks, [{ kind: "text", text: "from the file" }]);
      assert.equal(fs.existsSync(marker), false);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});
