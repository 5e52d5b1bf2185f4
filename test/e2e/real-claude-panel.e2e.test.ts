// The real, published Claude Code 2.1.330 run directly (profile `claude`, stream-json) in the chat of a real VS Code,
// against our mock model server on 127.0.0.1: its Write asks before it runs (`--permission-prompt-tool stdio`), and
// the card shows the file's diff and Allow / Reject as buttons. Allow writes the file; Reject leaves the disk as it
// was, and the turn, whose only work was refused, does not read Completed. Its Bash shows the command and, allowed,
// its output; "Always allow" is not asked again; Stop answers a waiting card and leaves no process; and a session
// started in plan mode shows the plan of its ExitPlanMode with the choices.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { FrameLocator, Locator, Page } from "playwright-core";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { anthropicStream } from "../../scripts/recording/anthropic-replies";
import type { MockReply } from "../../scripts/recording/mock-model-server";
import { claudeCli } from "../../scripts/recording/claude-cli";
import { eventually } from "../helpers/eventually";
import { runningWithEnvironment } from "./processes";
import { useRealAgentInPanel } from "./real-agent-in-panel";
import { ask, chatFrame, newSession, RESULTS, turnOf } from "./workbench";

const VERSION = "2.1.330";
const WRITTEN_FILE = "made-by-claude.txt";
const WRITTEN_LINES = ["first line", "second line"];
const WRITE_PROMPT = `Write ${WRITTEN_FILE}.`;
const GONE_DEADLINE_MS = 15_000;

const toolTurn = (id: string, name: string, input: unknown): MockReply => anthropicStream({ blocks: [{ type: "tool_use", id, name, input }], stopReason: "tool_use" });
const answer = (words: string): MockReply => anthropicStream({ blocks: [{ type: "text", chunks: [words] }], stopReason: "end_turn" });

/** Asks in the current session, and returns the turn and its first card once it waits. */
async function promptForCard(page: Page, prompt: string): Promise<{ chat: FrameLocator; turn: Locator; card: Locator }> {
  const chat = await ask(page, prompt);
  const turn = turnOf(chat, prompt);
  const card = turn.locator("section.permission").first();
  await card.and(turn.locator(".permission-waiting")).waitFor({ timeout: 120_000 });
  return { chat, turn, card };
}

