// Real, published ACP agents (from the agent CLI cache) in the chat of a real VS Code, against our mock model server on
// 127.0.0.1, driven as a user drives them: the model asks for the agent's write tool, the agent's permission card
// shows the file and its diff with the agent's own options as buttons, and the user clicks one of them or presses
// Stop. Allow once writes the file and Open Diff shows the change in VS Code's diff editor; Reject leaves the disk as
// it was; Stop answers the waiting card cancelled. The agents, their settings and the mock's replies are the ones
// `agent-stream ask` is tested with (real-acp-agents.ts); what each does: docs/acp-agents.md.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { FrameLocator, Locator, Page } from "playwright-core";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { eventually } from "../helpers/eventually";
import { isRunning, runningWithEnvironment } from "./processes";
import { CLAUDE_ACP, DONE_CHUNKS, QWEN, WRITE_PROMPT, WRITTEN_FILE, WRITTEN_TEXT, type RealAcpAgent } from "./real-acp-agents";
import { useRealAgentInPanel } from "./real-agent-in-panel";
import { ask, deleteAllSessions, deleteSession, newSession, RESULTS, runCommand, sessionRows, statusItem, turnOf } from "./workbench";

/** What each agent offers on its write's permission card, in its own words and order, and how it ends a rejected turn. */
interface CardFacts {
  readonly options: readonly string[];
  readonly allowOnce: string;
  readonly rejectOnce: string;
  /** The footer of a turn whose write was rejected: the agent decides whether that ends the turn or not. */
  readonly afterReject: "Completed" | "Stopped" | "Failed";
}

/** Measured; a new release that changes them fails the test so the docs can follow. */
const CARD_FACTS: Record<string, CardFacts> = {
  qwen: { options: ["Allow All Edits", "Allow", "Reject"], allowOnce: "Allow", rejectOnce: "Reject", afterReject: "Completed" },
  "claude-acp": { options: ["Always Allow", "Allow", "Reject"], allowOnce: "Allow", rejectOnce: "Reject", afterReject: "Completed" },
};

const WRITTEN_LINES = WRITTEN_TEXT.trimEnd().split("\n");

for (const agent of [QWEN, CLAUDE_ACP]) describeAgentInPanel(agent);

