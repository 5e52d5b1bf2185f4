// Claude Code's slash commands complete after `/` with their descriptions (issue 25): each run asks Claude's
// `initialize` before its prompt, and the answer's descriptions go with the names its init line gives. A small fake
// answers as Claude Code 2.1.330 answered (test/fake-clis/fake-claude-settings.js), or never.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NodeWorkspaceFiles } from "../../../src/acp/workspace-files";
import { AgentLauncher, type AgentLaunch } from "../../../src/launch/agent-launcher";
import type { AgentStateUpdate } from "../../../src/protocol/agent-state";
import { eventually } from "../../helpers/eventually";
import { fakeCli } from "../../helpers/repo";

type Commands = Extract<AgentStateUpdate, { kind: "commands" }>["commands"];

describe("Claude Code's slash commands with their descriptions", () => {
  let workspace: string;
  let stdinLog: string;
  let launcher: AgentLauncher;
  let states: AgentStateUpdate[];

  beforeEach(() => {
    workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "claude-commands-")));
    stdinLog = path.join(workspace, "stdin.ndjson");
    states = [];
    launcher = new AgentLauncher({
      files: (roots) => new NodeWorkspaceFiles(roots),
      log: { info: () => {}, warn: () => {}, trace: () => {}, tracing: () => false },
    });
  });

  afterEach(() => {
    launcher.dispose();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  function launch(env: Record<string, string> = {}): AgentLaunch {
    return {
      sessionId: "s",
      agent: { kind: "cli", choice: { cliPath: fakeCli("fake-claude-settings.js"), cliArgs: null, cliProfile: "claude", dialect: "auto" }, env: { FAKE_STDIN_LOG: stdinLog, ...env } },
      prompt: "compact the notes",
      conversation: { id: "00000000-0000-4000-8000-00000000000d", continues: false, stateDir: workspace },
      cwd: workspace,
      workspaceRoots: [workspace],
      autoAnswer: {},
      chosenSettings: {},
      onAgentState: (update) => states.push(update),
    };
  }

  const lastCommands = (): Commands | undefined => states.findLast((update) => update.kind === "commands")?.commands;
  const described = (name: string) => lastCommands()?.find((command) => command.name === name)?.description;

  it("completes /compact with the description Claude's initialize answer gave", async () => {
    const run = launcher.start(launch());
    await eventually("the commands described", () => described("compact") !== undefined && described("compact") !== "");
    assert.equal(described("compact"), "Free up context by summarizing the conversation so far");
    // The names stay the init line's: a command that works only in Claude's terminal is not offered.
    assert.equal(described("doctor"), undefined);
    assert.equal(lastCommands()?.length, 39);
    const transcript = await run.stop();
    assert.deepEqual(transcript.problems, []);
  });

  it("asks Claude its commands once per run", async () => {
    const run = launcher.start(launch());
    await eventually("Claude's init", () => states.some((update) => update.kind === "settings"));
    await run.stop();
    const written = fs.readFileSync(stdinLog, "utf8").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as { type: string; request?: { subtype: string } });
    assert.deepEqual(written.filter((line) => line.request?.subtype === "initialize").length, 1);
  });

  it("still runs the turn and completes the names when Claude never answers initialize", async () => {
    const run = launcher.start(launch({ FAKE_INITIALIZE: "never" }));
    await eventually("Claude's init", () => lastCommands() !== undefined && states.some((update) => update.kind === "settings"));
    assert.equal(described("compact"), "");
    assert.deepEqual(await launcher.chooseNow("s", { model: "opus" }), { kind: "applied" });
    const transcript = await run.stop();
    assert.deepEqual(transcript.problems, []);
  });
});
