// The real, published Claude Code and pi, run by the extension in a real VS Code against our scripted mock model
// server on 127.0.0.1, each through its profile (the prompt on stdin, Stop asked in band, follow-ups continued): a
// Read tool call and its answer as the chat shows them, a follow-up that continues the conversation (also after a
// window reload mid-answer), and a Stop mid-answer that leaves no process behind. The CLIs come from the recording
// cache (scripts/recording/); how they are set up and what the mock answers: real-clis.ts.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import type { MockReply } from "../../scripts/recording/mock-model-server";
import { NOTES_FILE, NOTES_TEXT, SHORT_ANSWER_CHUNKS, SLOW_PROMPT, slowAnswerChunks } from "../../scripts/recording/scenario-texts";
import { eventually } from "../helpers/eventually";
import { isRunning, runningWithEnvironment } from "./processes";
import { useRealAgentInPanel } from "./real-agent-in-panel";
import { CLAUDE, FIRST_PROMPT, FOLLOW_UP_ANSWER, FOLLOW_UP_PROMPT, PI, READ_ANSWER, READ_PROMPT, type RealCli } from "./real-clis";
import {
  ask,
  closeNotificationCenter,
  newSession,
  openChat,
  openNotificationCenter,
  RESULTS,
  runCommand,
  statusItem,
  turnOf,
} from "./workbench";

/** The first line of the file: in the next model request only if the CLI really read the file. */
const NOTES_FIRST_LINE = NOTES_TEXT.split("\n")[0];
const LAST_SLOW_WORD = slowAnswerChunks().at(-1)?.trim() ?? "";

/** Keeps each request's body, to check what the CLI sent the model. */
function keepingBodies(replies: readonly MockReply[], bodies: unknown[]): MockReply[] {
  return replies.map((reply) => (request, response) => {
    bodies.push(request.body);
    return reply(request, response);
  });
}

