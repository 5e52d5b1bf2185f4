// An ACP conversation survives a window reload in a real VS Code: the chat still shows its turns, the old agent
// process is gone with the old extension host, and the next follow-up asks a new agent process to load the session
// the conversation had, instead of starting a blank one. New Session keeps that session in the list with its agent, and
// a prompt starts a new session in an agent of its own; deleting the first session ends its agent only. The agent is
// the project's fake ACP agent (scenario `load`: it offers `loadSession` and records what it was asked).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { eventually } from "../helpers/eventually";
import { fakeCli } from "../helpers/repo";
import { isRunning, runningWithEnvironment } from "./processes";
import { ask, chatFrame, deleteSession, newSession, openChat, runCommand, sessionRows, turnOf, useWorkbench } from "./workbench";

interface Fact {
  newSession?: string;
  loadSession?: string;
  cwd?: string;
}

describe("an ACP conversation across a window reload", function () {
  this.timeout(240_000);
  const record = path.join(os.tmpdir(), `agent-stream-e2e-acp-reload-${process.pid}.ndjson`);
  const workbench = useWorkbench({
    // The extension host's Node runs the fake agent, which the suite runs from this repository.
    "agentStream.cli.profile": "acp",
    "agentStream.cli.path": process.execPath,
    "agentStream.cli.args": [fakeCli("fake-acp-agent.mjs"), "load"],
    "agentStream.cli.env": { FAKE_ACP_RECORD: record },
  });
  after(() => fs.rmSync(record, { force: true }));

  /** What the agent processes were asked, in order: each `session/new` and `session/load`. */
  function sessionFacts(): Fact[] {
    if (!fs.existsSync(record)) return [];
    return fs
      .readFileSync(record, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Fact)
      .filter((fact) => fact.newSession !== undefined || fact.loadSession !== undefined);
  }

  it("continues the agent's session in the follow-up after a reload; New Session keeps it and starts a new one; Delete ends its agent", async () => {
    const page = workbench.page;
    await newSession(page);
    fs.rmSync(record, { force: true });

    let chat = await ask(page, "First question");
    await turnOf(chat, "First question").getByText(/continued session-\d+-1/).waitFor({ timeout: 60_000 });
    // The turn is kept once it has ended: the reload comes after that, as a user's would.
    await turnOf(chat, "First question").getByText("Completed").waitFor({ timeout: 30_000 });
    const [created] = sessionFacts();
    const sessionId = created?.newSession ?? assert.fail("the first prompt opened a new session");
    const firstAgent = Number(/^session-(\d+)-/.exec(sessionId)?.[1]);

    await runCommand(page, "Developer: Reload Window");
    await page.waitForEvent("load", { timeout: 60_000 });
    await page.waitForSelector(".monaco-workbench", { timeout: 60_000 });
    // The old extension host ended, and the warm agent with it.
    await eventually(`the first agent (pid ${firstAgent}) is gone`, () => !isRunning(firstAgent), 60_000);

    // The reloaded chat shows the conversation before the user asks on, as a user sees it.
    chat = await openChat(page);
    await turnOf(chat, "First question").waitFor({ timeout: 30_000 });
    // Every page the restored chat was given had its CSP (VS Code warns of one without, in a development host).
    assert.doesNotMatch(workbench.hostLog(), /agent-stream\.agent-stream created a webview without a content security policy/);
    chat = await ask(page, "Second question");
    const answer = turnOf(chat, "Second question").getByText(`continued ${sessionId}`, { exact: true });
    await answer.waitFor({ timeout: 60_000 });
    assert.deepEqual(sessionFacts(), [{ newSession: sessionId, cwd: workbench.workspace }, { loadSession: sessionId }]);
    // The agent's replay of the loaded history is not shown again: the chat has it already.
    assert.equal(await chat.getByText("old answer").count(), 0);

    // New Session keeps this session in the list with its agent warm; the new session's prompt starts a session of
    // its own, in an agent of its own.
    const firstSessionAgents = runningWithEnvironment(`FAKE_ACP_RECORD=${record}`);
    assert.equal(firstSessionAgents.length, 1, `one agent runs the first session: ${firstSessionAgents.join(", ")}`);
    await newSession(page);
    assert.equal(await turnOf(chatFrame(page), "First question").count(), 0, "the new session's chat is empty");
    await sessionRows(page, "First question", "completed").waitFor({ timeout: 30_000 });
    chat = await ask(page, "Third question");
    await turnOf(chat, "Third question").getByText(/continued session-\d+-1/).waitFor({ timeout: 60_000 });
    const facts = sessionFacts();
    assert.equal(facts.length, 3);
    assert.ok(facts[2]?.newSession !== undefined && facts[2].newSession !== sessionId, `a new session after New Session: ${JSON.stringify(facts[2])}`);
    assert.deepEqual(firstSessionAgents.filter(isRunning), firstSessionAgents, "the first session's agent still runs beside the new one's");
    const agents = runningWithEnvironment(`FAKE_ACP_RECORD=${record}`);
    assert.equal(agents.length, 2, `two agents, one a session: ${agents.join(", ")}`);

    // Delete Session asks first, then ends the deleted session's agent, and only that one.
    await deleteSession(page, "First question");
    await eventually(`the first session's agent (${firstSessionAgents.join(", ")}) is gone`, () => !firstSessionAgents.some(isRunning), 15_000);
    assert.deepEqual(runningWithEnvironment(`FAKE_ACP_RECORD=${record}`), agents.filter((pid) => !firstSessionAgents.includes(pid)), "the new session's agent still runs");
  });
});
