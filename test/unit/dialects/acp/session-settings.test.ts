import * as assert from "node:assert/strict";
import {
  modeChoiceOf,
  modelChoiceOf,
  readConfigOptions,
  readSessionSettings,
  withConfigOptions,
  withCurrentMode,
} from "../../../../src/dialects/acp/session-settings";
import { recordedOpening } from "../../../helpers/acp-openings";

describe("an ACP session's settings, as the agent says them", () => {
  it("reads the modes, models and config options codex-acp 2.6.0 opens its sessions with", () => {
    const settings = readSessionSettings(recordedOpening("codex/2.6.0"));
    assert.deepEqual(settings.modes?.available.map((mode) => mode.id), ["read-only", "workspace-write", "agent", "agent-full-access"]);
    assert.equal(settings.modes?.currentModeId, "agent");
    assert.equal(settings.models?.currentModelId, "mock-model[medium]");
    assert.deepEqual(settings.configOptions.map((option) => [option.id, option.category, option.currentValue]), [
      ["mode", "mode", "agent"],
      ["collaboration_mode", "collaboration_mode", "default"],
      ["model", "model", "mock-model"],
    ]);
  });

  it("takes the mode from the mode config option and the model from the model config option, not from its other lists", () => {
    const settings = readSessionSettings(recordedOpening("codex/2.6.0"));
    assert.deepEqual([modeChoiceOf(settings)?.current, modeChoiceOf(settings)?.configId], ["agent", "mode"]);
    assert.deepEqual([modelChoiceOf(settings)?.current, modelChoiceOf(settings)?.configId], ["mock-model", "model"]);
  });

  it("takes the mode from the modes of an agent with no mode config option, which is set by session/set_mode", () => {
    const choice = modeChoiceOf(readSessionSettings(recordedOpening("gemini/0.61.0")));
    assert.deepEqual([choice?.current, choice?.configId], ["default", null]);
  });

  it("reads a select option's grouped values as one list", () => {
    const options = readConfigOptions([
      {
        id: "model",
        name: "Model",
        category: "model",
        type: "select",
        currentValue: "b",
        options: [
          { group: "fast", name: "Fast", options: [{ value: "a", name: "A" }] },
          { group: "smart", name: "Smart", options: [{ value: "b", name: "B", description: "the big one" }] },
        ],
      },
    ]);
    assert.deepEqual(options, [
      {
        id: "model",
        name: "Model",
        description: null,
        category: "model",
        type: "select",
        currentValue: "b",
        values: [
          { value: "a", name: "A", description: null },
          { value: "b", name: "B", description: "the big one" },
        ],
      },
    ]);
  });

  it("loses only the part an agent got wrong: unreadable modes, one broken option", () => {
    const settings = readSessionSettings({
      sessionId: "s",
      modes: { currentModeId: 7 },
      configOptions: [{ id: "broken" }, { id: "fast", name: "Fast", type: "boolean", currentValue: true }],
    });
    assert.equal(settings.modes, null);
    assert.deepEqual(settings.configOptions.map((option) => option.id), ["fast"]);
    assert.deepEqual(readSessionSettings("not an answer"), { modes: null, models: null, configOptions: [] });
  });

  it("keeps the modes and the mode config option alike after a current_mode_update or a config_option_update", () => {
    const opened = readSessionSettings(recordedOpening("claude-acp/0.101.0"));
    const moved = withCurrentMode(opened, "default");
    assert.deepEqual([moved.modes?.currentModeId, modeChoiceOf(moved)?.current], ["default", "default"]);
    const options = moved.configOptions.map((option) => (option.id === "mode" && option.type === "select" ? { ...option, currentValue: "plan" } : option));
    const updated = withConfigOptions(moved, options);
    assert.deepEqual([updated.modes?.currentModeId, modeChoiceOf(updated)?.current], ["plan", "plan"]);
  });
});
