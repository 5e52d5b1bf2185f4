// The real, published Claude Code 2.1.330 run directly (profile `claude`) in the chat of a real VS Code, against our
// mock model server: plan mode picked in the chat header while Claude answers reaches it on its stdin
// (`set_permission_mode`): the model's next request in that turn is told plan mode is active, and the next turn runs in
// plan mode; back to Default between turns, the next turn runs in it and its edit asks on a card. (Claude 2.1.330 with
// `--permission-prompt-tool stdio` asks before a Write in plan mode too, rather than refusing it by itself: the
// rejected write is not made.)
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { anthropicStream } from "../../scripts/recording/anthropic-replies";
import { claudeCli } from "../../scripts/recording/claude-cli";
import type { MockReply } from "../../scripts/recording/mock-model-server";
import { slowAnswerChunks, SLOW_DELTA_DELAY_MS } from "../../scripts/recording/scenario-texts";
import { useRealAgentInPanel } from "./real-agent-in-panel";
import { ask, newSession, RESULTS, turnOf } from "./workbench";

const VERSION = "2.1.330";
const WRITTEN_FILE = "planned.txt";
/** What Claude Code tells the model in every request while it is in plan mode. */
const PLAN_MODE_NOTE = "Plan mode is active";

describe(`real Claude Code ${VERSION} in a real VS Code: the mode picked in the chat header`, function () {
  this.timeout(300_000);
  const real = useRealAgentInPanel({
    name: "claude-modes",
    install: () => ensureInstalled(claudeCli, VERSION),
    prepareHome: (places) => claudeCli.prepareHome(places, { name: "panel", description: "", args: () => [], replies: () => [] }),
    env: (places) => claudeCli.env(places),
    settings: { "agentStream.cli.profile": "claude" },
  });
  const { workbench } = real;

  it("switches Claude to plan mode mid-turn from the header, and back to default for the next turn, whose edit asks", async () => {
    const page = workbench.page;
    const written = path.join(workbench.workspace, WRITTEN_FILE);
    fs.rmSync(written, { force: true });
    await newSession(page);
    const story = "Tell me a long story.";
    const firstWrite = `Write ${WRITTEN_FILE}, please.`;
    const secondWrite = `Now write ${WRITTEN_FILE}.`;
    // Whether each request the model got said plan mode is active in the turn of `prompt` (the history before it
    // keeps what earlier turns were told), in order.
    const planned: boolean[] = [];
    const heard = (prompt: string, reply: MockReply): MockReply => (request, response) => {
      planned.push(toldPlanMode(request.body, prompt));
      return reply(request, response);
    };
    const write = { type: "tool_use" as const, id: "toolu_e2e_modes_write", name: "Write", input: { file_path: written, content: "planned\n" } };
    const done = anthropicStream({ blocks: [{ type: "text", chunks: ["Done."] }], stopReason: "end_turn" });
    // The first turn reads a file after its slow text: the request after the read shows the mode Claude is in by then.
    const read = { type: "tool_use" as const, id: "toolu_e2e_modes_read", name: "Read", input: { file_path: path.join(workbench.workspace, "README.md") } };
    real.mock.script(
      [
        heard(story, anthropicStream({ blocks: [{ type: "text", chunks: slowAnswerChunks() }, read], stopReason: "tool_use", deltaDelayMs: SLOW_DELTA_DELAY_MS })),
        heard(story, done),
        heard(firstWrite, anthropicStream({ blocks: [write], stopReason: "tool_use" })),
        heard(firstWrite, done),
        heard(secondWrite, anthropicStream({ blocks: [write], stopReason: "tool_use" })),
        heard(secondWrite, done),
      ],
      done,
    );

    const chat = await ask(page, story);
    const mode = chat.getByRole("combobox", { name: "Mode", exact: true });
    // The picker shows Claude's modes from the start, in the mode that asks; the switch is made once Claude answers
    // (its first model request made), so that it reaches the turn under way.
    await mode.waitFor({ timeout: 120_000 });
    await turnOf(chat, story).getByText("word3", { exact: false }).first().waitFor({ timeout: 120_000 });
    assert.equal(await mode.inputValue(), "default");
    await mode.selectOption("plan");
    await turnOf(chat, story).locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    // The switch reached Claude during the turn (set_permission_mode on its stdin): its next request, in the same turn,
    // tells the model plan mode is active; the first did not.
    assert.deepEqual(planned.slice(0, 2), [false, true]);
    assert.equal(await mode.inputValue(), "plan");
    await page.screenshot({ path: path.join(RESULTS, "e2e-claude-modes-plan.png") });

    await ask(page, firstWrite);
    const planCard = turnOf(chat, firstWrite).locator("section.permission");
    await planCard.waitFor({ timeout: 120_000 });
    // While the turn runs the header shows the mode Claude's init line says: the run was started in plan mode.
    assert.equal(await mode.inputValue(), "plan");
    await planCard.getByRole("button", { name: "Reject", exact: true }).click();
    await turnOf(chat, firstWrite).locator(".turn-footer").waitFor({ timeout: 120_000 });
    assert.equal(fs.existsSync(written), false);

    await mode.selectOption("default");
    await ask(page, secondWrite);
    const turn = turnOf(chat, secondWrite);
    const card = turn.locator("section.permission");
    await card.and(turn.locator(".permission-waiting")).waitFor({ timeout: 120_000 });
    assert.equal(await mode.inputValue(), "default", "Claude's init line says the turn runs in default mode");
    await card.getByRole("button", { name: "Allow", exact: true }).click();
    await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    assert.equal(fs.readFileSync(written, "utf8"), "planned\n");
    await page.screenshot({ path: path.join(RESULTS, "e2e-claude-modes-default.png") });
  });
});

/** Whether the request's messages from the turn of `prompt` on tell the model that plan mode is active. */
function toldPlanMode(body: unknown, prompt: string): boolean {
  const messages = typeof body === "object" && body !== null && Array.isArray((body as { messages?: unknown }).messages) ? (body as { messages: unknown[] }).messages : [];
  const texts = messages.map((message) => JSON.stringify(message));
  const turnStart = texts.findLastIndex((text) => text.includes(prompt));
  return texts.slice(Math.max(0, turnStart)).some((text) => text.includes(PLAN_MODE_NOTE));
}
