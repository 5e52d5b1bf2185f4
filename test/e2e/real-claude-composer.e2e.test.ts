// The composer's keys and an answer's reading with the real, published Claude Code 2.1.330 run directly (profile
// `claude`, stream-json) in the chat of a real VS Code, against our mock model server: Escape in the message box stops
// Claude while it streams and leaves no process of it; ↑ in the empty box brings back the prompt sent; a path:line in
// Claude's answer opens that workspace file at its line; a right-aligned table in its answer renders aligned, and the
// webview logs no Content Security Policy error (composer.e2e.test.ts checks these with the fake Locus CLI). A message
// typed with Enter while Claude's answer streams waits in the queue, and the model gets it as the next user turn of the
// same conversation once that answer is done; one sent with Ctrl+Enter goes into the running turn instead, and the
// model hears it in that turn. After a run, / completes the slash commands Claude's init line named.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ConsoleMessage } from "playwright-core";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { anthropicStream } from "../../scripts/recording/anthropic-replies";
import { claudeCli } from "../../scripts/recording/claude-cli";
import type { MockReply } from "../../scripts/recording/mock-model-server";
import { slowAnswerChunks, SLOW_DELTA_DELAY_MS } from "../../scripts/recording/scenario-texts";
import { eventually } from "../helpers/eventually";
import { runningWithEnvironment } from "./processes";
import { useRealAgentInPanel } from "./real-agent-in-panel";
import { ask, chatFrame, newSession, RESULTS, turnOf } from "./workbench";

const VERSION = "2.1.330";
const GONE_DEADLINE_MS = 15_000;
const says = (...chunks: string[]) => anthropicStream({ blocks: [{ type: "text", chunks }], stopReason: "end_turn" });

/** The text of a model request's last message of role user (Claude 2.1.330 may end the request with a system one). */
function lastUserText(body: unknown): string {
  const messages = (body as { messages?: { role: string; content: string | { type: string; text?: string }[] }[] }).messages ?? [];
  const last = messages.filter((message) => message.role === "user").at(-1);
  if (last === undefined) return "";
  return typeof last.content === "string" ? last.content : last.content.map((block) => block.text ?? "").join("\n");
}

