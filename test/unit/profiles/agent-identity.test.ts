// The agent a session keeps for its life, as the settings name it when the session is created.
import * as assert from "node:assert/strict";
import { agentIdentityOf } from "../../../src/profiles/agent-identity";

describe("the agent a session keeps", () => {
  const settings = { useBuiltinAgent: false, cliPath: "claude", cliProfile: "auto" as const, cliArgs: null };

  it("keeps the arguments added to the profile's own, so a later change of the setting does not move the session", () => {
    const agent = agentIdentityOf({ ...settings, cliExtraArgs: ["--model", "opus"] });
    assert.deepEqual([agent.profile, agent.args, agent.extraArgs], ["claude", null, ["--model", "opus"]]);
  });

  it("writes no added arguments when there are none, as sessions stored before them have none", () => {
    assert.equal("extraArgs" in agentIdentityOf({ ...settings, cliExtraArgs: [] }), false);
  });
});
