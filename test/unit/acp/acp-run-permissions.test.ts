// The chat's way back to an ACP agent that asks permission: the run that asked takes the answer, by the request's id,
// and only while it runs. A real fake agent (test/fake-clis/fake-acp-agent.mjs) records what it was answered.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { AcpConversation, type AcpRun } from "../../../src/acp/acp-conversation";
import { NodeWorkspaceFiles } from "../../../src/acp/workspace-files";
import type { PermissionBlock } from "../../../src/protocol/transcript";
import { deskFor } from "../../helpers/acp-harness";
import { eventually } from "../../helpers/eventually";
import { fakeCli } from "../../helpers/repo";

describe("an ACP run's answers to its permission requests", () => {
  let workspace: string;
  let record: string;
  let chat: AcpConversation;
  const waiting: number[] = [];

  beforeEach(() => {
    workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-answers-")));
    record = `${workspace}.record.ndjson`;
    waiting.length = 0;
    // As the panel runs it: no `decide`, so every request waits for an answer by its id.
    chat = new AcpConversation({
      command: process.execPath,
      args: [fakeCli("fake-acp-agent.mjs"), "permission-pair"],
      env: { ...process.env, FAKE_ACP_RECORD: record },
      workspaceRoots: [workspace],
      files: new NodeWorkspaceFiles([workspace]),
      permissions: deskFor([workspace], { onWaiting: (count) => waiting.push(count) }),
    });
  });

  afterEach(async () => {
    await chat.dispose();
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(record, { force: true });
  });

  const requestsOf = (run: AcpRun): PermissionBlock[] => run.session.blocks.filter((block): block is PermissionBlock => block.kind === "permission");
  const answers = () =>
    fs.existsSync(record)
      ? fs.readFileSync(record, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>).filter((fact) => "permission" in fact)
      : [];

  it("gives each of two waiting requests the answer named by its id, in whatever order they are answered", async () => {
    const run = chat.prompt([{ type: "text", text: "go" }]);
    await eventually("both requests wait", () => waiting.at(-1) === 2);
    const [one, two] = requestsOf(run);
    assert.deepEqual([one?.title, two?.title], ["Run step one", "Run step two"]);
    assert.equal(run.answer(two!.requestId, "nope"), true);
    assert.equal(run.answer(one!.requestId, "proceed"), true);
    const transcript = await run.finished;
    assert.deepEqual(answers().map((fact) => [fact.call, fact.permission]).sort(), [
      ["pair-1", { outcome: "selected", optionId: "proceed" }],
      ["pair-2", { outcome: "selected", optionId: "nope" }],
    ]);
    const shown = transcript.blocks.flatMap((block) => (block.kind === "permission" ? [[block.title, block.decision, block.answeredBy]] : []));
    assert.deepEqual(shown, [["Run step one", "allowed", "user"], ["Run step two", "rejected", "user"]]);
  });

  it("takes no answer once the run is over, and none that the request does not offer", async () => {
    const run = chat.prompt([{ type: "text", text: "go" }]);
    await eventually("both requests wait", () => waiting.at(-1) === 2);
    const [one, two] = requestsOf(run);
    assert.equal(run.answer(two!.requestId, "zz-always"), false, "the second request offers no \u201calways\u201d");
    await run.stop();
    assert.deepEqual(answers().map((fact) => fact.permission), [{ outcome: "cancelled" }, { outcome: "cancelled" }], "Stop answered both cancelled");
    assert.equal(run.answer(one!.requestId, "proceed"), false);
    assert.equal(answers().length, 2, "the agent heard nothing more");
  });
});
