// After a window reload, a follow-up continues the agent's session only in the same conversation, with the same agent,
// and only from a record that fits its schema: the workspace's state is not trusted.
import * as assert from "node:assert/strict";
import { savedAcpSession, sessionToContinue, type AcpSessionRequest } from "../../../src/acp/saved-session";

const CONVERSATION = "0b9f2c4e-8a1d-4c3b-9e7f-5a6d2c1b0e9f";
const followUp: AcpSessionRequest = { conversation: { id: CONVERSATION, continues: true }, command: "/usr/bin/gemini", args: ["--acp"] };
const saved = savedAcpSession(followUp, "ses_01J9");

describe("the ACP session a reloaded window continues", () => {
  it("continues the saved session for a follow-up in the same conversation to the same agent", () => {
    assert.equal(sessionToContinue(saved, followUp), "ses_01J9");
    // Through the workspace state as JSON, as VS Code keeps it.
    assert.equal(sessionToContinue(JSON.parse(JSON.stringify(saved)), followUp), "ses_01J9");
  });

  it("starts a new session for the first prompt of a conversation", () => {
    assert.equal(sessionToContinue(saved, { ...followUp, conversation: { id: CONVERSATION, continues: false } }), undefined);
  });

  it("starts a new session in another conversation (after New Session)", () => {
    assert.equal(sessionToContinue(saved, { ...followUp, conversation: { id: "1c0a3d5f-9b2e-4d4c-8f80-6b7e3d2c1f0a", continues: true } }), undefined);
  });

  it("never hands one agent's session to another agent, or to the same one started with other arguments", () => {
    assert.equal(sessionToContinue(saved, { ...followUp, command: "/usr/bin/qwen" }), undefined);
    assert.equal(sessionToContinue(saved, { ...followUp, args: ["--acp", "-m", "other"] }), undefined);
    // Arguments are compared as a list: ["a b"] is not ["a", "b"].
    const spaced = savedAcpSession({ ...followUp, args: ["--acp x"] }, "s");
    assert.equal(sessionToContinue(spaced, { ...followUp, args: ["--acp", "x"] }), undefined);
  });

  it("ignores a stored record that does not fit the schema", () => {
    for (const bad of [undefined, null, "ses_01J9", { ...saved, sessionId: "" }, { ...saved, sessionId: "x".repeat(2000) }, { ...saved, conversation: "../../etc" }, { ...saved, agent: "gemini" }]) {
      assert.equal(sessionToContinue(bad, followUp), undefined, JSON.stringify(bad)?.slice(0, 80));
    }
  });
});