function describeRealCli(cli: RealCli): void {
  describe(`real ${cli.title} ${cli.version} in a real VS Code`, function () {
    this.timeout(240_000);
    const real = useRealAgentInPanel({
      name: cli.agent.name,
      install: () => ensureInstalled(cli.agent, cli.version),
      // Only the tool call needs the workspace's path, and it is scripted per test.
      prepareHome: (places) => cli.agent.prepareHome(places, { name: "e2e", description: "", args: () => [], replies: () => [] }),
      env: (places) => cli.agent.env(places),
      settings: { "agentStream.cli.args": cli.args },
    });
    const { workbench, markerEntry } = real;

    it("shows the answer, a succeeded Read card with its file, and Completed", async () => {
      const page = workbench.page;
      await newSession(page);
      fs.writeFileSync(path.join(workbench.workspace, NOTES_FILE), NOTES_TEXT);
      const bodies: unknown[] = [];
      real.mock.script(keepingBodies(cli.readThenAnswer(workbench.workspace), bodies), cli.shortAnswer());
      // Watched from before the prompt goes: "completed" shows for 5 s only.
      const completedInStatusBar = statusItem(page, /Agent Stream: completed in \d/).waitFor({ timeout: 120_000 });
      completedInStatusBar.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled

      const chat = await ask(page, READ_PROMPT);
      const turn = turnOf(chat, READ_PROMPT);
      await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
      await completedInStatusBar;
      await page.screenshot({ path: path.join(RESULTS, `e2e-real-${cli.agent.name}.png`) });

      const answer = await turn.locator(".answer").innerText();
      assert.ok(answer.includes(READ_ANSWER), `the answer is shown:\n${answer}`);
      assert.equal(answer.split(READ_ANSWER).length - 1, 1, `the answer is shown once:\n${answer}`);
      const card = turn.locator(".tool-card", { has: chat.locator(".tool-name", { hasText: new RegExp(`^${cli.readTool}$`) }) });
      assert.equal(await card.count(), 1, "one card for the read tool");
      assert.equal(await card.getAttribute("aria-label"), `${cli.readTool}: succeeded`);
      assert.match(await card.locator(".tool-summary").innerText(), new RegExp(`(^|/)${NOTES_FILE.replace(".", "\\.")}$`), "the card names the file");
      assert.match(await turn.locator(".turn-footer").innerText(), new RegExp(`1 tool \\(${cli.readTool}\\)`));
      assert.equal(await turn.locator(".error-card").count(), 0, "no error card");
      assert.equal(await turn.locator(".problems-notice").isVisible(), false, "every line of the CLI was understood");

      assert.equal(bodies.length, 2, `two model requests: ${JSON.stringify(real.mock.requestLog)}`);
      assert.ok(JSON.stringify(bodies[1]).includes(NOTES_FIRST_LINE), "the second request carries the file the CLI read");
      await eventually("no process of the finished run is left", () => runningWithEnvironment(markerEntry).length === 0, 15_000);
    });

    it("continues the conversation with a follow-up: the CLI sends the model the earlier exchange", async () => {
      const page = workbench.page;
      await newSession(page);
      const bodies: unknown[] = [];
      real.mock.script(keepingBodies([cli.shortAnswer(), cli.followUpAnswer()], bodies), cli.shortAnswer());
      const firstTurn = turnOf(await ask(page, FIRST_PROMPT), FIRST_PROMPT);
      await firstTurn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
      const chat = await ask(page, FOLLOW_UP_PROMPT);
      const secondTurn = turnOf(chat, FOLLOW_UP_PROMPT);
      await secondTurn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
      assert.ok((await secondTurn.locator(".answer").innerText()).includes(FOLLOW_UP_ANSWER));
      assert.equal(bodies.length, 2, `two model requests: ${JSON.stringify(real.mock.requestLog)}`);
      const followUpRequest = JSON.stringify(bodies[1]);
      assert.ok(followUpRequest.includes(FIRST_PROMPT), "the follow-up request carries the first prompt");
      assert.ok(followUpRequest.includes(SHORT_ANSWER_CHUNKS.join("")), "and the first answer");
      assert.equal(await secondTurn.locator(".error-card").count(), 0, "no error card");
    });

    it(`continues, after a window reload in the middle of an answer, the conversation that answer began${cli.keepsAnInterruptedPrompt ? "" : ` (${cli.title} kept nothing of it)`}`, async () => {
      const page = workbench.page;
      await newSession(page);
      const bodies: unknown[] = [];
      real.mock.script(keepingBodies([cli.slowAnswer(), cli.followUpAnswer()], bodies), cli.shortAnswer());
      let chat = await ask(page, SLOW_PROMPT);
      // A tenth of a second a word: twenty words on screen are two seconds of answer, past the interval at which a
      // running turn is saved, so the save of it (and of its CLI conversation) has been made before the reload.
      await turnOf(chat, SLOW_PROMPT).getByText("word20", { exact: false }).waitFor({ timeout: 120_000 });
      const pids = runningWithEnvironment(markerEntry);

      await runCommand(page, "Developer: Reload Window");
      await page.waitForEvent("load", { timeout: 60_000 });
      await page.waitForSelector(".monaco-workbench", { timeout: 60_000 });
      await eventually(`no process of ${pids.join(", ")} runs`, () => !pids.some(isRunning) && runningWithEnvironment(markerEntry).length === 0, 30_000);
      chat = await openChat(page);
      await turnOf(chat, SLOW_PROMPT).locator(".turn-footer", { hasText: "Stopped" }).waitFor({ timeout: 30_000 });

      chat = await ask(page, FOLLOW_UP_PROMPT);
      const followUp = turnOf(chat, FOLLOW_UP_PROMPT);
      await followUp.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
      assert.equal(await followUp.locator(".error-card").count(), 0, `no error card:\n${await followUp.innerText()}`);
      assert.ok((await followUp.locator(".answer").innerText()).includes(FOLLOW_UP_ANSWER));
      assert.equal(bodies.length, 2, `two model requests: ${JSON.stringify(real.mock.requestLog)}`);
      assert.equal(JSON.stringify(bodies[1]).includes(SLOW_PROMPT), cli.keepsAnInterruptedPrompt, "the follow-up's request carries the interrupted prompt");
      await page.screenshot({ path: path.join(RESULTS, `e2e-real-${cli.agent.name}-reloaded-mid-answer.png`) });
    });

    it("stops mid-answer: Stopped, no error, and no process of the CLI left", async () => {
      const page = workbench.page;
      await newSession(page);
      assert.deepEqual(runningWithEnvironment(markerEntry), [], "no CLI runs before the prompt");
      real.mock.script([cli.slowAnswer()], cli.shortAnswer());

      const chat = await ask(page, SLOW_PROMPT);
      const turn = turnOf(chat, SLOW_PROMPT);
      await turn.getByText("word5", { exact: false }).waitFor({ timeout: 120_000 });
      await statusItem(page, "Agent Stream: streaming").waitFor();
      const pids = runningWithEnvironment(markerEntry);
      assert.ok(pids.length > 0, "the CLI's processes are found while it streams");

      const stopAt = Date.now();
      await chat.getByRole("button", { name: "Stop" }).click();
      await turn.locator(".turn-footer", { hasText: "Stopped" }).waitFor({ timeout: 30_000 });
      await statusItem(page, "Agent Stream: stopped").waitFor({ timeout: 30_000 });
      // SIGINT, then SIGTERM after 3 s, SIGKILL 2 s later: all of it fits well within this.
      await eventually(`no process of ${pids.join(", ")} runs`, () => !pids.some(isRunning) && runningWithEnvironment(markerEntry).length === 0, 15_000);
      const stoppedInMs = Date.now() - stopAt;
      await page.screenshot({ path: path.join(RESULTS, `e2e-real-${cli.agent.name}-stopped.png`) });

      const answer = await turn.locator(".answer").innerText();
      assert.ok(!answer.includes(LAST_SLOW_WORD), "stopped before the end of the answer");
      assert.equal(await turn.locator(".error-card").count(), 0, "no error card");
      assert.equal(await turn.locator(".problems-notice").isVisible(), false, "the interrupted stream was understood to its end");
      await real.mock.idle(5_000);
      assert.match(real.mock.requestLog[0]?.served ?? "", /client went away/, "the CLI hung up on the model");
      const center = await openNotificationCenter(page);
      assert.deepEqual(await center.locator(".notification-list-item", { hasText: "Source: Agent Stream" }).allInnerTexts(), [], "no notification from Agent Stream");
      await closeNotificationCenter(page);
      console.log(`      ${cli.title}: ${pids.length} process(es) stopped in ${stoppedInMs} ms, ${real.mock.requestLog.length} model request(s)`);
    });
  });
}

describeRealCli(CLAUDE);
describeRealCli(PI);
