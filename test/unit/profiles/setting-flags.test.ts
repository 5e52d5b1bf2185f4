// Claude Code's mode and model as the session's agent state: read from its recorded `system/init` lines through the
// Claude dialect, with Claude's modes offered and each marked when Claude approves its own actions in it.
import * as assert from "node:assert/strict";
import { ClaudeAdapter } from "../../../src/dialects/claude-adapter";
import { applyAgentState, emptyAgentState } from "../../../src/protocol/agent-state";
import { CLAUDE_SETTING_FLAGS } from "../../../src/profiles/claude-setting-flags";
import { agentStateOfStart, keptRuleArgs, modelSetting, rememberedModeChecked, settingArgs, unknownModeProblem } from "../../../src/profiles/setting-flags";
import { decodeAll, fixture } from "../../helpers/dialect-harness";

/** The `start` the Claude dialect makes of a recorded stream, as a run's agent state. */
function stateOfRecording(name: string, edit: (line: Record<string, unknown>) => Record<string, unknown> = (line) => line) {
  const values = fixture("claude-recorded", name)
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => edit(JSON.parse(line) as Record<string, unknown>));
  const start = decodeAll(new ClaudeAdapter(), values).events.find((event) => event.type === "start");
  assert.ok(start?.type === "start", "the stream starts");
  const state = emptyAgentState();
  const update = agentStateOfStart(CLAUDE_SETTING_FLAGS, start.payload);
  if (update !== undefined) applyAgentState(state, update);
  return state;
}

describe("Claude Code's mode and model as the session's agent state", () => {
  it("reads the mode and model Claude 2.1.330's init line names, with Claude's modes offered", () => {
    const state = stateOfRecording("2.1.330/plain-answer.ndjson");
    assert.equal(state.mode?.currentId, "default");
    assert.equal(state.model?.currentId, "claude-opus-5-5");
    assert.deepEqual(
      state.mode?.offered.map((mode) => [mode.id, mode.approvesItself]),
      [
        ["default", false],
        ["acceptEdits", true],
        ["plan", false],
        ["auto", true],
        ["dontAsk", false],
        ["bypassPermissions", true],
      ],
    );
  });

  it("reads plan mode when the init line says Claude runs in it", () => {
    const state = stateOfRecording("2.1.330/plain-answer.ndjson", (line) => (line.subtype === "init" ? { ...line, permissionMode: "plan" } : line));
    assert.equal(state.mode?.currentId, "plan");
  });

  it("keeps the model alone when the init line names no mode", () => {
    const state = stateOfRecording("2.1.197/long-answer.ndjson", (line) => {
      const { permissionMode: _mode, ...rest } = line;
      return rest;
    });
    assert.equal(state.mode, null);
    assert.notEqual(state.model, null);
  });

  it("says a mode Claude does not have is unknown, listing Claude's modes and which approve by themselves", () => {
    assert.equal(unknownModeProblem(CLAUDE_SETTING_FLAGS, "plan"), undefined);
    assert.equal(
      unknownModeProblem(CLAUDE_SETTING_FLAGS, "yolo"),
      'unknown mode "yolo"; the modes are default, acceptEdits (approves its own actions), plan, auto (approves its own actions), dontAsk, bypassPermissions (approves its own actions)',
    );
  });
});

