// Many sessions in a real VS Code extension host: New Session keeps the session before (running, if it runs), two
// sessions run side by side with a process each, Stop and delete act on one session only, and a session keeps its
// agent when the settings change. Against fake CLIs written in Node; the extension's test API shows the registry.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { AgentStreamTestApi } from "../../src/extension";
import type { ChatSession } from "../../src/panel/chat-session";
import { eventually } from "../helpers/eventually";
import { config, fakeCli, testApi } from "./extension-host";

/** The pid of a session's running CLI (a LiveSession's). */
function pidOf(session: ChatSession): number {
  const pid = (session.conversation.activeRun as unknown as { pid?: number } | undefined)?.pid;
  assert.ok(pid, "the session runs a CLI");
  return pid;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("sessions", function () {
  let api: AgentStreamTestApi;

  before(async function () {
    api = await testApi();
  });

  beforeEach(async function () {
    await config().update("cli.path", fakeCli("fake-locus.js"), vscode.ConfigurationTarget.Global);
    await config().update("cli.env", { FAKE_SCENARIO: "slow" }, vscode.ConfigurationTarget.Global);
  });

  afterEach(async function () {
    for (const row of api.sessions.list()) await api.sessions.delete(row.id);
    for (const key of ["cli.path", "cli.env"]) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
  });

  it("keeps the session before a New Session running, in the list, while the new one is active and empty", async function () {
    const first = api.sessions.active;
    first.conversation.send("tick forever");
    await eventually("the first session to stream", () => first.conversation.lastTurn?.blocks.some((b) => b.kind === "text"));
    await vscode.commands.executeCommand("agentStream.newSession");
    assert.notEqual(api.sessions.active, first);
    assert.equal(api.conversation.lastTurn, undefined);
    assert.equal(first.conversation.running, true, "New Session stops nothing");
    assert.ok(alive(pidOf(first)));
    assert.deepEqual(
      api.sessions.list().filter((row) => row.id === first.id).map((row) => row.status),
      ["running"],
    );
  });

  it("runs two sessions side by side, each its own process, and Stop ends only the active one's", async function () {
    const first = api.sessions.active;
    first.conversation.send("first job");
    await vscode.commands.executeCommand("agentStream.newSession");
    const second = api.sessions.active;
    second.conversation.send("second job");
    await eventually("both sessions to stream", () => [first, second].every((s) => s.conversation.lastTurn?.blocks.some((b) => b.kind === "text")));
    const [firstPid, secondPid] = [pidOf(first), pidOf(second)];
    assert.notEqual(firstPid, secondPid);
    await vscode.commands.executeCommand("agentStream.stop");
    await eventually("the active session's run to end", () => !second.conversation.running);
    assert.equal(second.conversation.lastTurn?.status, "canceled");
    assert.equal(first.conversation.running, true, "the other session's run goes on");
    assert.ok(alive(firstPid));
    await eventually("the stopped CLI to be gone", () => !alive(secondPid));
  });

  it("stops a session's agent when the session is deleted, and shows the next session in its place", async function () {
    const kept = api.sessions.active;
    kept.conversation.send("keep me");
    await vscode.commands.executeCommand("agentStream.newSession");
    const doomed = api.sessions.active;
    doomed.conversation.send("delete me");
    await eventually("the doomed session to stream", () => doomed.conversation.lastTurn?.blocks.some((b) => b.kind === "text"));
    const pid = pidOf(doomed);
    await api.sessions.delete(doomed.id);
    await eventually("the deleted session's CLI to be gone", () => !alive(pid));
    assert.equal(api.sessions.active, kept);
    assert.ok(!api.sessions.list().some((row) => row.id === doomed.id));
    assert.equal(kept.conversation.running, true);
  });

  it("keeps a session's agent when the settings change: the next prompt goes to the agent it started with", async function () {
    const session = api.sessions.active;
    await config().update("cli.env", { FAKE_SCENARIO: "answer" }, vscode.ConfigurationTarget.Global);
    session.conversation.send("first");
    await eventually("the first answer", () => session.conversation.lastTurn?.done !== null && !session.conversation.running);
    await config().update("useBuiltinAgent", true, vscode.ConfigurationTarget.Global);
    try {
      session.conversation.send("second");
      await eventually("the second answer", () => session.conversation.turnCount === 2 && session.conversation.lastTurn?.done !== null && !session.conversation.running);
      assert.equal(session.conversation.lastTurn?.agent, "fake-locus.js");
      assert.deepEqual(session.header(), { title: "first", agent: "fake-locus.js", otherAgent: "Built-in agent" });
      await vscode.commands.executeCommand("agentStream.newSession");
      assert.equal(api.sessions.active.header().agent, "Built-in agent");
    } finally {
      await config().update("useBuiltinAgent", undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
