// The usage meter in a real VS Code, with real agents against our mock model server on 127.0.0.1: Claude Code 2.1.330
// run directly says a cost (`total_cost_usd`) and its model's window (`modelUsage`), claude-agent-acp says the context
// used of its size and the session's cost in `usage_update`. The turn's footer and the chat's header show them.
import * as assert from "node:assert/strict";
import * as path from "node:path";
import type { FrameLocator, Page } from "playwright-core";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { anthropicStream } from "../../scripts/recording/anthropic-replies";
import { claudeCli } from "../../scripts/recording/claude-cli";
import { CLAUDE_ACP, DONE_CHUNKS } from "./real-acp-agents";
import { useRealAgentInPanel } from "./real-agent-in-panel";
import { ask, newSession, RESULTS, turnOf } from "./workbench";

const PROMPT = "Say hello.";
const COST = /^\$\d+\.\d{4}$/;
const CONTEXT = /^(<1|\d+)% of \d+(\.\d)?[kM] context$/;

/** The finished turn's footer facts, and the header's meter as it reads then. */
async function usageShown(page: Page, chat: FrameLocator, screenshot: string): Promise<{ footer: string[]; header: string }> {
  const turn = turnOf(chat, PROMPT);
  await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
  const footer = await turn.locator(".turn-footer .footer-usage .footer-fact").allTextContents();
  const meter = chat.locator(".session-header .usage-meter");
  await meter.waitFor({ state: "visible", timeout: 30_000 });
  const header = (await meter.locator(".usage-meter-figures").textContent()) ?? "";
  await page.screenshot({ path: path.join(RESULTS, `e2e-usage-${screenshot}.png`) });
  return { footer, header };
}

describe("real Claude Code 2.1.330 run directly in a real VS Code: the usage meter", function () {
  this.timeout(180_000);
  const real = useRealAgentInPanel({
    name: "claude-usage",
    install: () => ensureInstalled(claudeCli, "2.1.330"),
    prepareHome: (places) => claudeCli.prepareHome(places, { name: "panel", description: "", args: () => [], replies: () => [] }),
    env: (places) => claudeCli.env(places),
    settings: { "agentStream.cli.profile": "claude" },
  });

  it("shows the turn's cost and context in its footer and the session's in the header", async () => {
    const page = real.workbench.page;
    await newSession(page);
    const hello = anthropicStream({ blocks: [{ type: "text", chunks: ["Hello."] }], stopReason: "end_turn" });
    real.mock.script([hello], hello);
    const chat = await ask(page, PROMPT);
    const { footer, header } = await usageShown(page, chat, "claude-direct");
    assert.match(footer.find((fact) => fact.endsWith(" in")) ?? "", /^\d+(\.\d)?k? in$/, footer.join(" | "));
    assert.ok(footer.some((fact) => COST.test(fact)), `a cost in the footer: ${footer.join(" | ")}`);
    assert.ok(footer.some((fact) => CONTEXT.test(fact)), `the context in the footer: ${footer.join(" | ")}`);
    assert.match(header, /\$\d+\.\d{4}/);
    assert.match(header, /% of \d+(\.\d)?[kM] context$/);
  });
});

describe(`real claude-agent-acp ${CLAUDE_ACP.version} over ACP in a real VS Code: the usage meter`, function () {
  this.timeout(180_000);
  const agent = CLAUDE_ACP;
  const real = useRealAgentInPanel({
    name: "claude-acp-usage",
    install: () => ensureInstalled(agent.agent, agent.version),
    prepareHome: (places) => agent.prepareHome(places),
    env: (places) => agent.agent.env(places),
    settings: { "agentStream.cli.profile": agent.profile, "agentStream.cli.args": agent.args },
  });

  it("shows the context used of its size, from usage_update, in the footer and the header", async () => {
    const page = real.workbench.page;
    await newSession(page);
    real.mock.script([agent.api.answer(["Hello."])], agent.api.answer(DONE_CHUNKS), agent.sideRequests);
    const chat = await ask(page, PROMPT);
    const { footer, header } = await usageShown(page, chat, "claude-acp");
    assert.ok(footer.some((fact) => CONTEXT.test(fact)), `the context in the footer: ${footer.join(" | ")}`);
    assert.ok(footer.some((fact) => COST.test(fact)), `the cost usage_update said: ${footer.join(" | ")}`);
    assert.match(header, /% of \d+(\.\d)?[kM] context$/);
  });
});
