// `agent-stream ask --model` with a model the ACP agent does not offer: as for --mode and --config, a clear error
// that lists what the agent offers, and no prompt sent. The agent is test/fake-clis/fake-acp-modes-agent.mjs opening
// its session as codex-acp 2.6.0 did (its models through a `model` config option).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { CliStreamEvent } from "../../../src/protocol/events";
import { agentStream } from "../../helpers/agent-stream-cli";
import { openingSettings } from "../../helpers/acp-openings";
import { fakeCli } from "../../helpers/repo";

describe("agent-stream ask --model with a model the agent does not offer", function () {
  this.timeout(30_000);
  let workspace: string;
  let record: string;
  beforeEach(() => {
    workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "ask-unknown-model-")));
    record = path.join(workspace, "..", `${path.basename(workspace)}.record.ndjson`);
  });
  afterEach(() => {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(record, { force: true });
  });

  it("fails the turn with an error listing the models the agent offers, and sends no prompt", async () => {
    const args = ["ask", "--json", "--profile", "codex", "--cli", process.execPath, `--arg=${fakeCli("fake-acp-modes-agent.mjs")}`, "--cwd", workspace, "--approve", "reject", "--model", "no-such-model", "--", "Write it."];
    const env = { ...process.env, FAKE_ACP_OPENING: JSON.stringify(openingSettings("codex/2.6.0")), FAKE_ACP_RECORD: record };
    const run = await agentStream(args, { env });
    assert.equal(run.code, 1, run.stderr);
    const events = run.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line) as CliStreamEvent);
    const errors = events.flatMap((event) => (event.type === "error" ? [event.payload.error.message] : []));
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(errors[0] ?? "", /^The agent has no model no-such-model\. It offers: .*gpt-5\.5/);
    const facts = fs.readFileSync(record, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.ok(facts.some((fact) => "newSession" in fact), "the agent opened a session, and was asked nothing in it");
    assert.deepEqual(facts.filter((fact) => "prompt" in fact), []);
  });
});