async function optionsOf(card: Locator): Promise<(string | null)[]> {
  return card.locator(".permission-options button").evaluateAll((buttons) => buttons.map((b) => b.getAttribute("aria-label")));
}

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

  /** Pictures of `target` in a dark then a light theme (the workspace's setting, which VS Code applies live), then dark again. */
  async function screenshotInThemes(page: Page, target: Locator, name: string): Promise<void> {
    for (const [theme, look] of [["Default Light Modern", "vscode-light"], ["Default Dark Modern", "vscode-dark"]] as const) {
      fs.mkdirSync(path.join(workbench.workspace, ".vscode"), { recursive: true });
      fs.writeFileSync(path.join(workbench.workspace, ".vscode", "settings.json"), JSON.stringify({ "workbench.colorTheme": theme }));
      await chatFrame(page).locator(`body.${look}`).waitFor({ timeout: 30_000 });
      await target.screenshot({ path: path.join(RESULTS, `e2e-claude-direct-${name}-${look.replace("vscode-", "")}.png`) });
    }
  }

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
    assert.equal(await card.locator(".permission-heading").innerText(), `Write ${WRITTEN_FILE}`, "named relative to the workspace");
    const diff = card.locator(".diff-list .diff-file");
    assert.equal(await diff.count(), 1, "one changed file");
    assert.match((await diff.locator(".diff-path").textContent()) ?? "", new RegExp(`(^|/)${WRITTEN_FILE.replace(".", "\\.")}$`));
    assert.equal(await diff.locator(".diff-added").innerText(), `+${WRITTEN_LINES.length}`);
    assert.equal(fs.existsSync(written()), false, "nothing is written before the answer");
    await screenshotInThemes(workbench.page, card, screenshot);
  }

  it("writes the file once the card is answered Allow, and says Allowed by you", async () => {
    const page = workbench.page;
    const { turn, card } = await promptForWrite(page);
    await checkWaitingCard(card, "card-waiting");
    await card.getByRole("button", { name: "Allow", exact: true }).click();
    await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    assert.equal(fs.readFileSync(written(), "utf8"), `${WRITTEN_LINES.join("\n")}\n`);
    assert.equal(await card.locator(".permission-answer").innerText(), "Allowed by you: Allow");
    // After the answer the diff stays on the tool's own card.
    const tool = turn.locator(".tool-card", { has: page.locator(".tool-name", { hasText: /^Write$/ }) });
    assert.equal(await tool.locator(".tool-diffs .diff-file").count(), 1, "the written file's diff on the tool card");
    assert.equal(await tool.locator(".tool-diffs .diff-added").innerText(), `+${WRITTEN_LINES.length}`);
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
    // What happened, not a fault: no UNKNOWN, no Show Log; Retry asks again.
    const error = turn.locator(".error-card");
    assert.equal(await error.locator(".error-title").innerText(), "Not allowed: nothing was done");
    assert.equal(await error.locator(".error-code").count(), 0);
    assert.match(await error.locator(".error-message").innerText(), new RegExp(`^Refused: Write ${WRITTEN_FILE.replace(".", "\\.")}\\.`));
    assert.deepEqual(await error.locator(".error-actions button").allInnerTexts(), ["Retry"]);
    await screenshotInThemes(page, turn, "rejected");
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

  it("shows the command on a Bash card, and once allowed, what it printed on its tool card", async () => {
    const page = workbench.page;
    await newSession(page);
    // A command that only reads (`echo`) Claude runs without asking: this one changes the disk, then prints.
    const command = "touch printed.txt && echo printed-by-bash";
    real.mock.script([toolTurn("toolu_e2e_panel_bash", "Bash", { command, description: "Print a word" }), answer("Printed.")], answer("Done."));
    const { turn, card } = await promptForCard(page, "Print a word.");
    assert.equal(await card.locator(".permission-command").innerText(), command);
    assert.deepEqual(await optionsOf(card), ["Allow", "Always allow", "Reject"]);
    await screenshotInThemes(page, card, "bash-card");
    await card.getByRole("button", { name: "Allow", exact: true }).click();
    await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    const tool = turn.locator(".tool-card", { has: page.locator(".tool-name", { hasText: /^Bash$/ }) });
    const output = tool.locator(".tool-output");
    assert.match(await output.locator(".folded-label").innerText(), /^Output/);
    await output.locator("summary").click();
    assert.equal((await output.locator(".folded-text").innerText()).trim(), "printed-by-bash");
    await screenshotInThemes(page, tool, "bash-output");
  });

  it("runs nothing when a Bash card is answered Reject, and the card says so", async () => {
    const page = workbench.page;
    await newSession(page);
    const made = path.join(workbench.workspace, "made-by-bash.txt");
    real.mock.script([toolTurn("toolu_e2e_panel_bash_no", "Bash", { command: "touch made-by-bash.txt", description: "Create a file" }), answer("I could not.")], answer("Done."));
    const { turn, card } = await promptForCard(page, "Create made-by-bash.txt.");
    await card.getByRole("button", { name: "Reject", exact: true }).click();
    await turn.locator(".turn-footer").waitFor({ timeout: 120_000 });
    assert.equal(await card.locator(".permission-answer").innerText(), "Rejected by you: Reject");
    assert.equal(await turn.locator(".footer-ending").innerText(), "Failed");
    assert.equal(fs.existsSync(made), false, "the rejected command never ran");
    await page.screenshot({ path: path.join(RESULTS, "e2e-claude-direct-bash-rejected.png") });
  });

  it("asks once for a command allowed always: not again in that turn, and no card for it in the next turn", async () => {
    const page = workbench.page;
    await newSession(page);
    // A command Claude suggests a rule for that allows no more than it (its exact text), which the answer hands back.
    const touch = { command: "touch always.txt", description: "Create a file" };
    const bashCards = (turn: Locator) => turn.locator(".tool-card.tool-succeeded", { has: page.locator(".tool-name", { hasText: /^Bash$/ }) });
    real.mock.script([toolTurn("toolu_e2e_panel_always_1", "Bash", touch), toolTurn("toolu_e2e_panel_always_2", "Bash", touch), answer("Twice.")], answer("Done."));
    const first = await promptForCard(page, "Create always.txt twice.");
    await first.card.getByRole("button", { name: "Always allow", exact: true }).click();
    await first.turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    assert.equal(await bashCards(first.turn).count(), 2, "the command ran twice");
    // Claude keeps the rule for the rest of its run: the second call is not asked about at all.
    assert.equal(await first.turn.locator("section.permission").count(), 1, "one card for the two calls");

    // The next turn is a new run of Claude (--resume), given the session's rule (--allowedTools): it does not ask at all.
    real.mock.script([toolTurn("toolu_e2e_panel_always_3", "Bash", touch), answer("Thrice.")], answer("Done."));
    const prompt = "Create it again.";
    const chat = await ask(page, prompt);
    const next = turnOf(chat, prompt);
    await next.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    assert.equal(await bashCards(next).count(), 1, "the command ran again");
    assert.equal(await next.locator("section.permission").count(), 0, "no second card");
  });

  it("answers a card still waiting at Stop: the card closes, the turn reads Stopped, and no process of Claude is left", async () => {
    const page = workbench.page;
    await newSession(page);
    const made = path.join(workbench.workspace, "waiting.txt");
    real.mock.script([toolTurn("toolu_e2e_panel_wait", "Bash", { command: "touch waiting.txt", description: "Create a file" })], answer("Done."));
    const { chat, turn, card } = await promptForCard(page, "Create waiting.txt.");
    assert.ok(runningWithEnvironment(real.markerEntry).length > 0, "Claude runs while its card waits");
    await chat.getByRole("button", { name: "Stop" }).click();
    await turn.locator(".turn-footer", { hasText: "Stopped" }).waitFor({ timeout: 60_000 });
    await card.and(chat.locator(".permission-cancelled")).waitFor({ timeout: 30_000 });
    assert.equal(await card.locator(".permission-options button").count(), 0, "no button left to answer");
    assert.equal(fs.existsSync(made), false);
    await eventually("no process of Claude left", () => runningWithEnvironment(real.markerEntry).length === 0, GONE_DEADLINE_MS);
  });
});

