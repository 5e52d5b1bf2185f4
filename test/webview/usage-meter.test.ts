// The usage meter: each finished turn's figures in its footer, and the session's (turns added up, the context as last
// said) in the header, from a snapshot and as turns end live.
import * as assert from "node:assert/strict";
import type { TurnUsage } from "../../src/protocol/usage";
import * as cli from "../helpers/stream-builder";
import { WebviewHarness, type TestHostMessage } from "../helpers/webview-harness";
import { changeMessages, recordTurn, snapshotOf } from "./conversations";

const EMPTY: TestHostMessage = { type: "snapshot", turns: [], restriction: null };

const figures = (given: Partial<TurnUsage>): TurnUsage => ({ inputTokens: null, outputTokens: null, cacheReadTokens: null, cost: null, contextUsed: null, contextSize: null, ...given });
/** What Claude Code says of a turn: tokens, a cost in dollars, the context and its window. */
const CLAUDE_TURN = figures({ inputTokens: 1234, outputTokens: 340, cacheReadTokens: 900, cost: { amount: 0.0174, currency: "USD" }, contextUsed: 46_000, contextSize: 200_000 });
/** What an ACP agent that sends `usage_update` without a cost says: the context only. */
const CONTEXT_ONLY = figures({ contextUsed: 52_000, contextSize: 128_000 });

function finishedTurn(id: number, usage: TurnUsage | undefined, tokensUsed?: number) {
  return recordTurn(id, `prompt ${id}`, [cli.start(), cli.textDelta("Done."), cli.done({ duration: 1200, ...(tokensUsed === undefined ? {} : { tokensUsed }), ...(usage === undefined ? {} : { usage }) })]);
}

