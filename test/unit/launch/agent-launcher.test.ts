// The one launcher of the panel and `agent-stream ask`, with real fake agents: warm ACP agents by session, one desk
// per session, stream CLIs one process per turn.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NodeWorkspaceFiles } from "../../../src/acp/workspace-files";
import { AgentLauncher, type AgentLaunch, type LaunchAgent } from "../../../src/launch/agent-launcher";
import type { AgentStateUpdate } from "../../../src/protocol/agent-state";
import type { Transcript, TranscriptBlock } from "../../../src/protocol/transcript";
import { eventually } from "../../helpers/eventually";
import { fakeCli } from "../../helpers/repo";

function acpAgent(scenario: string): LaunchAgent {
  return { kind: "cli", choice: { cliPath: process.execPath, cliArgs: [fakeCli("fake-acp-agent.mjs"), scenario], cliProfile: "acp", dialect: "auto" }, env: {} };
}

function textsOf(transcript: Transcript): string[] {
  return transcript.blocks.flatMap((block) => (block.kind === "text" ? [block.text] : []));
}

describe("the agent launcher", () => {
  let workspace: string;
  let launcher: AgentLauncher;
  const logged: string[] = [];
  const waiting: Array<[string, number]> = [];

  beforeEach(() => {
    workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "launcher-")));
    logged.length = 0;
    waiting.length = 0;
    launcher = new AgentLauncher({
      files: (roots) => new NodeWorkspaceFiles(roots),
      log: { info: (m) => logged.push(`info ${m}`), warn: (m) => logged.push(`warn ${m}`), trace: () => {}, tracing: () => false },
      onWaiting: (sessionId, count) => waiting.push([sessionId, count]),
    });
  });

  afterEach(() => {
    launcher.dispose();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  function launch(sessionId: string, agent: LaunchAgent, prompt: string, turn = 0): AgentLaunch {
    return {
      sessionId,
      agent,
      prompt,
      conversation: { id: `conversation-${sessionId}`, continues: turn > 0, stateDir: workspace },
      cwd: workspace,
      workspaceRoots: [workspace],
      autoAnswer: {},
    };
  }

  it("keeps one warm ACP agent for all the turns of a session, and starts another for another session", async () => {
    const firstRun = launcher.start(launch("a", acpAgent("turns"), "one"));
    const first = await firstRun.finished;
    const secondRun = launcher.start(launch("a", acpAgent("turns"), "two", 1));
    const second = await secondRun.finished;
    const other = await launcher.start(launch("b", acpAgent("turns"), "one")).finished;
    const pids = [first, second, other].map((transcript) => /pid (\d+)$/.exec(textsOf(transcript).join(""))?.[1]);
    assert.ok(pids.every((pid) => pid !== undefined), pids.join(", "));
    assert.equal(pids[1], pids[0], "the session's second turn is its agent's");
    assert.equal(String(secondRun.pid), pids[0], "the run names the warm agent's process");
    assert.notEqual(pids[2], pids[0], "another session has its own agent");
    assert.deepEqual(textsOf(second).map((text) => text.startsWith("turn 2 ")), [true]);
  });

  it("answers a session's waiting request by its id, through the session's desk", async () => {
    const run = launcher.start(launch("a", acpAgent("permission"), "go"));
    const block = await waitForPermission(() => run.session.blocks);
    assert.deepEqual(waiting, [["a", 1]]);
    assert.equal(run.answer(block.requestId, "proceed"), true);
    const transcript = await run.finished;
    const answered = transcript.blocks.find((b) => b.kind === "permission");
    assert.equal(answered?.kind === "permission" && answered.decision, "allowed");
    assert.equal(answered?.kind === "permission" && answered.optionId, "proceed");
    assert.deepEqual(waiting.at(-1), ["a", 0]);
  });

  it("ends a session's waiting request cancelled, never allowed, when the session ends", async () => {
    const run = launcher.start(launch("a", acpAgent("permission"), "go"));
    await waitForPermission(() => run.session.blocks);
    await launcher.endSession("a");
    const transcript = await run.finished;
    const answered = transcript.blocks.find((b) => b.kind === "permission");
    assert.equal(answered?.kind === "permission" && answered.decision, "cancelled");
    assert.deepEqual(waiting.at(-1), ["a", 0]);
    assert.equal(launcher.deskOf("a"), undefined);
  });

  it("runs a stream CLI through its profile, one process per turn, and logs its command line and its end", async () => {
    const agent: LaunchAgent = { kind: "cli", choice: { cliPath: fakeCli("fake-locus.js"), cliArgs: null, cliProfile: "locus", dialect: "auto" }, env: {} };
    const firstRun = launcher.start(launch("s", agent, "first"));
    assert.ok(firstRun.pid !== undefined, "the run names its process");
    const first = await firstRun.finished;
    const second = await launcher.start(launch("s", agent, "second", 1)).finished;
    assert.equal(first.status, "completed");
    assert.ok(textsOf(first).join("").includes("You asked: first"), textsOf(first).join(" | "));
    assert.ok(textsOf(second).join("").includes("You asked: second"), textsOf(second).join(" | "));
    assert.equal(logged.filter((line) => line.startsWith(`info run: `) && line.includes("fake-locus.js")).length, 2, logged.join("\n"));
    assert.equal(logged.filter((line) => line.startsWith("info done: completed")).length, 2, logged.join("\n"));
  });

  it("logs a failed stream run's stderr once: the error's own words, then the stderr block", async () => {
    const agent: LaunchAgent = {
      kind: "cli",
      choice: { cliPath: fakeCli("print-and-exit.js"), cliArgs: ["-", "3", "fatal: the disk is on fire\n"], cliProfile: "locus", dialect: "auto" },
      env: {},
    };
    const transcript = await launcher.start(launch("s", agent, "burn")).finished;
    assert.equal(transcript.status, "failed");
    // (The command line names it too, as the fake's argument.)
    const mentions = logged.filter((line) => !line.startsWith("info run: ") && line.includes("the disk is on fire"));
    assert.deepEqual(mentions, ["warn stderr: fatal: the disk is on fire"], logged.join("\n"));
    assert.ok(logged.some((line) => /^info \w+: The CLI exited with code 3/.test(line)), logged.join("\n"));
  });

  it("leaves the transcript to the chat's turn when it holds it: the changes tell all of it, the run keeps none", async () => {
    const agent: LaunchAgent = { kind: "cli", choice: { cliPath: fakeCli("fake-locus.js"), cliArgs: null, cliProfile: "locus", dialect: "auto" }, env: {} };
    let told = "";
    const transcript = await launcher.start({
      ...launch("s", agent, "first"),
      heldByListener: true,
      onChange: (change) => {
        if (change.kind === "text-appended") told += change.text;
        if (change.kind === "block-added" && change.block.kind === "text") told += change.block.text;
      },
    }).finished;
    assert.equal(transcript.status, "completed");
    assert.ok(told.includes("You asked: first"), told);
    assert.deepEqual(transcript.blocks, []);
  });

  it("gives a stream CLI's session a desk of its own, as an ACP agent's", async () => {
    const agent: LaunchAgent = { kind: "cli", choice: { cliPath: fakeCli("fake-locus.js"), cliArgs: null, cliProfile: "locus", dialect: "auto" }, env: {} };
    await launcher.start(launch("s", agent, "hi")).finished;
    await launcher.start(launch("t", acpAgent("turns"), "hi")).finished;
    assert.ok(launcher.deskOf("s") !== undefined && launcher.deskOf("t") !== undefined);
    assert.notEqual(launcher.deskOf("s"), launcher.deskOf("t"));
  });

  it("starts Claude Code in the mode and model chosen for the session, and tells the session what its init line says", async () => {
    const claude: LaunchAgent = { kind: "cli", choice: { cliPath: fakeCli("fake-claude.js"), cliArgs: null, cliProfile: "claude", dialect: "auto" }, env: {} };
    const states: AgentStateUpdate[] = [];
    const run = launcher.start({ ...launch("c", claude, "plan it"), chosenSettings: { mode: "plan", model: "sonnet" }, onAgentState: (update) => states.push(update) });
    assert.equal((await run.finished).status, "completed");
    const said = states.find((update) => update.kind === "settings");
    assert.ok(said?.kind === "settings");
    assert.equal(said.mode?.currentId, "plan");
    assert.equal(said.model?.currentId, "sonnet");
    assert.ok(said.mode?.offered.some((mode) => mode.id === "bypassPermissions" && mode.approvesItself), "the modes offered, each marked");
  });

  it("starts Claude Code in the mode that asks when its remembered mode approves by itself or is not one of its modes, and logs why", async () => {
    const record = path.join(workspace, "claude-args.ndjson");
    const claude: LaunchAgent = { kind: "cli", choice: { cliPath: fakeCli("fake-claude.js"), cliArgs: null, cliProfile: "claude", dialect: "auto" }, env: { FAKE_CLAUDE_RECORD: record } };
    await launcher.start({ ...launch("m", claude, "go"), chosenSettings: { mode: "bypassPermissions", remembered: true } }).finished;
    await launcher.start({ ...launch("n", claude, "go"), chosenSettings: { mode: "yolo", remembered: true } }).finished;
    await launcher.start({ ...launch("o", claude, "go"), chosenSettings: { mode: "plan", remembered: true } }).finished;
    const runs = fs.readFileSync(record, "utf8").trim().split("\n").map((line) => (JSON.parse(line) as { args: string[] }).args);
    const modes = runs.map((args) => args[args.indexOf("--permission-mode") + 1]);
    assert.deepEqual(modes, ["default", "default", "plan"]);
    assert.equal(runs.filter((args) => args.filter((arg) => arg === "--permission-mode").length === 1).length, 3, "one mode each");
    const dropped = logged.filter((line) => line.startsWith("warn the remembered mode is dropped"));
    assert.equal(dropped.length, 2, logged.join("\n"));
    assert.match(dropped[0] ?? "", /"bypassPermissions" approves its own actions/);
    assert.match(dropped[1] ?? "", /unknown mode "yolo"/);
  });

  it("gives Claude Code's next run of the session the rules its \u201calways\u201d answers gave, so it does not ask again", async () => {
    const record = path.join(workspace, "claude-args.ndjson");
    const claude: LaunchAgent = { kind: "cli", choice: { cliPath: fakeCli("fake-claude.js"), cliArgs: null, cliProfile: "claude", dialect: "auto" }, env: { FAKE_CLAUDE_RECORD: record } };
    await launcher.start(launch("r", claude, "first")).finished;
    launcher.deskOf("r")?.keepAgentRules(["Bash(touch always.txt)"]);
    await launcher.start(launch("r", claude, "again", 1)).finished;
    const runs = fs.readFileSync(record, "utf8").trim().split("\n").map((line) => (JSON.parse(line) as { args: string[] }).args);
    assert.equal(runs.length, 2);
    assert.equal(runs[0]?.includes("--allowedTools"), false, "nothing allowed before any answer");
    assert.deepEqual(runs[1]?.slice(-2), ["--allowedTools", "Bash(touch always.txt)"]);
  });

  it("tells the session the slash commands Claude Code takes, less its terminal's own", async () => {
    const claude: LaunchAgent = { kind: "cli", choice: { cliPath: fakeCli("fake-claude.js"), cliArgs: null, cliProfile: "claude", dialect: "auto" }, env: {} };
    const states: AgentStateUpdate[] = [];
    await launcher.start({ ...launch("e", claude, "go"), onAgentState: (update) => states.push(update) }).finished;
    const said = states.find((update) => update.kind === "commands");
    assert.ok(said?.kind === "commands");
    const names = said.commands.map((command) => command.name);
    assert.ok(names.includes("code-review") && names.includes("compact"), names.join(" "));
    assert.ok(!names.includes("doctor") && !names.includes("__remote-workflow"), "terminal-only and internal commands are left out");
  });

  it("starts Claude Code in its mode that asks when none was chosen", async () => {
    const claude: LaunchAgent = { kind: "cli", choice: { cliPath: fakeCli("fake-claude.js"), cliArgs: null, cliProfile: "claude", dialect: "auto" }, env: {} };
    const states: AgentStateUpdate[] = [];
    await launcher.start({ ...launch("d", claude, "go"), onAgentState: (update) => states.push(update) }).finished;
    const said = states.find((update) => update.kind === "settings");
    assert.ok(said?.kind === "settings");
    assert.equal(said.mode?.currentId, "default");
  });
});

/** The run's permission block once its request waits for the user. */
function waitForPermission(blocks: () => TranscriptBlock[]): Promise<{ requestId: string }> {
  return eventually("a permission request waiting", () => {
    const block = blocks().find((b) => b.kind === "permission");
    return block?.kind === "permission" && block.decision === null ? block : undefined;
  });
}
