// Claude Code's mode and model changed during a turn through its stdin (issue 24): the launcher writes the control
// request to the running CLI and checks its control_response; between turns the choice waits for the next run's
// flags. A small fake CLI answers as Claude Code 2.1.330 answered (test/fake-clis/fake-claude-settings.js).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NodeWorkspaceFiles } from "../../../src/acp/workspace-files";
import { AgentLauncher, type AgentLaunch, type LaunchAgent, type LaunchedRun } from "../../../src/launch/agent-launcher";
import type { AgentStateUpdate } from "../../../src/protocol/agent-state";
import { eventually } from "../../helpers/eventually";
import { fakeCli } from "../../helpers/repo";

describe("Claude Code's mode and model changed mid-turn", () => {
  let workspace: string;
  let stdinLog: string;
  let launcher: AgentLauncher;
  let states: AgentStateUpdate[];

  beforeEach(() => {
    workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "claude-settings-")));
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

  const claude = (env: Record<string, string> = {}): LaunchAgent => ({
    kind: "cli",
    choice: { cliPath: fakeCli("fake-claude-settings.js"), cliArgs: null, cliProfile: "claude", dialect: "auto" },
    env: { FAKE_STDIN_LOG: stdinLog, ...env },
  });

  function launch(turn = 0, chosen = {}, env: Record<string, string> = {}): AgentLaunch {
    return {
      sessionId: "s",
      agent: claude(env),
      prompt: "plan the parser",
      conversation: { id: "00000000-0000-4000-8000-00000000000c", continues: turn > 0, stateDir: workspace },
      cwd: workspace,
      workspaceRoots: [workspace],
      autoAnswer: {},
      chosenSettings: chosen,
      onAgentState: (update) => states.push(update),
    };
  }

  /** A turn under way, once Claude has said its init. */
  async function running(): Promise<LaunchedRun> {
    const run = launcher.start(launch());
    await eventually("Claude's init", () => states.some((update) => update.kind === "settings"));
    return run;
  }

  const requests = () =>
    fs
      .readFileSync(stdinLog, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { type: string; request?: Record<string, unknown> })
      .filter((line) => line.type === "control_request" && line.request?.subtype !== "interrupt" && line.request?.subtype !== "initialize")
      .map((line) => line.request);

  it("asks the running Claude to switch to plan mode on its stdin, and the session hears it switched", async () => {
    const run = await running();
    assert.deepEqual(await launcher.chooseNow("s", { mode: "plan" }), { kind: "applied" });
    assert.deepEqual(requests(), [{ subtype: "set_permission_mode", mode: "plan" }]);
    assert.deepEqual(states.at(-1), { kind: "mode", modeId: "plan" });
    await run.stop();
  });

  it("asks it back to its mode that asks when the choice is taken back", async () => {
    const run = await running();
    await launcher.chooseNow("s", { mode: "plan" });
    assert.deepEqual(await launcher.chooseNow("s", {}), { kind: "applied" });
    assert.deepEqual(requests().at(-1), { subtype: "set_permission_mode", mode: "default" });
    await run.stop();
  });

  it("asks it to switch its model, and the session hears the model", async () => {
    const run = await running();
    assert.deepEqual(await launcher.chooseNow("s", { model: "opus" }), { kind: "applied" });
    assert.deepEqual(requests(), [{ subtype: "set_model", model: "opus" }]);
    assert.deepEqual(states.at(-1), { kind: "model", modelId: "opus" });
    await run.stop();
  });

  it("says Claude's own words when it refuses, and the turn shows nothing of the exchange", async () => {
    const run = await running();
    const outcome = await launcher.chooseNow("s", { mode: "yolo" });
    assert.deepEqual(outcome, {
      kind: "refused",
      reason: "The agent did not switch to mode yolo (it answered: Cannot set permission mode: must be one of acceptEdits, auto, bypassPermissions, default, dontAsk, plan).",
    });
    const transcript = await run.stop();
    assert.deepEqual(transcript.problems, []);
  });

  it("follows the mode Claude says it is in when it leaves plan mode by itself", async () => {
    const run = launcher.start(launch(0, { mode: "plan" }, { FAKE_LEAVE_PLAN: "1" }));
    await eventually("Claude saying it left plan mode", () => states.some((update) => update.kind === "mode" && update.modeId === "default"));
    assert.deepEqual(
      states.flatMap((update) => (update.kind === "settings" ? [update.mode?.currentId] : update.kind === "mode" ? [update.modeId] : [])),
      ["plan", "default"],
    );
    await run.stop();
  });

  it("leaves a choice made between turns to the next run's flags", async () => {
    await (await running()).stop();
    assert.deepEqual(await launcher.chooseNow("s", { mode: "plan" }), { kind: "next-turn" });
    states.length = 0;
    const next = launcher.start(launch(1, { mode: "plan" }));
    await eventually("the next run's init", () => states.find((update) => update.kind === "settings"));
    const said = states.find((update) => update.kind === "settings");
    assert.equal(said?.kind === "settings" && said.mode?.currentId, "plan");
    await next.stop();
  });
});
