// Claude Code's answer to `initialize` read into slash commands with descriptions and the models it offers: checked and
// bounded, since the composer and the header show them (src/dialects/claude-settings-request.ts).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { claudeSettingsChannel } from "../../../src/dialects/claude-settings-request";
import { repoRoot } from "../../helpers/repo";

const answer = (response: unknown) => ({ type: "control_response", response: { subtype: "success", request_id: "r1", response } });

describe("Claude's initialize answer", () => {
  it("reads the commands Claude Code 2.1.330 answered, with their descriptions", () => {
    const recording = path.join(repoRoot, "test", "fixtures", "claude-recorded", "2.1.330", "initialize.ndjson");
    const line = fs.readFileSync(recording, "utf8").split("\n").find((text) => text.includes('"control_response"'));
    const read = claudeSettingsChannel.read(JSON.parse(line ?? "{}"));
    assert.equal(read?.kind, "commands");
    const commands = read?.kind === "commands" ? read.commands : [];
    assert.equal(commands.length, 44);
    assert.deepEqual(commands.find((command) => command.name === "model"), { name: "model", description: "Set the AI model for Claude Code" });
  });

  it("keeps at most 512 commands, cuts a long description and leaves out a command of another shape", () => {
    const many = Array.from({ length: 10_000 }, (_, index) => ({ name: `c${index}`, description: "x".repeat(100_000) }));
    const read = claudeSettingsChannel.read(answer({ commands: [{ name: 42 }, { name: "" }, { name: "y".repeat(201) }, ...many] }));
    const commands = read?.kind === "commands" ? read.commands : [];
    assert.equal(commands.length, 512);
    assert.equal(commands[0]?.name, "c0");
    assert.equal(commands[0]?.description.length, 1001);
  });

  it("reads the models Claude Code 2.1.330 answered, by the alias it takes and the model each resolves to", () => {
    const recording = path.join(repoRoot, "test", "fixtures", "claude-recorded", "2.1.330", "initialize.ndjson");
    const line = fs.readFileSync(recording, "utf8").split("\n").find((text) => text.includes('"control_response"'));
    const read = claudeSettingsChannel.read(JSON.parse(line ?? "{}"));
    const models = read?.kind === "commands" ? read.models : [];
    assert.deepEqual(
      models.map((model) => [model.value, model.resolvedModel, model.name]),
      [
        ["default", "claude-opus-5-5", "Default (recommended)"],
        ["opus", "claude-opus-5-5", "Opus"],
        ["fable", "claude-fable-5-2", "Fable"],
        ["sonnet", "claude-sonnet-5-5", "Sonnet"],
        ["haiku", "claude-haiku-5-5", "Haiku"],
      ],
    );
    assert.equal(models[4]?.description, "Haiku 5.5 · Fastest for quick answers · $0.10/$0.50 per Mtok ($0.50/$2.50 for prompts over 100k)");
  });

  it("keeps at most 64 models, once each, cuts a long description and leaves out a model of another shape", () => {
    const many = Array.from({ length: 10_000 }, (_, index) => ({ value: `m${index}`, description: "x".repeat(100_000) }));
    const odd = [{ value: 42 }, { value: "" }, { value: "y".repeat(201) }, { value: "z", displayName: "n".repeat(201) }, { value: "m0", displayName: "again" }];
    const read = claudeSettingsChannel.read(answer({ commands: [], models: [...odd.slice(0, 4), many[0], odd[4], ...many] }));
    const models = read?.kind === "commands" ? read.models : [];
    assert.equal(models.length, 64);
    assert.deepEqual(models[0], { value: "m0", resolvedModel: null, name: "m0", description: `${"x".repeat(1000)}…` });
    assert.equal(models[1]?.value, "m1");
  });

  it("reads the commands of an answer that lists no models, as an older Claude's", () => {
    const read = claudeSettingsChannel.read(answer({ commands: [{ name: "compact", description: "Compact" }] }));
    assert.deepEqual(read, { kind: "commands", requestId: "r1", commands: [{ name: "compact", description: "Compact" }], models: [] });
  });

  it("reads an answer to another request as before", () => {
    assert.deepEqual(claudeSettingsChannel.read(answer({ model: "opus" })), { kind: "answer", requestId: "r1", error: null });
  });
});
