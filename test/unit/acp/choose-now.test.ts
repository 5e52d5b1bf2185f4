// A mode, model or option picked in the chat header reaches a warm ACP session at once, between turns and during
// one (issue 25): real fake agent processes (test/fake-clis/fake-acp-modes-agent.mjs) opening their sessions as real
// agents did, recording each switch they are sent.
import * as assert from "node:assert/strict";
import { acpTransportOf } from "../../../src/profiles/cli-profile";
import { resolveProfile } from "../../../src/profiles/profile-registry";
import type { PermissionChoice } from "../../../src/permissions/permission-desk";
import { disposeFakeAgents, prompt, startFakeAgent, type AcpHarness } from "../../helpers/acp-harness";
import { openingSettings, type RecordedOpening } from "../../helpers/acp-openings";
import { eventually } from "../../helpers/eventually";
import { fakeCli } from "../../helpers/repo";

function startModesAgent(agent: RecordedOpening, env: NodeJS.ProcessEnv = {}, decide?: () => Promise<PermissionChoice>): AcpHarness {
  return startFakeAgent("modes", {
    args: [fakeCli("fake-acp-modes-agent.mjs")],
    env: { ...process.env, FAKE_ACP_OPENING: JSON.stringify(openingSettings(agent)), ...env },
    modeRule: acpTransportOf(resolveProfile("claude-acp", null))?.modes,
    decide: decide ?? (async () => ({ optionId: "reject" })),
  });
}

const switches = (harness: AcpHarness) => harness.records().filter((record) => "set" in record);
const promptedModes = (harness: AcpHarness) => harness.records().flatMap((record) => ("prompt" in record ? [record.mode] : []));

describe("a choice from the chat header set in a warm ACP session at once", () => {
  afterEach(disposeFakeAgents);

  it("switches the mode between turns as soon as it is picked, and the next prompt runs in it", async () => {
    const harness = startModesAgent("claude-acp/0.101.0");
    await harness.connection.prompt(prompt("write it"));
    const before = switches(harness).length;
    assert.deepEqual(await harness.connection.chooseNow({ mode: "plan" }), { kind: "applied" });
    assert.deepEqual(switches(harness).slice(before), [{ set: "mode", value: "plan", method: "session/set_config_option" }]);
    const told = harness.eventsOf("session_settings").at(-1);
    assert.equal(told?.settings.mode?.current, "plan");
    await harness.connection.prompt(prompt("write it again"));
    assert.deepEqual(promptedModes(harness), ["default", "plan"]);
    assert.equal(switches(harness).length, before + 1, "nothing is sent again before the prompt");
  });

  it("switches the mode during a turn, while the agent waits for an answer", async () => {
    let answer: (choice: PermissionChoice) => void = () => {};
    const harness = startModesAgent("claude-acp/0.101.0", {}, () => new Promise((resolve) => (answer = resolve)));
    const turn = harness.connection.prompt(prompt("write it"));
    await eventually("the permission request", () => harness.asked.length === 1);
    assert.deepEqual(await harness.connection.chooseNow({ mode: "plan" }), { kind: "applied" });
    assert.deepEqual(switches(harness).at(-1), { set: "mode", value: "plan", method: "session/set_config_option" });
    answer({ optionId: "reject" });
    assert.equal((await turn).status, "completed");
  });

  it("sets one of the agent's other config options", async () => {
    const harness = startModesAgent("claude-acp/0.101.0");
    await harness.connection.prompt(prompt("write it"));
    assert.deepEqual(await harness.connection.chooseNow({ config: { effort: "high" } }), { kind: "applied" });
    assert.deepEqual(switches(harness).at(-1), { set: "effort", value: "high", method: "session/set_config_option" });
  });

  it("refuses a mode the agent does not offer, and once the choice is taken back the next prompt runs", async () => {
    const harness = startModesAgent("claude-acp/0.101.0");
    await harness.connection.prompt(prompt("write it"));
    const outcome = await harness.connection.chooseNow({ mode: "unknown-mode" });
    assert.equal(outcome.kind, "refused");
    assert.match(outcome.kind === "refused" ? outcome.reason : "", /has no mode unknown-mode/);
    assert.deepEqual(await harness.connection.chooseNow({}), { kind: "applied" });
    assert.equal((await harness.connection.prompt(prompt("again"))).status, "completed");
  });

  it("refuses with the agent's own words a switch the agent answers with an error", async () => {
    const harness = startModesAgent("claude-acp/0.23.1", { FAKE_ACP_SWITCH: "refused" });
    await harness.connection.prompt(prompt("write it"));
    const outcome = await harness.connection.chooseNow({ mode: "plan" });
    assert.equal(outcome.kind, "refused");
    assert.match(outcome.kind === "refused" ? outcome.reason : "", /did not switch to mode plan \(it answered Invalid params: unknown mode plan/);
  });

  it("keeps the choice for the session's opening while the agent has none open", async () => {
    const harness = startModesAgent("claude-acp/0.101.0");
    assert.deepEqual(await harness.connection.chooseNow({ mode: "plan" }), { kind: "next-turn" });
    await harness.connection.prompt(prompt("write it"));
    assert.deepEqual(promptedModes(harness), ["plan"]);
  });
});