describe(`real Claude Code ${VERSION} started in plan mode in a real VS Code`, function () {
  this.timeout(180_000);
  const real = useRealAgentInPanel({
    name: "claude-plan",
    install: () => ensureInstalled(claudeCli, VERSION),
    prepareHome: (places) => claudeCli.prepareHome(places, { name: "panel", description: "", args: () => [], replies: () => [] }),
    env: (places) => claudeCli.env(places),
    settings: { "agentStream.cli.profile": "claude", "agentStream.cli.extraArgs": ["--permission-mode", "plan"] },
  });
  const { workbench } = real;

  it("shows the plan its ExitPlanMode asks to carry out, with the choices", async () => {
    const page = workbench.page;
    const plan = "1. Read the README\n2. Add a **Usage** section";
    real.mock.script([toolTurn("toolu_e2e_panel_plan", "ExitPlanMode", { plan }), answer("Planned.")], answer("Done."));
    const { turn, card } = await promptForCard(page, "Plan a Usage section.");
    assert.equal(await card.locator(".permission-plan li").count(), 2, "the plan's steps, as markdown");
    assert.match(await card.locator(".permission-plan").innerText(), /Add a Usage section/);
    const options = await optionsOf(card);
    assert.ok(options.includes("Reject"), `Reject is a choice: ${options.join(", ")}`);
    assert.ok(options.some((option) => option !== "Reject"), `a way to go on: ${options.join(", ")}`);
    await card.screenshot({ path: path.join(RESULTS, "e2e-claude-direct-exit-plan.png") });
    await card.getByRole("button", { name: "Reject", exact: true }).click();
    await turn.locator(".turn-footer").waitFor({ timeout: 120_000 });
  });
});
