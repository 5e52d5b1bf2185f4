// Answers built against the webview's own patterns render at once: those patterns do work linear in the answer.
// (Most of the time measured is markdown-it's and the page's, which no pattern of ours makes grow faster.)
import * as assert from "node:assert/strict";
import { performance } from "node:perf_hooks";
import type { Turn } from "../../src/protocol/messages";
import { HOSTILE_CHARS } from "../helpers/hostile-text";
import { WebviewHarness } from "../helpers/webview-harness";
import { WEBVIEW_HOSTILE_TEXTS } from "./hostile-text-cases";

/** Rendering a megabyte of markdown takes a few hundred milliseconds here; quadratic work on it would take hours. */
const BOUND_MS = 5000;

function answered(text: string): Turn {
  return {
    id: 0,
    prompt: "hostile",
    agent: "Locus",
    state: "completed",
    blocks: [{ kind: "text", text }],
    problems: [],
    done: { exitCode: 0, durationMs: 5, toolsUsed: [], tokensUsed: null, success: true, synthesized: false, usage: null },
    status: "completed",
    context: null,
    origin: "prompt",
  };
}

describe("webview: answers of a megabyte built against its patterns", function () {
  let harness: WebviewHarness;

  before(async function () {
    harness = await WebviewHarness.open();
  });

  after(async function () {
    await harness?.close();
  });

  for (const attack of WEBVIEW_HOSTILE_TEXTS) {
    it(`renders ${attack.name} in well under ${BOUND_MS / 1000} s`, async function () {
      await harness.send({ type: "snapshot", turns: [], restriction: null });
      const started = performance.now();
      await harness.send({ type: "snapshot", turns: [answered(attack.markdown(HOSTILE_CHARS))], restriction: null });
      await harness.page.locator(attack.rendered).first().waitFor({ timeout: BOUND_MS * 2 });
      const tookMs = performance.now() - started;
      assert.ok(tookMs < BOUND_MS, `${attack.name} took ${Math.round(tookMs)} ms`);
    });
  }

  it("posts a click on the megabyte-long link as an openLink with its whole address", async function () {
    const markdown = WEBVIEW_HOSTILE_TEXTS[0].markdown(HOSTILE_CHARS);
    await harness.send({ type: "snapshot", turns: [answered(markdown)], restriction: null });
    await harness.clearIntents();
    await harness.page.locator(".answer-text a").first().click();
    const intents = await harness.intents();
    assert.deepEqual(
      intents.map((intent) => (intent.type === "openLink" ? [intent.type, intent.url.length] : [intent.type])),
      [["openLink", "https://".length + HOSTILE_CHARS]],
    );
  });
});