describe("Claude Code's model marked among the models it offers", () => {
  const models = [
    { value: "default", resolvedModel: "claude-opus-5-5", name: "Default (recommended)", description: "Use the default model" },
    { value: "opus", resolvedModel: "claude-opus-5-5", name: "Opus", description: "" },
    { value: "sonnet", resolvedModel: "claude-sonnet-5-5", name: "Sonnet", description: "Sonnet 5.5" },
  ];

  it("offers each model by the alias Claude takes, with its name and description (none when it says nothing)", () => {
    assert.deepEqual(modelSetting("claude-sonnet-5-5", { models }), {
      currentId: "sonnet",
      offered: [
        { id: "default", name: "Default (recommended)", description: "Use the default model" },
        { id: "opus", name: "Opus", description: null },
        { id: "sonnet", name: "Sonnet", description: "Sonnet 5.5" },
      ],
      configId: null,
    });
  });

  it("marks the first alias of the model the init line names, or the alias it names", () => {
    assert.equal(modelSetting("claude-opus-5-5", { models }).currentId, "default");
    assert.equal(modelSetting("opus", { models }).currentId, "opus");
  });

  it("marks the session's chosen alias over the first one of the same model", () => {
    assert.equal(modelSetting("claude-opus-5-5", { models, chosen: "opus" }).currentId, "opus");
  });

  it("keeps a model Claude does not list as it is named, chosen or not", () => {
    assert.equal(modelSetting("claude-sonnet-4-5", { models, chosen: "claude-sonnet-4-5" }).currentId, "claude-sonnet-4-5");
    assert.equal(modelSetting("claude-sonnet-4-5", { models: [] }).currentId, "claude-sonnet-4-5");
  });
});

describe("the rules a session's \u201calways\u201d answers gave Claude Code, at its next runs", () => {
  it("gives each rule to --allowedTools as it is, one flag each, and nothing when there is none", () => {
    assert.deepEqual(keptRuleArgs(CLAUDE_SETTING_FLAGS, ["Bash(touch always.txt)", "Bash(npm test)"]), ["--allowedTools", "Bash(touch always.txt)", "--allowedTools", "Bash(npm test)"]);
    assert.deepEqual(keptRuleArgs(CLAUDE_SETTING_FLAGS, []), []);
  });

  it("gives none to a CLI that has no such flag", () => {
    assert.deepEqual(keptRuleArgs({ ...CLAUDE_SETTING_FLAGS, allowedToolsFlag: undefined }, ["Bash(touch always.txt)"]), []);
  });
});

describe("a mode remembered for Claude Code, read back from disk, at its next session's run", () => {
  it("applies a remembered mode that is one of Claude's and asks", () => {
    const { chosen, dropped } = rememberedModeChecked(CLAUDE_SETTING_FLAGS, { mode: "plan", model: "sonnet", remembered: true });
    assert.equal(dropped, undefined);
    assert.deepEqual(settingArgs(CLAUDE_SETTING_FLAGS, [], chosen), ["--permission-mode", "plan", "--model", "sonnet"]);
  });

  it("never applies a remembered mode that approves by itself: the run starts in the mode that asks, and says why", () => {
    for (const mode of ["bypassPermissions", "acceptEdits", "auto"]) {
      const { chosen, dropped } = rememberedModeChecked(CLAUDE_SETTING_FLAGS, { mode, model: "sonnet", remembered: true });
      assert.deepEqual(settingArgs(CLAUDE_SETTING_FLAGS, [], chosen), ["--permission-mode", "default", "--model", "sonnet"], mode);
      assert.equal(dropped, `the remembered mode is dropped for this run, which starts in "default": "${mode}" approves its own actions`);
    }
  });

  it("drops a remembered mode Claude does not have, listing its modes", () => {
    const { chosen, dropped } = rememberedModeChecked(CLAUDE_SETTING_FLAGS, { mode: "--dangerously-skip-permissions", remembered: true });
    assert.deepEqual(settingArgs(CLAUDE_SETTING_FLAGS, [], chosen), ["--permission-mode", "default"]);
    assert.match(dropped ?? "", /^the remembered mode is dropped for this run, which starts in "default": unknown mode "--dangerously-skip-permissions"; the modes are default, /);
  });

  it("leaves a mode the user chose for this session as they chose it", () => {
    const chosen = { mode: "bypassPermissions" };
    assert.deepEqual(rememberedModeChecked(CLAUDE_SETTING_FLAGS, chosen), { chosen });
  });
});