function describeAgentInPanel(agent: RealAcpAgent): void {
  describe(`real ${agent.title} ${agent.version} over ACP in a real VS Code: the permission card`, function () {
    this.timeout(180_000);
    const facts = CARD_FACTS[agent.profile] ?? assert.fail(`no card facts for ${agent.profile}`);
    const real = useRealAgentInPanel({
      name: agent.profile,
      install: () => ensureInstalled(agent.agent, agent.version),
      prepareHome: (places) => agent.prepareHome(places),
      env: (places) => agent.agent.env(places),
      settings: {
        "agentStream.cli.profile": agent.profile,
        "agentStream.cli.args": agent.args,
        // Both sides, as on a wide screen: in this window VS Code would fall back to its inline view.
        "diffEditor.useInlineViewWhenSpaceIsLimited": false,
      },
    });
    const { workbench, markerEntry } = real;

    const written = () => path.join(workbench.workspace, WRITTEN_FILE);

    /**
     * New Session, the write (into `folder`, the workspace unless said) scripted, the prompt sent: the card the agent
     * shows before it writes, and its turn.
     */
    async function promptForWrite(page: Page, folder = workbench.workspace): Promise<{ chat: FrameLocator; turn: Locator; card: Locator }> {
      await newSession(page);
      fs.rmSync(written(), { force: true });
      real.mock.script([agent.writeFile(folder)], agent.api.answer(DONE_CHUNKS), agent.sideRequests);
      const chat = await ask(page, WRITE_PROMPT);
      const turn = turnOf(chat, WRITE_PROMPT);
      const card = turn.locator("section.permission");
      await card.and(turn.locator(".permission-waiting")).waitFor({ timeout: 120_000 });
      return { chat, turn, card };
    }

    /** What the card shows before the answer: the agent's options, the file, its diff; nothing written yet. */
    async function checkWaitingCard(card: Locator, screenshot: string): Promise<void> {
      assert.ok(await card.evaluate((node) => node.ownerDocument.activeElement === node), "the keyboard is on the card");
      const options = await card.locator(".permission-options button").evaluateAll((buttons) => buttons.map((b) => b.getAttribute("aria-label")));
      assert.deepEqual(options, facts.options, "the agent's options, in its words");
      const diff = card.locator(".diff-list .diff-file");
      assert.equal(await diff.count(), 1, "one changed file");
      assert.match((await diff.locator(".diff-path").textContent()) ?? "", new RegExp(`(^|/)${WRITTEN_FILE.replace(".", "\\.")}$`));
      assert.equal(await diff.locator(".diff-added").innerText(), `+${WRITTEN_LINES.length}`);
      assert.equal(await diff.locator(".diff-removed").innerText(), "−0");
      await diff.locator(".diff-preview > summary").click();
      const preview = await diff.locator(".diff-preview").innerText();
      for (const line of WRITTEN_LINES.filter((l) => l !== "")) assert.ok(preview.includes(`+ ${line}`), `the preview shows "${line}" added:\n${preview}`);
      assert.equal(fs.existsSync(written()), false, "nothing is written before the answer");
      await card.screenshot({ path: path.join(RESULTS, `e2e-acp-${agent.profile}-${screenshot}.png`) });
    }

    it("writes the file once the card is answered Allow once, says Allowed by you, and Open Diff shows the change", async () => {
      const page = workbench.page;
      const { turn, card } = await promptForWrite(page);
      await checkWaitingCard(card, "card-waiting");

      await card.getByRole("button", { name: facts.allowOnce, exact: true }).click();
      await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
      assert.equal(fs.readFileSync(written(), "utf8"), WRITTEN_TEXT);
      assert.equal(await card.locator(".permission-answer").innerText(), `Allowed by you: ${facts.allowOnce}`);
      assert.equal(await card.locator(".permission-options button").count(), 0, "the answered card has no buttons");
      assert.equal(await turn.locator(".error-card").count(), 0, "no error card");
      await page.screenshot({ path: path.join(RESULTS, `e2e-acp-${agent.profile}-allowed.png`) });

      const tool = turn.locator(".tool-card");
      assert.equal(await tool.count(), 1, "one tool card");
      // What a failed tool said is in its folded output.
      if ((await tool.locator(".tool-output").count()) > 0) await tool.locator(".tool-output > summary").click();
      assert.match((await tool.getAttribute("aria-label")) ?? "", /: succeeded$/, `the write succeeded:\n${await tool.innerText()}`);
      await tool.locator(".tool-diffs .diff-open").click();
      const diffEditor = page.locator(".editor-instance .monaco-diff-editor");
      await diffEditor.waitFor({ timeout: 30_000 });
      await page.locator(".tabs-container .tab.active", { hasText: `${WRITTEN_FILE} (` }).waitFor({ timeout: 30_000 });
      const modified = diffEditor.locator(".editor.modified .view-lines");
      await modified.getByText(WRITTEN_LINES.at(-1) ?? "", { exact: true }).waitFor({ timeout: 30_000 });
      assert.equal((await diffEditor.locator(".editor.original .view-lines").innerText()).trim(), "", "the file did not exist before");
      await page.screenshot({ path: path.join(RESULTS, `e2e-acp-${agent.profile}-open-diff.png`) });
      await runCommand(page, "View: Close All Editors");
    });

    it("leaves the file unwritten when the card is answered Reject, and says Rejected by you", async () => {
      const page = workbench.page;
      const { turn, card } = await promptForWrite(page);
      await checkWaitingCard(card, "card-before-reject");

      await card.getByRole("button", { name: facts.rejectOnce, exact: true }).click();
      const footer = turn.locator(".turn-footer");
      await footer.waitFor({ timeout: 120_000 });
      assert.equal(await footer.locator(".footer-ending").innerText(), facts.afterReject, "how the agent ends a turn whose write was rejected");
      assert.equal(await card.locator(".permission-answer").innerText(), `Rejected by you: ${facts.rejectOnce}`);
      assert.equal(fs.existsSync(written()), false, "the rejected write never happened");
      await page.screenshot({ path: path.join(RESULTS, `e2e-acp-${agent.profile}-rejected.png`) });
    });

    it("warns on the card of a write outside the workspace, naming the file, and Reject leaves it unwritten", async () => {
      const page = workbench.page;
      const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), `agent-stream-e2e-${agent.profile}-elsewhere-`));
      const file = path.join(elsewhere, WRITTEN_FILE);
      try {
        const { turn, card } = await promptForWrite(page, elsewhere);
        const warning = card.locator(".permission-outside");
        assert.equal(await warning.innerText(), `Outside your workspace: ${file}`);
        await card.screenshot({ path: path.join(RESULTS, `e2e-acp-${agent.profile}-card-outside.png`) });
        await card.getByRole("button", { name: facts.rejectOnce, exact: true }).click();
        await turn.locator(".turn-footer").waitFor({ timeout: 120_000 });
        assert.equal(await card.locator(".permission-answer").innerText(), `Rejected by you: ${facts.rejectOnce}`);
        assert.equal(fs.existsSync(file), false, "the rejected write never happened");
      } finally {
        fs.rmSync(elsewhere, { recursive: true, force: true });
      }
    });

    it("answers the waiting card cancelled on Stop: the turn says Stopped, nothing is written, and Delete Session leaves no process", async () => {
      const page = workbench.page;
      // The sessions of the tests before keep their agents warm: they are not this session's.
      const others = runningWithEnvironment(markerEntry);
      const { chat, turn, card } = await promptForWrite(page);
      await statusItem(page, "Agent Stream: waiting for your approval").waitFor({ timeout: 30_000 });
      const pids = runningWithEnvironment(markerEntry).filter((pid) => !others.includes(pid));
      assert.ok(pids.length > 0, "the agent's processes are found while its card waits");

      await chat.getByRole("button", { name: "Stop" }).click();
      await turn.locator(".turn-footer", { hasText: "Stopped" }).waitFor({ timeout: 60_000 });
      await statusItem(page, "Agent Stream: stopped").waitFor({ timeout: 30_000 });
      assert.equal(await card.locator(".permission-answer").innerText(), "Cancelled");
      assert.equal(await card.locator(".permission-options button").count(), 0, "the cancelled card has no buttons");
      assert.equal(await turn.locator(".error-card").count(), 0, "no error card");
      assert.equal(fs.existsSync(written()), false, "the cancelled write never happened");
      await page.screenshot({ path: path.join(RESULTS, `e2e-acp-${agent.profile}-stopped.png`) });
      const warmAfterStop = pids.filter(isRunning);

      // The agent stays warm for the session's next turn after an in-band cancel, and New Session leaves it so: the
      // stopped session stays in the list. Deleting it (after the question it asks) ends its agent's tree.
      await newSession(page);
      assert.equal(await turnOf(chat, WRITE_PROMPT).count(), 0, "the new session's chat is empty");
      await sessionRows(page, WRITE_PROMPT, "stopped").first().waitFor({ timeout: 30_000 });
      assert.ok(warmAfterStop.length > 0, "the agent stays warm after Stop");
      assert.ok(warmAfterStop.some(isRunning), "New Session leaves the stopped session's warm agent running");
      await deleteSession(page, WRITE_PROMPT);
      await eventually(`no process of ${agent.title}'s deleted session (${pids.join(", ")}) runs`, () => !pids.some(isRunning), 15_000);
      console.log(`      ${agent.title}: ${warmAfterStop.length} of ${pids.length} process(es) still ran after Stop and New Session, none after Delete Session`);

      // The earlier tests' sessions are still warm; deleting them all leaves no process of the agent at all.
      await deleteAllSessions(page);
      await eventually(`no process of ${agent.title} runs`, () => runningWithEnvironment(markerEntry).length === 0, 15_000);
    });
  });
}
