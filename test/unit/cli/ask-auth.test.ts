// `agent-stream ask` logs in to an ACP agent that asks for it with the first of its profile's methods the agent offers.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { agentStream } from "../../helpers/agent-stream-cli";
import { fakeCli } from "../../helpers/repo";

describe("agent-stream ask logging in to an ACP agent", function () {
  this.timeout(30_000);

  it("logs in to codex-acp 2.6, whose methods are api-key and chat-gpt, with its API key under the codex profile", async () => {
    const record = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ask-auth-")), "record.ndjson");
    // The fake agent refuses session/new until it is authenticated, and offers one method: `api-key`, as codex-acp 2.6 names it.
    const args = ["ask", "--json", "--profile", "codex", "--cli", process.execPath, `--arg=${fakeCli("fake-acp-agent.mjs")}`, "--arg=auth-required", "--", "hi"];
    const run = await agentStream(args, { env: { ...process.env, FAKE_ACP_RECORD: record } });
    assert.equal(run.code, 0, run.stdout);
    const facts = fs.readFileSync(record, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(facts.filter((fact) => "authenticate" in fact), [{ authenticate: "api-key" }]);
  });
});
