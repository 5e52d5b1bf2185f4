// Claude Code's answer to `initialize` read into slash commands with descriptions: checked and bounded, since the
// composer shows them (src/dialects/claude-settings-request.ts).
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

  it("reads an answer to another request as before", () => {
    assert.deepEqual(claudeSettingsChannel.read(answer({ model: "opus" })), { kind: "answer", requestId: "r1", error: null });
  });
});
