// Claude Code's models in the header's picker (issue 25): each run's `initialize` answer lists them by the alias
// Claude takes (`opus`), each with the model it resolves to, which is what the init line names (`claude-opus-5-5`).
// A small fake answers as Claude Code 2.1.330 answered (test/fake-clis/fake-claude-settings.js), late, or never.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NodeWorkspaceFiles } from "../../../src/acp/workspace-files";
import { AgentLauncher, type AgentLaunch } from "../../../src/launch/agent-launcher";
import { applyAgentState, emptyAgentState, type AgentState, type AgentStateUpdate, type ChosenAgentSettings } from "../../../src/protocol/agent-state";
import { eventually } from "../../helpers/eventually";
import { fakeCli } from "../../helpers/repo";

/** The models Claude Code 2.1.330 answered initialize with, as the picker offers them. */
const CLAUDE_MODELS = [
  { id: "default", name: "Default (recommended)", description: "Use the default model (currently Opus 5.5) · $4/$20 per Mtok" },
  { id: "opus", name: "Opus", description: "Opus 5.5 · Best for everyday, complex tasks · $4/$20 per Mtok" },
  { id: "fable", name: "Fable", description: "Fable 5.2 · Most capable for your hardest and longest-running tasks · $8/$40 per Mtok" },
  { id: "sonnet", name: "Sonnet", description: "Sonnet 5.5 · Efficient for routine tasks · $2/$10 per Mtok" },
  { id: "haiku", name: "Haiku", description: "Haiku 5.5 · Fastest for quick answers · $0.10/$0.50 per Mtok ($0.50/$2.50 for prompts over 100k)" },
];

describe("Claude Code's models in the header's picker", () => {
  let workspace: string;
  let stdinLog: string;
  let launcher: AgentLauncher;
  let states: AgentStateUpdate[];

  beforeEach(() => {
    workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "claude-models-")));
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

  function launch(chosen: ChosenAgentSettings & { remembered?: boolean } = {}, env: Record<string, string> = {}, turn = 0): AgentLaunch {
    return {
      sessionId: "s",
      agent: { kind: "cli", choice: { cliPath: fakeCli("fake-claude-settings.js"), cliArgs: null, cliProfile: "claude", dialect: "auto" }, env: { FAKE_STDIN_LOG: stdinLog, ...env } },
      prompt: "pick a model",
      conversation: { id: "00000000-0000-4000-8000-00000000000e", continues: turn > 0, stateDir: workspace },
      cwd: workspace,
      workspaceRoots: [workspace],
      autoAnswer: {},
      chosenSettings: chosen,
      onAgentState: (update) => states.push(update),
    };
  }

  /** The session's agent state as the header shows it, from every update so far. */
  function header(): AgentState {
    const state = emptyAgentState();
    for (const update of states) applyAgentState(state, update);
    return state;
  }

  /** A run's header once its init and its initialize answer have both come (the answer's descriptions are the sign). */
  async function settled(run: { stop(): Promise<unknown> }): Promise<AgentState> {
    await eventually("Claude's init and initialize answer", () => header().model !== null && header().commands.some((command) => command.description !== ""));
    await run.stop();
    return header();
  }

  it("offers Claude 2.1.330's models by the aliases it takes, the default marked as the model its init line names", async () => {
    const state = await settled(launcher.start(launch()));
    assert.deepEqual(state.model, { currentId: "default", offered: CLAUDE_MODELS, configId: null });
  });

  it("ends with the same header when Claude answers initialize after its init line and a change of mode", async () => {
    const inOrder = await settled(launcher.start(launch({ mode: "plan" }, { FAKE_LEAVE_PLAN: "1" })));
    launcher.dispose();
    states = [];
    launcher = new AgentLauncher({ files: (roots) => new NodeWorkspaceFiles(roots), log: { info: () => {}, warn: () => {}, trace: () => {}, tracing: () => false } });
    const late = await settled(launcher.start(launch({ mode: "plan" }, { FAKE_LEAVE_PLAN: "1", FAKE_INITIALIZE: "late" })));
    assert.ok(states.findIndex((update) => update.kind === "settings") < states.findIndex((update) => update.kind === "models"), "the init line came first");
    assert.deepEqual(late, inOrder);
    assert.equal(late.mode?.currentId, "default");
    assert.equal(late.model?.currentId, "default");
  });

  it("marks the alias the session chose, not the first one naming the same model", async () => {
    const state = await settled(launcher.start(launch({ model: "opus" })));
    assert.equal(state.model?.currentId, "opus");
    assert.equal(state.model?.offered.length, 5);
  });

  it("asks the running Claude for the picked alias and keeps the list", async () => {
    const run = launcher.start(launch());
    await eventually("the models offered", () => (header().model?.offered.length ?? 0) > 0 && header().commands.some((command) => command.description !== ""));
    assert.deepEqual(await launcher.chooseNow("s", { model: "sonnet" }), { kind: "applied" });
    await run.stop();
    const written = fs.readFileSync(stdinLog, "utf8").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as { request?: { subtype: string; model?: string } });
    assert.deepEqual(written.filter((line) => line.request?.subtype === "set_model").map((line) => line.request?.model), ["sonnet"]);
    assert.deepEqual(header().model, { currentId: "sonnet", offered: CLAUDE_MODELS, configId: null });
  });

  it("marks the alias picked mid-turn when Claude's initialize answer comes after the pick", async () => {
    const run = launcher.start(launch({}, { FAKE_INITIALIZE: "after-set-model" }));
    await eventually("Claude's init", () => header().model !== null);
    assert.deepEqual(await launcher.chooseNow("s", { model: "sonnet" }), { kind: "applied" });
    await eventually("the models offered", () => (header().model?.offered.length ?? 0) > 0);
    await run.stop();
    assert.deepEqual(header().model, { currentId: "sonnet", offered: CLAUDE_MODELS, configId: null });
  });

  it("runs a remembered model Claude does not list, shown by its name beside the list", async () => {
    const state = await settled(launcher.start(launch({ model: "claude-sonnet-4-5", remembered: true })));
    // The fake's init names the model its --model flag gave.
    assert.deepEqual(state.model, { currentId: "claude-sonnet-4-5", offered: CLAUDE_MODELS, configId: null });
  });

  it("keeps the list for the session's next run, even one whose initialize is never answered", async () => {
    await settled(launcher.start(launch()));
    states = [];
    const next = launcher.start(launch({ model: "haiku" }, { FAKE_INITIALIZE: "never" }, 1));
    await eventually("the next run's init", () => header().model !== null);
    await next.stop();
    assert.deepEqual(header().model, { currentId: "haiku", offered: CLAUDE_MODELS, configId: null });
  });

  it("names the model as the init line does, with no list, while Claude has never answered initialize", async () => {
    const run = launcher.start(launch({}, { FAKE_INITIALIZE: "never" }));
    await eventually("Claude's init", () => header().model !== null);
    await run.stop();
    assert.deepEqual(header().model, { currentId: "claude-opus-5-5", offered: [], configId: null });
  });
});
