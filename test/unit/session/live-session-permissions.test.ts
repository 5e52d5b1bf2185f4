// A stream run whose CLI asks for permission in its output (Claude Code's `--permission-prompt-tool stdio`): each
// request answered through the desk and written back on stdin, the card and its diff in the turn, a withdrawn request
// closed without an answer, and Stop answering a waiting request before the interrupt. Real child processes: a fake
// Claude replaying Claude Code 2.1.330's recorded lines (test/fake-clis/fake-claude-permissions.js).
import * as assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createAdapter } from "../../../src/dialects/registry";
import type { PermissionDesk } from "../../../src/permissions/permission-desk";
import type { PermissionRequest } from "../../../src/permissions/permission-request";
import { claudeProfile } from "../../../src/profiles/claude-profile";
import type { PermissionBlock, ToolCard, Transcript } from "../../../src/protocol/transcript";
import { LiveSession } from "../../../src/session/live-session";
import { deskFor } from "../../helpers/acp-harness";
import { eventually } from "../../helpers/eventually";
import { fakeCli, repoRoot } from "../../helpers/repo";
import { VirtualScheduler } from "../../helpers/virtual-scheduler";

const RECORDED = path.join(repoRoot, "test", "fixtures", "claude-recorded", "2.1.330");
const NOTES_TEXT = "Remember: the build is green.\nSecond line: ünïcødé ✓\n";

