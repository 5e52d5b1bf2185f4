// `agent-stream ask --config ID=VALUE`: an ACP agent's config options set before the prompt (session/set_config_option),
// an unknown option or value a failed turn listing what the agent offers, a malformed flag a usage error. The agent is
// test/fake-clis/fake-acp-modes-agent.mjs opening its sessions as claude-agent-acp 0.101 did (with an `effort` option).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { CliStreamEvent } from "../../../src/protocol/events";
import { agentStream } from "../../helpers/agent-stream-cli";
import { openingSettings } from "../../helpers/acp-openings";
import { fakeCli } from "../../helpers/repo";

describe("agent-stream ask --config", function () {
  this.timeout(30_000);
  let workspace: string;
  let record: string;
  beforeEach(() => {
    workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "ask-config-")));
    record = path.join(workspace, "..", `${path.basename(workspace)}.record.ndjson`);
  });
  afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

  async function ask(flags: string[], profile = "claude-acp") {
    const args = ["ask", "--json", "--profile", profile, "--cli", process.execPath, `--arg=${fakeCli("fake-acp-modes-agent.mjs")}`, "--cwd", workspace, "--approve", "reject", ...flags, "--", "Write it."];
    const env = { ...process.env, FAKE_ACP_OPENING: JSON.stringify(openingSettings("claude-acp/0.101.0")), FAKE_ACP_RECORD: record };
    const run = await agentStream(args, { env });
    const events = run.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line) as CliStreamEvent);
    return { ...run, events, errors: events.flatMap((e) => (e.type === "error" ? [e.payload.error.message] : [])) };
  }
  const recorded = (key: string) =>
    fs.existsSync(record) ? fs.readFileSync(record, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>).filter((fact) => key in fact) : [];

  it("sets each option given before the prompt", async () => {
    const run = await ask(["--config", "effort=high", "--config", "fast=on"]);
    assert.equal(run.code, 0, run.stderr);
    const options = recorded("set").filter((fact) => fact.set !== "mode");
    assert.deepEqual(options, [
      { set: "effort", value: "high", method: "session/set_config_option" },
      { set: "fast", value: "on", method: "session/set_config_option" },
    ]);
    assert.equal(recorded("prompt").length, 1);
  });

  it("fails the turn for an option the agent does not offer, listing the ones it does, and sends no prompt", async () => {
    const run = await ask(["--config", "verbosity=high"]);
    assert.equal(run.code, 1);
    assert.deepEqual(run.errors, ["The agent has no config option verbosity. It offers: mode, model, effort, fast, ultracode."]);
    assert.deepEqual(recorded("prompt"), []);
  });

  it("fails the turn for a value the option does not offer, listing its values", async () => {
    const run = await ask(["--config", "fast=turbo"]);
    assert.equal(run.code, 1);
    assert.deepEqual(run.errors, ["The agent's config option fast has no value turbo. It offers: on, off."]);
  });

  it("refuses a --config that is not ID=VALUE, one given twice, and one for an agent that has no config options", async () => {
    for (const [flags, profile, message] of [
      [["--config", "effort"], "claude-acp", /--config needs ID=VALUE, got "effort"/],
      [["--config", "=high"], "claude-acp", /--config needs ID=VALUE/],
      [["--config", "effort=high", "--config", "effort=low"], "claude-acp", /--config sets "effort" twice/],
      [["--config", "effort=high"], "pi", /--config is for ACP agents; profile pi has no config options/],
    ] as const) {
      const run = await ask([...flags], profile);
      assert.equal(run.code, 2, `${flags.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr, message);
    }
  });
});
