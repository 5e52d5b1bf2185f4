// The real, published Claude Code 2.1.330 (from the recording cache) against our mock model on 127.0.0.1, asking
// before its tools run (`--permission-prompt-tool stdio`, added by the claude profile): through `agent-stream ask
// --approve allow|reject` as a script author runs it, and through a LiveSession with the session's desk, as the
// panel runs it (an "always" answer, Stop while a request waits). No VS Code here.
import * as assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { anthropicStream } from "../../scripts/recording/anthropic-replies";
import { claudeCli } from "../../scripts/recording/claude-cli";
import { MockModelServer, type MockReply } from "../../scripts/recording/mock-model-server";
import { createAdapter } from "../../src/dialects/registry";
import type { PermissionDesk } from "../../src/permissions/permission-desk";
import { claudeProfile } from "../../src/profiles/claude-profile";
import { CliStreamEventSchema, type CliStreamEvent } from "../../src/protocol/events";
import type { PermissionBlock, Transcript } from "../../src/protocol/transcript";
import { LiveSession } from "../../src/session/live-session";
import { deskFor } from "../helpers/acp-harness";
import { agentStream } from "../helpers/agent-stream-cli";
import { eventually } from "../helpers/eventually";
import { RUN_MARKER_VARIABLE, runningWithEnvironment } from "./processes";

const VERSION = "2.1.330";
const NOTES = "Remember: the build is green.\n";
const GONE_DEADLINE_MS = 10_000;

const toolTurn = (id: string, name: string, input: unknown): MockReply => anthropicStream({ blocks: [{ type: "tool_use", id, name, input }], stopReason: "tool_use" });
const answer = (words: string): MockReply => anthropicStream({ blocks: [{ type: "text", chunks: [words] }], stopReason: "end_turn" });