describe(`real Claude Code ${VERSION} run directly in a real VS Code: the composer (keys, queue, steer, slash commands) and the answer's links and tables`, function () {
  this.timeout(300_000);
  const real = useRealAgentInPanel({
    name: "claude-composer",
    install: () => ensureInstalled(claudeCli, VERSION),
    prepareHome: (places) => claudeCli.prepareHome(places, { name: "panel", description: "", args: () => [], replies: () => [] }),
    env: (places) => claudeCli.env(places),
    settings: { "agentStream.cli.profile": "claude" },
  });
  const { workbench } = real;

  it("stops Claude's streaming answer with Escape in the message box, and no process of Claude is left", async () => {
    const page = workbench.page;
    await newSession(page);
    real.mock.script([anthropicStream({ blocks: [{ type: "text", chunks: slowAnswerChunks() }], stopReason: "end_turn", deltaDelayMs: SLOW_DELTA_DELAY_MS })], says("Done."));
    const prompt = "Tell me a long story.";
    const chat = await ask(page, prompt);
    const turn = turnOf(chat, prompt);
    await turn.getByText("word3", { exact: false }).first().waitFor({ timeout: 120_000 });
    assert.ok(runningWithEnvironment(real.markerEntry).length > 0, "Claude runs while it streams");
    const composer = chat.locator("textarea").first();
    await composer.click();
    await composer.press("Escape");
    await turn.locator(".turn-footer", { hasText: "Stopped" }).waitFor({ timeout: 60_000 });
    assert.doesNotMatch(await turn.innerText(), /word600/, "the answer did not run to its end");
    await eventually("no process of Claude left", () => runningWithEnvironment(real.markerEntry).length === 0, GONE_DEADLINE_MS);
  });

  it("opens a path:line of Claude's answer at its line, and brings the prompt back with ↑ in the empty box", async () => {
    const page = workbench.page;
    await newSession(page);
    fs.writeFileSync(path.join(workbench.workspace, "steps.md"), ["# Steps", "", "1. one", "2. two", "3. three", ""].join("\n"));
    real.mock.script([says("The second step is at steps.md:4 in the workspace.")], says("Done."));
    const prompt = "Where is the second step?";
    const chat = await ask(page, prompt);
    const turn = turnOf(chat, prompt);
    await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    const link = turn.locator(".answer-text .path-link", { hasText: "steps.md:4" });
    await link.waitFor({ timeout: 30_000 });
    await link.click();
    await page.locator(".tabs-container .tab.active", { hasText: "steps.md" }).waitFor({ timeout: 30_000 });
    await page.locator(".statusbar .statusbar-item", { hasText: /Ln 4, Col 1/ }).waitFor({ timeout: 30_000 });
    await page.screenshot({ path: path.join(RESULTS, "e2e-claude-direct-path-link.png") });

    const composer = chatFrame(page).locator("textarea").first();
    await composer.click();
    assert.equal(await composer.inputValue(), "");
    await composer.press("ArrowUp");
    assert.equal(await composer.inputValue(), prompt);
    await composer.press("ArrowDown");
    assert.equal(await composer.inputValue(), "", "↓ walks back to the empty box");
  });

  it("renders a right-aligned table of Claude's answer aligned, and the webview logs no Content Security Policy error", async () => {
    const page = workbench.page;
    await newSession(page);
    const table = ["Here is the count:", "", "| Fruit | Count |", "| :--- | ---: |", "| apples | 3 |", "| pears | 12 |", ""].join("\n");
    real.mock.script([says(table)], says("Done."));
    const console: string[] = [];
    const listen = (message: ConsoleMessage) => console.push(message.text());
    page.on("console", listen);
    try {
      const prompt = "Count the fruit.";
      const chat = await ask(page, prompt);
      const turn = turnOf(chat, prompt);
      await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
      const count = turn.locator(".answer-text table td", { hasText: "12" });
      assert.equal(await count.evaluate((cell) => cell.ownerDocument.defaultView?.getComputedStyle(cell).textAlign), "right");
      assert.equal(await turn.locator(".answer-text table [style]").count(), 0, "no inline style");
      assert.deepEqual(console.filter((text) => text.includes("Content Security Policy")), []);
    } finally {
      page.off("console", listen);
    }
  });

  it("queues a message typed while Claude's answer streams, and the model gets it as the next user turn of the conversation", async () => {
    const page = workbench.page;
    await newSession(page);
    const heard: unknown[] = [];
    const listening = (reply: MockReply): MockReply => (request, response) => {
      heard.push(request.body);
      return reply(request, response);
    };
    const streaming = Array.from({ length: 40 }, (_, index) => `word${index + 1} `);
    real.mock.script(
      [listening(anthropicStream({ blocks: [{ type: "text", chunks: streaming }], stopReason: "end_turn", deltaDelayMs: SLOW_DELTA_DELAY_MS })), listening(says("The moral: be brief."))],
      says("Done."),
    );
    const prompt = "Tell me a short story.";
    const queued = "And give it a moral.";
    const chat = await ask(page, prompt);
    const turn = turnOf(chat, prompt);
    await turn.getByText("word3", { exact: false }).first().waitFor({ timeout: 120_000 });
    const composer = chat.locator("textarea").first();
    await composer.fill(queued);
    await composer.press("Enter");
    const waiting = chat.getByRole("list", { name: "Queued messages" }).getByRole("listitem");
    await waiting.first().waitFor({ timeout: 30_000 });
    assert.equal(await turn.locator(".turn-footer").count(), 0, "queued while the answer still streamed");
    assert.equal(heard.length, 1, "nothing more was asked of the model while the answer streamed");

    await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    const next = turnOf(chat, queued);
    await next.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    await waiting.first().waitFor({ state: "detached", timeout: 30_000 });
    assert.match(await next.innerText(), /The moral: be brief\./);
    // The next request is the queued message as the user's turn, after the first answer in the same conversation.
    assert.equal(heard.length, 2);
    assert.ok(lastUserText(heard[1]).includes(queued), `the model's next user turn: ${lastUserText(heard[1]).slice(-400)}`);
    assert.ok(JSON.stringify(heard[1]).includes("word40"), "the first answer is in the conversation before it");
  });

  it("sends a message typed with Ctrl+Enter into the turn Claude is streaming: the model hears it in the same turn", async () => {
    const page = workbench.page;
    await newSession(page);
    const heard: unknown[] = [];
    const listening = (reply: MockReply): MockReply => (request, response) => {
      heard.push(request.body);
      return reply(request, response);
    };
    // Text that streams for a while, then a read: the request after the read is the turn's next, where a message
    // taken mid-turn shows.
    const streaming = Array.from({ length: 40 }, (_, index) => `word${index + 1} `);
    const read = { type: "tool_use" as const, id: "toolu_e2e_composer_read", name: "Read", input: { file_path: path.join(workbench.workspace, "README.md") } };
    real.mock.script(
      [
        listening(anthropicStream({ blocks: [{ type: "text", chunks: streaming }, read], stopReason: "tool_use", deltaDelayMs: SLOW_DELTA_DELAY_MS })),
        listening(says("Read it, and in French too.")),
      ],
      says("Done."),
    );
    const prompt = "Read the README.";
    const steered = "Also answer in French.";
    const chat = await ask(page, prompt);
    const turn = turnOf(chat, prompt);
    await turn.getByText("word3", { exact: false }).first().waitFor({ timeout: 120_000 });
    const composer = chat.locator("textarea").first();
    await composer.fill(steered);
    await composer.press("Control+Enter");
    await turn.getByRole("group", { name: "You, while the agent worked" }).waitFor({ timeout: 30_000 });
    await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    assert.equal(heard.length, 2, "the streamed answer's request, then the one after the read");
    assert.ok(JSON.stringify(heard[1]).includes(steered), `the model's request in the same turn did not carry the message: ${JSON.stringify(heard[1]).slice(-600)}`);
    assert.match(await turn.innerText(), /in French too\./);
    assert.equal(await chat.locator(".turn").filter({ hasText: steered }).count(), 1, "no turn of its own: only the running one shows it");
  });

  it("completes after / the slash commands Claude's init line named, once a run has started", async () => {
    const page = workbench.page;
    await newSession(page);
    real.mock.script([says("Hello.")], says("Done."));
    const chat = await ask(page, "Say hello.");
    await turnOf(chat, "Say hello.").locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    const composer = chat.locator("textarea").first();
    await composer.click();
    await composer.pressSequentially("/comp");
    const list = chat.getByRole("listbox", { name: "Slash commands" });
    await list.getByRole("option").first().waitFor({ timeout: 30_000 });
    assert.ok((await list.locator(".command-name").allTextContents()).includes("/compact"), "Claude's /compact is offered");
    await composer.press("Enter");
    assert.equal(await composer.inputValue(), "/compact ");
    await composer.fill("");
  });
});