describe("LiveSession with Claude Code's permission requests on its stream", function () {
  this.timeout(20_000);
  let workspace: string;
  let answers: string;
  beforeEach(() => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-claude-permissions-"));
    fs.writeFileSync(path.join(workspace, "notes.txt"), NOTES_TEXT);
    answers = path.join(workspace, "answers.ndjson");
  });
  afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

  function start(recording: string, desk: PermissionDesk | undefined, env: Record<string, string> = {}, timeout: { inactivityTimeoutMs: number; scheduler?: VirtualScheduler } = { inactivityTimeoutMs: 0 }): LiveSession {
    const invocation = claudeProfile.invocation({ prompt: "go", userArgs: null, conversation: { id: randomUUID(), continues: false, stateDir: workspace } });
    return LiveSession.start({
      adapter: createAdapter("claude"),
      process: {
        command: fakeCli("fake-claude-permissions.js"),
        args: [],
        cwd: workspace,
        env: { ...process.env, FAKE_RECORDING: path.join(RECORDED, recording), FAKE_ANSWERS: answers, FAKE_WORKSPACE: workspace, ...env },
        input: invocation.input,
        ...timeout,
      },
      isRunOver: invocation.input?.isRunOver,
      permissionChannel: invocation.input?.permissionChannel,
      permissions: desk,
    });
  }

  /** What Claude got on stdin after the prompt, one parsed line each. */
  const written = (): Array<Record<string, unknown>> =>
    fs.existsSync(answers) ? fs.readFileSync(answers, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) : [];
  const innerAnswers = () => written().map((line) => (line.response as { response: Record<string, unknown> }).response);
  const permissions = (transcript: Transcript) => transcript.blocks.filter((block): block is PermissionBlock => block.kind === "permission");
  const tool = (transcript: Transcript, id: string) => transcript.blocks.find((block): block is ToolCard => block.kind === "tool" && block.toolId === id);

  /** A user who allows the Write and the Read, rejects the Edit and `touch denied.txt`, and allows `touch always.txt` always. */
  const user = (request: PermissionRequest) => {
    const wanted = request.title.includes("denied.txt") || (request.toolKind === "edit" && request.title.startsWith("Edit")) ? "reject_once" : request.title.includes("always.txt") ? "allow_always" : "allow_once";
    const option = request.options.find((each) => each.kind === wanted);
    return Promise.resolve(option === undefined ? ("cancelled" as const) : { optionId: option.id });
  };

  it("answers each can_use_tool through the desk and writes Claude's control_response for it on stdin", async () => {
    const transcript = await start("permission-prompt.ndjson", deskFor([workspace], { decide: user })).finished;
    assert.deepEqual(
      innerAnswers().map((answer) => answer.behavior),
      ["allow", "deny", "allow", "deny", "allow"],
    );
    const [write, , always] = innerAnswers();
    assert.deepEqual(write?.updatedInput, { file_path: path.join(workspace, "made-by-model.txt"), content: "Made by the model.\n" });
    assert.deepEqual(always?.updatedPermissions, [{ type: "addRules", rules: [{ toolName: "Bash", ruleContent: "touch always.txt" }], behavior: "allow", destination: "session" }]);
    assert.deepEqual(
      permissions(transcript).map((block) => [block.title, block.decision]),
      [
        ["Write made-by-model.txt", "allowed"],
        ["Edit notes.txt", "rejected"],
        ["touch always.txt", "allowed"],
        ["touch denied.txt", "rejected"],
        ["Read /etc/hostname", "allowed"],
      ],
    );
    assert.equal(transcript.done.synthesized, false);
  });

  it("keeps on the session's desk the rule an Always allow gave Claude, and none of the calls allowed once", async () => {
    const desk = deskFor([workspace], { decide: user });
    await start("permission-prompt.ndjson", desk).finished;
    assert.deepEqual(desk.keptAgentRules, ["Bash(touch always.txt)"]);
  });

  it("offers Always allow only for a request Claude can keep a rule for, and names the file outside the workspace", async () => {
    const asked: PermissionRequest[] = [];
    await start("permission-prompt.ndjson", deskFor([workspace], { decide: (request) => (asked.push(request), user(request)) })).finished;
    assert.deepEqual(
      asked.map((request) => [request.toolKind, request.options.map((option) => option.name)]),
      [
        ["edit", ["Allow", "Reject"]],
        ["edit", ["Allow", "Reject"]],
        ["execute", ["Allow", "Always allow", "Reject"]],
        ["execute", ["Allow", "Always allow", "Reject"]],
        ["read", ["Allow", "Always allow", "Reject"]],
      ],
    );
    assert.deepEqual(asked[4]?.outsideWorkspace, ["/etc/hostname"]);
  });

  it("shows the edit's diff from the file on disk on its tool card before the question, and Write's whole new file", async () => {
    const transcript = await start("permission-prompt.ndjson", deskFor([workspace], { decide: user })).finished;
    assert.deepEqual(tool(transcript, "toolu_mock_edit_02")?.diffs, [
      { path: path.join(workspace, "notes.txt"), oldText: NOTES_TEXT, newText: NOTES_TEXT.replace("green", "red") },
    ]);
    assert.deepEqual(tool(transcript, "toolu_mock_write_01")?.diffs, [{ path: path.join(workspace, "made-by-model.txt"), oldText: null, newText: "Made by the model.\n" }]);
  });

  it("refuses every request of a run that has no desk: Claude is answered deny, never left waiting", async () => {
    const transcript = await start("permission-prompt.ndjson", undefined).finished;
    assert.deepEqual(
      innerAnswers().map((answer) => answer.behavior),
      ["deny", "deny", "deny", "deny", "deny"],
    );
    assert.equal(transcript.done.synthesized, false);
  });

  it("closes the card of a request Claude withdraws, and writes no answer to it", async () => {
    const desk = deskFor([workspace]);
    const transcript = await start("permission-interrupt.ndjson", desk, { FAKE_WITHDRAW: "1" }).finished;
    assert.deepEqual(written(), []);
    assert.deepEqual(
      permissions(transcript).map((block) => [block.title, block.decision]),
      [["touch waiting.txt", "cancelled"]],
    );
    assert.equal(desk.openCount, 0);
  });

  it("answers a waiting request with a deny at Stop, before the interrupt", async () => {
    const desk = deskFor([workspace]);
    const live = start("permission-interrupt.ndjson", desk);
    await eventually("the request waiting for the user", () => desk.openCount === 1);
    const transcript = await live.stop();
    const [answer, interrupt] = written();
    assert.equal((answer?.response as { response: { behavior: string } }).response.behavior, "deny");
    assert.deepEqual(interrupt?.request, { subtype: "interrupt" });
    assert.deepEqual(
      permissions(transcript).map((block) => block.decision),
      ["cancelled"],
    );
    assert.equal(transcript.status, "canceled");
  });

  it("takes the user's answer from the card by the desk's request id", async () => {
    const desk = deskFor([workspace]);
    const live = start("permission-interrupt.ndjson", desk);
    const requestId = await eventually("the request's card", () => live.session.blocks.find((block): block is PermissionBlock => block.kind === "permission")?.requestId);
    assert.equal(live.answer(requestId, "reject"), true);
    assert.equal(live.answer(requestId, "reject"), false, "a request is answered once");
    await eventually("the answer on Claude's stdin", () => written().length === 1);
    assert.equal(innerAnswers()[0]?.behavior, "deny");
    await live.stop();
  });

  it("holds the inactivity timeout while a request waits for the user: Claude's silence then is not a hang", async () => {
    const clock = new VirtualScheduler();
    const desk = deskFor([workspace]);
    const live = start("permission-interrupt.ndjson", desk, {}, { inactivityTimeoutMs: 1000, scheduler: clock });
    const requestId = await eventually("the request's card", () => live.session.blocks.find((block): block is PermissionBlock => block.kind === "permission")?.requestId);
    clock.advance(60_000);
    assert.equal(live.session.stoppedBy, null, "not stopped for inactivity");
    assert.equal(live.answer(requestId, "reject"), true);
    const transcript = await live.finished;
    assert.deepEqual(transcript.blocks.filter((block) => block.kind === "error" && block.code === "NETWORK_TIMEOUT"), []);
  });
});