describe(`real Claude Code ${VERSION} asking before its tools run`, function () {
  this.timeout(600_000); // a first install from npm
  let mock: MockModelServer;
  let home: string;
  let workspace: string;
  let executable: string;
  let marker: string;

  before(async () => {
    executable = ensureInstalled(claudeCli, VERSION);
    mock = await MockModelServer.start();
  });
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-claude-permissions-home-"));
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-claude-permissions-workspace-"));
    fs.writeFileSync(path.join(workspace, "notes.txt"), NOTES);
    marker = `${RUN_MARKER_VARIABLE}=${randomUUID()}`;
  });
  afterEach(() => {
    for (const folder of [home, workspace]) fs.rmSync(folder, { recursive: true, force: true });
  });
  after(async () => mock?.stop());

  const env = (): NodeJS.ProcessEnv => {
    const [name, value] = marker.split("=") as [string, string];
    return { ...claudeCli.env({ home, workspace, port: mock.port }), [name]: value };
  };
  const ask = (approve: string, prompt: string) =>
    agentStream(["ask", "--json", "--profile", "claude", "--cli", executable, "--cwd", workspace, "--approve", approve, "--", prompt], { env: env() });
  const events = (stdout: string): CliStreamEvent[] => stdout.trim().split("\n").map((line) => CliStreamEventSchema.parse(JSON.parse(line)));
  const decisions = (all: readonly CliStreamEvent[]) => all.flatMap((event) => (event.type === "permission_answered" ? [event.payload.decision] : []));
  const doneStatus = (all: readonly CliStreamEvent[]) => all.flatMap((event) => (event.type === "done" ? [event.payload.status ?? "completed"] : []));
  const inWorkspace = (name: string) => path.join(workspace, name);

  function startLive(desk: PermissionDesk): LiveSession {
    const invocation = claudeProfile.invocation({ prompt: "go", userArgs: null, conversation: { id: randomUUID(), continues: false, stateDir: home } });
    return LiveSession.start({
      adapter: createAdapter("claude"),
      process: { command: executable, args: invocation.args, cwd: workspace, env: env(), input: invocation.input, inactivityTimeoutMs: 0 },
      isRunOver: invocation.input?.isRunOver,
      permissionChannel: invocation.input?.permissionChannel,
      permissions: desk,
    });
  }
  const permissions = (transcript: Transcript) => transcript.blocks.filter((block): block is PermissionBlock => block.kind === "permission");

  it("writes the file when --approve allow answers its Write, with the diff shown before the answer", async () => {
    mock.script([toolTurn("toolu_e2e_write", "Write", { file_path: inWorkspace("made.txt"), content: "Made.\n" }), answer("Written.")], answer("Done."));
    const run = await ask("allow", "Write made.txt.");
    const all = events(run.stdout);
    assert.deepEqual(decisions(all), ["allowed"], run.stderr);
    assert.equal(fs.readFileSync(inWorkspace("made.txt"), "utf8"), "Made.\n");
    const diff = all.find((event) => event.type === "tool_updated" && event.payload.toolId === "toolu_e2e_write");
    assert.deepEqual(diff?.type === "tool_updated" && diff.payload.diffs, [{ path: inWorkspace("made.txt"), oldText: null, newText: "Made.\n" }]);
    assert.deepEqual(doneStatus(all), ["completed"]);
  });

  it("leaves the file as it was when --approve reject answers its Edit, and the turn does not read Completed", async () => {
    mock.script(
      [
        toolTurn("toolu_e2e_read", "Read", { file_path: inWorkspace("notes.txt") }),
        toolTurn("toolu_e2e_edit", "Edit", { file_path: inWorkspace("notes.txt"), old_string: "green", new_string: "red" }),
        answer("I could not edit it."),
      ],
      answer("Done."),
    );
    const run = await ask("reject", "Make the build red.");
    const all = events(run.stdout);
    assert.deepEqual(decisions(all), ["rejected"], run.stderr);
    assert.equal(fs.readFileSync(inWorkspace("notes.txt"), "utf8"), NOTES);
    const refused = all.find((event) => event.type === "status" && event.payload.status === "refused");
    assert.match((refused?.type === "status" && refused.payload.message) || "", /Edit .*notes\.txt/);
    // The Read only looked: the work asked for was refused.
    assert.deepEqual(doneStatus(all), ["failed"]);
  });

  it("fails a turn whose only call, a Write, was refused: nothing was written", async () => {
    mock.script([toolTurn("toolu_e2e_write_over", "Write", { file_path: inWorkspace("new.txt"), content: "x" }), answer("I could not.")], answer("Done."));
    const all = events((await ask("reject", "Write new.txt.")).stdout);
    assert.deepEqual(decisions(all), ["rejected"]);
    assert.equal(fs.existsSync(inWorkspace("new.txt")), false);
    assert.deepEqual(doneStatus(all), ["failed"]);
  });

  for (const [approve, decision, made] of [["allow", "allowed", true], ["reject", "rejected", false]] as const) {
    it(`${made ? "runs" : "does not run"} the command when --approve ${approve} answers its Bash request`, async () => {
      mock.script([toolTurn("toolu_e2e_bash", "Bash", { command: "touch made-by-bash.txt", description: "Create a file" }), answer("Ran.")], answer("Done."));
      const all = events((await ask(approve, "Create made-by-bash.txt.")).stdout);
      assert.deepEqual(decisions(all), [decision]);
      assert.equal(fs.existsSync(inWorkspace("made-by-bash.txt")), made);
    });
  }

  it("does not ask again for the same command once it was allowed always", async () => {
    const touch = { command: "touch always.txt", description: "Create a file" };
    mock.script([toolTurn("toolu_e2e_always_1", "Bash", touch), toolTurn("toolu_e2e_always_2", "Bash", touch), answer("Twice.")], answer("Done."));
    const asked: string[] = [];
    const desk = deskFor([workspace], {
      decide: (request) => {
        asked.push(request.title);
        const always = request.options.find((option) => option.kind === "allow_always");
        return Promise.resolve(always === undefined ? "cancelled" : { optionId: always.id });
      },
    });
    const transcript = await startLive(desk).finished;
    assert.deepEqual(asked, ["touch always.txt"]);
    assert.deepEqual(permissions(transcript).map((block) => block.decision), ["allowed"]);
    assert.equal(fs.existsSync(inWorkspace("always.txt")), true);
    assert.equal(transcript.status, "completed");
  });

  it("answers a request still waiting at Stop, and leaves no process of Claude running", async () => {
    mock.script([toolTurn("toolu_e2e_wait", "Bash", { command: "touch waiting.txt", description: "Create a file" })], answer("Done."));
    const desk = deskFor([workspace]);
    const live = startLive(desk);
    await eventually("the request waiting for the user", () => desk.openCount === 1, 60_000);
    const transcript = await live.stop();
    assert.deepEqual(permissions(transcript).map((block) => block.decision), ["cancelled"]);
    assert.equal(transcript.status, "canceled");
    assert.equal(fs.existsSync(inWorkspace("waiting.txt")), false);
    await eventually("no process of Claude left", () => runningWithEnvironment(marker).length === 0, GONE_DEADLINE_MS);
  });
});
