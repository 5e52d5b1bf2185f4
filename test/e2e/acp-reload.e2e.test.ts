// An ACP conversation survives a window reload in a real VS Code: the chat still shows its turns, the old agent
// process is gone with the old extension host, and the next follow-up asks a new agent process to load the session
// the conversation had, instead of starting a blank one. After New Session, a prompt starts a new session. The agent is
// the project's fake ACP agent (scenario `load`: it offers `loadSession` and records what it was asked).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { eventually } from "../helpers/eventually";
import { fakeCli } from "../helpers/repo";
import { isRunning } from "./processes";
import { ask, newSession, openChat, runCommand, turnOf, useWorkbench } from "./workbench";

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

  it("continues the agent's session in the follow-up after a reload, and starts a new one after New Session", async () => {
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
    chat = await ask(page, "Second question");
    const answer = turnOf(chat, "Second question").getByText(`continued ${sessionId}`, { exact: true });
    await answer.waitFor({ timeout: 60_000 });
    assert.deepEqual(sessionFacts(), [{ newSession: sessionId, cwd: workbench.workspace }, { loadSession: sessionId }]);
    // The agent's replay of the loaded history is not shown again: the chat has it already.
    assert.equal(await chat.getByText("old answer").count(), 0);

    await newSession(page);
    chat = await ask(page, "Third question");
    await turnOf(chat, "Third question").getByText(/continued session-\d+-1/).waitFor({ timeout: 60_000 });
    const facts = sessionFacts();
    assert.equal(facts.length, 3);
    assert.ok(facts[2]?.newSession !== undefined && facts[2].newSession !== sessionId, `a new session after New Session: ${JSON.stringify(facts[2])}`);
  });
});
