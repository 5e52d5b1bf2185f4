// The real, published Claude Code 2.1.330 run directly (profile `claude`, stream-json) in the chat of a real VS Code,
// against our mock model server on 127.0.0.1: its Write asks before it runs (`--permission-prompt-tool stdio`), and
// the card shows the file's diff and Allow / Reject as buttons. Allow writes the file; Reject leaves the disk as it
// was, and the turn, whose only work was refused, does not read Completed.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Locator, Page } from "playwright-core";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { anthropicStream } from "../../scripts/recording/anthropic-replies";
import type { MockReply } from "../../scripts/recording/mock-model-server";
import { claudeCli } from "../../scripts/recording/claude-cli";
import { useRealAgentInPanel } from "./real-agent-in-panel";
import { ask, chatFrame, newSession, RESULTS, turnOf } from "./workbench";

const VERSION = "2.1.330";
const WRITTEN_FILE = "made-by-claude.txt";
const WRITTEN_LINES = ["first line", "second line"];
const WRITE_PROMPT = `Write ${WRITTEN_FILE}.`;

describe(`real Claude Code ${VERSION} run directly in a real VS Code: the permission card`, function () {
  this.timeout(180_000);
  const real = useRealAgentInPanel({
    name: "claude-direct",
    install: () => ensureInstalled(claudeCli, VERSION),
    prepareHome: (places) => claudeCli.prepareHome(places, { name: "panel", description: "", args: () => [], replies: () => [] }),
    env: (places) => claudeCli.env(places),
    settings: { "agentStream.cli.profile": "claude" },
  });
  const { workbench } = real;
  const written = () => path.join(workbench.workspace, WRITTEN_FILE);

  async function promptForWrite(page: Page, afterWrite = anthropicStream({ blocks: [{ type: "text", chunks: ["Done."] }], stopReason: "end_turn" })): Promise<{ turn: Locator; card: Locator }> {
    await newSession(page);
    fs.rmSync(written(), { force: true });
    const write = { type: "tool_use" as const, id: "toolu_e2e_panel_write", name: "Write", input: { file_path: written(), content: `${WRITTEN_LINES.join("\n")}\n` } };
    real.mock.script(
      [anthropicStream({ blocks: [write], stopReason: "tool_use" }), afterWrite],
      anthropicStream({ blocks: [{ type: "text", chunks: ["Done."] }], stopReason: "end_turn" }),
    );
    const chat = await ask(page, WRITE_PROMPT);
    const turn = turnOf(chat, WRITE_PROMPT);
    const card = turn.locator("section.permission");
    await card.and(turn.locator(".permission-waiting")).waitFor({ timeout: 120_000 });
    return { turn, card };
  }

  async function checkWaitingCard(card: Locator, screenshot: string): Promise<void> {
    const options = await card.locator(".permission-options button").evaluateAll((buttons) => buttons.map((b) => b.getAttribute("aria-label")));
    assert.deepEqual(options, ["Allow", "Reject"]);
    const diff = card.locator(".diff-list .diff-file");
    assert.equal(await diff.count(), 1, "one changed file");
    assert.match((await diff.locator(".diff-path").textContent()) ?? "", new RegExp(`(^|/)${WRITTEN_FILE.replace(".", "\\.")}$`));
    assert.equal(await diff.locator(".diff-added").innerText(), `+${WRITTEN_LINES.length}`);
    assert.equal(fs.existsSync(written()), false, "nothing is written before the answer");
    await card.screenshot({ path: path.join(RESULTS, `e2e-claude-direct-${screenshot}.png`) });
  }

  it("writes the file once the card is answered Allow, and says Allowed by you", async () => {
    const page = workbench.page;
    const { turn, card } = await promptForWrite(page);
    await checkWaitingCard(card, "card-waiting");
    await card.getByRole("button", { name: "Allow", exact: true }).click();
    await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    assert.equal(fs.readFileSync(written(), "utf8"), `${WRITTEN_LINES.join("\n")}\n`);
    assert.equal(await card.locator(".permission-answer").innerText(), "Allowed by you: Allow");
    await page.screenshot({ path: path.join(RESULTS, "e2e-claude-direct-allowed.png") });
  });

  it("leaves the file unwritten when the card is answered Reject, and the turn does not read Completed", async () => {
    const page = workbench.page;
    const { turn, card } = await promptForWrite(page);
    await checkWaitingCard(card, "card-before-reject");
    await card.getByRole("button", { name: "Reject", exact: true }).click();
    const footer = turn.locator(".turn-footer");
    await footer.waitFor({ timeout: 120_000 });
    assert.equal(await footer.locator(".footer-ending").innerText(), "Failed");
    assert.equal(await card.locator(".permission-answer").innerText(), "Rejected by you: Reject");
    assert.equal(fs.existsSync(written()), false, "the rejected write never happened");
    await page.screenshot({ path: path.join(RESULTS, "e2e-claude-direct-rejected.png") });
  });

  it("queues a message typed while Claude waits for its card, and sends it as the next turn once that turn completes", async () => {
    const page = workbench.page;
    const { turn, card } = await promptForWrite(page);
    const follow = "And now say what you wrote.";
    const composer = chatFrame(page).locator("textarea").first();
    await composer.fill(follow);
    await composer.press("Enter");
    const queued = chatFrame(page).getByRole("list", { name: "Queued messages" }).getByRole("listitem");
    await queued.first().waitFor({ timeout: 30_000 });
    assert.equal(await queued.locator(".queued-text").innerText(), follow);
    const asked = real.mock.requestLog.length;
    await card.getByRole("button", { name: "Allow", exact: true }).click();
    await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    const next = turnOf(chatFrame(page), follow);
    await next.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    await queued.first().waitFor({ state: "detached", timeout: 30_000 });
    // The model heard the queued message as the next user turn of the same conversation: a request after the write's
    // two whose last message is the user's text, with the first turn's messages before it.
    const later = real.mock.requestLog.slice(asked + 1).map((request) => request.summary);
    const nextTurn = later.find((summary) => /last=user\[(text|string)\]/.test(summary) && Number(/messages=(\d+)/.exec(summary)?.[1] ?? 0) > 3);
    assert.ok(nextTurn !== undefined, `the mock never received the queued message as the next turn:\n${later.join("\n")}`);
    await page.screenshot({ path: path.join(RESULTS, "e2e-claude-direct-queued.png") });
  });

  it("steers a queued message sent now into the turn Claude is working on: the model hears it in the same turn, and answers it there", async () => {
    const page = workbench.page;
    const follow = "Also say it in French.";
    let heard = "";
    const answer = anthropicStream({ blocks: [{ type: "text", chunks: ["Done. ", "En français : c'est écrit."] }], stopReason: "end_turn" });
    const listening: MockReply = (request, response) => {
      heard = JSON.stringify(request.body);
      return answer(request, response);
    };
    const { turn, card } = await promptForWrite(page, listening);
    const composer = chatFrame(page).locator("textarea").first();
    await composer.fill(follow);
    await composer.press("Enter");
    const queued = chatFrame(page).getByRole("list", { name: "Queued messages" }).getByRole("listitem");
    await queued.first().getByRole("button", { name: "Send now (into the running turn, or stops it)" }).click();
    await queued.first().waitFor({ state: "detached", timeout: 30_000 });
    // Claude takes it while its card waits: the turn goes on, and shows the message where it was sent.
    await turn.getByRole("group", { name: "You, while the agent worked" }).waitFor({ timeout: 30_000 });
    await card.getByRole("button", { name: "Allow", exact: true }).click();
    await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    assert.ok(heard.includes(follow), `the model request after the write did not carry the steered message: ${heard.slice(-600)}`);
    assert.match(await turn.innerText(), /En français : c'est écrit\./);
    assert.equal(await chatFrame(page).locator(".turn").filter({ hasText: follow }).count(), 1, "no turn of its own: only the running one shows it");
    await page.screenshot({ path: path.join(RESULTS, "e2e-claude-direct-steered.png") });
  });
});