describe("webview: the usage meter", function () {
  let harness: WebviewHarness;

  before(async function () {
    harness = await WebviewHarness.open({ viewport: { width: 900, height: 600 } });
  });

  after(async function () {
    await harness?.close();
  });

  beforeEach(async function () {
    await harness.send(EMPTY);
  });

  const meter = () => harness.page.locator(".session-header .usage-meter");
  const footerFacts = (index: number) => harness.page.locator(".turn").nth(index).locator(".turn-footer .footer-fact").allTextContents();

  it("shows a turn's tokens in and out, its cost and its context in the turn's footer, in full in the tooltip", async function () {
    await harness.send(snapshotOf([finishedTurn(0, CLAUDE_TURN, 1574)]));
    assert.deepEqual(await footerFacts(0), ["1.2 s", "no tools", "1.2k in", "340 out", "$0.0174", "23% of 200k context"]);
    assert.equal(
      await harness.page.locator(".turn-footer .footer-usage").getAttribute("title"),
      "1,234 input tokens (900 from the cache), 340 output tokens, cost $0.0174, 46,000 of 200,000 context tokens used (23%)",
    );
  });

  it("shows the session's turns added up in the header, visible without hovering, and in full for screen readers", async function () {
    const second = figures({ inputTokens: 2000, outputTokens: 60, cost: { amount: 0.02, currency: "USD" }, contextUsed: 48_000, contextSize: 200_000 });
    await harness.send(snapshotOf([finishedTurn(0, CLAUDE_TURN), finishedTurn(1, second)]));
    assert.equal(await meter().isVisible(), true);
    assert.equal(await meter().locator(".usage-meter-figures").textContent(), "3.2k in · 400 out · $0.0374 · 24% of 200k context");
    const full = "Session usage: 3,234 input tokens (900 from the cache), 400 output tokens, cost $0.0374, 48,000 of 200,000 context tokens used (24%)";
    assert.equal(await meter().getAttribute("title"), full);
    assert.equal(await meter().locator(".sr-only").textContent(), full);
  });

  it("shows the context used of its size for an agent that says only that", async function () {
    await harness.send(snapshotOf([finishedTurn(0, CONTEXT_ONLY)]));
    assert.deepEqual(await footerFacts(0), ["1.2 s", "no tools", "41% of 128k context"]);
    assert.equal(await meter().locator(".usage-meter-figures").textContent(), "41% of 128k context");
  });

  it("updates the header when a turn ends while the user watches", async function () {
    await harness.send(snapshotOf([finishedTurn(0, CLAUDE_TURN)]));
    const live = finishedTurn(1, figures({ inputTokens: 800, outputTokens: 100, cost: { amount: 0.5, currency: "USD" }, contextUsed: 100_000, contextSize: 200_000 }));
    await harness.send(live.started, ...changeMessages(live));
    await harness.page.waitForFunction(() => document.querySelector(".usage-meter-figures")?.textContent?.includes("$0.5174"));
    assert.equal(await meter().locator(".usage-meter-figures").textContent(), "2k in · 440 out · $0.5174 · 50% of 200k context");
  });

  it("shows the context the agent says mid-turn in the header while the turn runs, and the turn's own once it ends", async function () {
    await harness.send(snapshotOf([finishedTurn(0, CLAUDE_TURN)]));
    const live = finishedTurn(1, figures({ inputTokens: 800, outputTokens: 100, cost: { amount: 0.5, currency: "USD" }, contextUsed: 150_000, contextSize: 200_000 }));
    const changes = changeMessages(live);
    await harness.send(live.started, ...changes.slice(0, -1), { type: "context", context: { used: 100_000, size: 200_000 }, cost: null });
    await harness.page.waitForFunction(() => document.querySelector(".usage-meter-figures")?.textContent?.includes("50%"));
    assert.equal(await meter().locator(".usage-meter-figures").textContent(), "1.2k in · 340 out · $0.0174 · 50% of 200k context");
    assert.equal(await harness.page.locator(".turn").nth(1).locator(".turn-footer .footer-usage").count(), 0, "the running turn has no footer figures yet");
    await harness.send(changes.at(-1)!, { type: "context", context: null, cost: null });
    await harness.page.waitForFunction(() => document.querySelector(".usage-meter-figures")?.textContent?.includes("75%"));
    assert.equal(await meter().locator(".usage-meter-figures").textContent(), "2k in · 440 out · $0.5174 · 75% of 200k context");
  });

  it("adds what the running turn has cost so far to the header's session cost, and the turn's own once it ends", async function () {
    await harness.send(snapshotOf([finishedTurn(0, CLAUDE_TURN)]));
    const live = finishedTurn(1, figures({ inputTokens: 800, outputTokens: 100, cost: { amount: 0.5, currency: "USD" }, contextUsed: 150_000, contextSize: 200_000 }));
    const changes = changeMessages(live);
    await harness.send(live.started, ...changes.slice(0, -1), { type: "context", context: { used: 100_000, size: 200_000 }, cost: { amount: 0.2, currency: "USD" } });
    await harness.page.waitForFunction(() => document.querySelector(".usage-meter-figures")?.textContent?.includes("$0.2174"));
    assert.equal(await meter().locator(".usage-meter-figures").textContent(), "1.2k in · 340 out · $0.2174 · 50% of 200k context");
    await harness.send({ type: "context", context: { used: 120_000, size: 200_000 }, cost: { amount: 0.4, currency: "USD" } });
    await harness.page.waitForFunction(() => document.querySelector(".usage-meter-figures")?.textContent?.includes("$0.4174"));
    assert.equal(await meter().locator(".usage-meter-figures").textContent(), "1.2k in · 340 out · $0.4174 · 60% of 200k context");
    await harness.send(changes.at(-1)!, { type: "context", context: null, cost: null });
    await harness.page.waitForFunction(() => document.querySelector(".usage-meter-figures")?.textContent?.includes("75%"));
    assert.equal(await meter().locator(".usage-meter-figures").textContent(), "2k in · 440 out · $0.5174 · 75% of 200k context", "counted once: the turn's own cost, not the live one as well");
  });

  it("shows the cost the running turn has said in the header of a session whose turns have said nothing yet", async function () {
    const live = finishedTurn(0, undefined);
    await harness.send(live.started, { type: "context", context: null, cost: { amount: 0.03, currency: "USD" } });
    await harness.page.waitForFunction(() => document.querySelector(".usage-meter-figures")?.textContent !== "");
    assert.equal(await meter().locator(".usage-meter-figures").textContent(), "$0.0300");
  });

  it("shows the meter mid-turn for a session whose turns have said nothing yet", async function () {
    const live = finishedTurn(0, undefined);
    await harness.send(live.started, { type: "context", context: { used: 1200, size: 200_000 }, cost: null });
    await harness.page.waitForFunction(() => document.querySelector(".usage-meter-figures")?.textContent !== "");
    assert.equal(await meter().isVisible(), true);
    assert.equal(await meter().locator(".usage-meter-figures").textContent(), "<1% of 200k context");
    assert.equal(await meter().getAttribute("title"), "Session usage: 1,200 of 200,000 context tokens used (<1%)");
  });

  it("wraps the header's figures between them in a narrow side bar, never inside one, each dot ending its row", async function () {
    await harness.page.setViewportSize({ width: 180, height: 600 });
    try {
      await harness.send(snapshotOf([finishedTurn(0, CLAUDE_TURN)]));
      const pieces = await meter()
        .locator(".usage-meter-fact")
        .evaluateAll((facts) => facts.map((fact) => ({ text: fact.textContent, lines: fact.getClientRects().length, top: fact.getBoundingClientRect().top })));
      assert.deepEqual(pieces.map((piece) => piece.text), ["1.2k in ·", "340 out ·", "$0.0174 ·", "23% of 200k context"]);
      assert.ok(pieces.every((piece) => piece.lines === 1), `a figure broke across lines: ${JSON.stringify(pieces)}`);
      assert.ok(new Set(pieces.map((piece) => piece.top)).size > 1, `at 180 px the figures take more than one row: ${JSON.stringify(pieces)}`);
    } finally {
      await harness.page.setViewportSize({ width: 900, height: 600 });
    }
  });

  it("shows the session's tokens in the header for an agent that says no cost and no context", async function () {
    await harness.send(snapshotOf([finishedTurn(0, figures({ inputTokens: 360, outputTokens: 17 })), finishedTurn(1, figures({ inputTokens: 1200, outputTokens: 40 }))]));
    assert.equal(await meter().locator(".usage-meter-figures").textContent(), "1.6k in · 57 out");
  });

  it("leaves the session's title room beside it in a narrow sidebar", async function () {
    await harness.page.setViewportSize({ width: 280, height: 600 });
    try {
      await harness.send(snapshotOf([finishedTurn(0, CLAUDE_TURN)]));
      const width = (selector: string) => harness.page.locator(selector).evaluate((node) => node.getBoundingClientRect().width);
      const widths = await harness.page.locator(".session-header > *").evaluateAll((nodes) => nodes.map((n) => `${n.className}=${Math.round(n.getBoundingClientRect().width)}`).join(" "));
      // Without the meter's bound the title got no room at all beside it.
      assert.ok((await width(".session-title")) >= 30, `the title keeps some room: ${widths}`);
      assert.ok((await width(".usage-meter")) > 0);
    } finally {
      await harness.page.setViewportSize({ width: 900, height: 600 });
    }
  });

  it("is not shown for a session whose agent says no usage, whose footers keep their token count", async function () {
    await harness.send(snapshotOf([finishedTurn(0, undefined, 1834)]));
    assert.equal(await meter().isVisible(), false);
    assert.deepEqual(await footerFacts(0), ["1.2 s", "no tools", "1,834 tokens"]);
  });
});
