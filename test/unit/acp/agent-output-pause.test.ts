// Backpressure on an ACP agent (`ask` into a slow pipe): while our reader is behind, the agent's stdout is not read,
// and that wait is not the agent's silence.
import * as assert from "node:assert/strict";
import { disposeFakeAgents, prompt, startFakeAgent } from "../../helpers/acp-harness";

describe("ACP agent connection held back by a slow reader", () => {
  afterEach(disposeFakeAgents);

  it("reads nothing of the agent while paused, does not time the pause as silence, and reads it all once resumed", async () => {
    const TIMEOUT_MS = 1000;
    const agent = startFakeAgent("flood-text", { inactivityTimeoutMs: TIMEOUT_MS, env: { FAKE_ACP_FLOOD_BYTES: String(4 * 1024 * 1024) } });
    agent.connection.pause();
    const turn = agent.connection.prompt(prompt("go"));
    // Held back for two timeouts: a pause that counted as silence would have failed the turn by now.
    await new Promise((resolve) => setTimeout(resolve, 2 * TIMEOUT_MS));
    assert.equal(agent.text(), "", "nothing read while paused");
    agent.connection.resume();
    assert.equal((await turn).status, "completed");
    assert.ok(agent.text().length >= 4 * 1024 * 1024, `read ${agent.text().length} characters`);
  });
});
