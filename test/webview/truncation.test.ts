// A text the session kept only the start of: the chat says, under it, how much more there was.
import * as assert from "node:assert/strict";
import type { Turn } from "../../src/protocol/messages";
import { WebviewHarness, type TestHostMessage } from "../helpers/webview-harness";

const DONE = { exitCode: 0, durationMs: 5, toolsUsed: [], tokensUsed: null, success: true, synthesized: false, usage: null };

function turn(blocks: Turn["blocks"], finished: boolean): Turn {
  return {
    id: 0,
    prompt: "Write a very long answer",
    agent: "Locus",
    state: finished ? "completed" : "streaming",
    blocks,
    problems: [],
    done: finished ? DONE : null,
    status: finished ? "completed" : null,
    context: null,
    origin: "prompt",
  };
}

describe("webview: a text cut at its size limit", function () {
  let harness: WebviewHarness;

  before(async function () {
    harness = await WebviewHarness.open({ viewport: { width: 420, height: 500 } });
  });

  after(async function () {
    await harness?.close();
  });

  const note = () => harness.page.locator(".turn .answer-text .truncated-note");

  it("says how many characters were not shown while the answer streams, and the final count at its end", async function () {
    await harness.send({ type: "snapshot", turns: [], restriction: null }, { type: "turn-started", turn: turn([], false) });
    const changes: TestHostMessage[] = [
      { type: "changes", turnId: 0, changes: [{ kind: "block-added", index: 0, block: { kind: "text", text: "The start of a long answer" } }] },
      { type: "changes", turnId: 0, changes: [{ kind: "text-truncated", index: 0, truncatedChars: 1_048_576 }] },
    ];
    await harness.sendOverFrames(changes);
    await harness.page.waitForFunction(() => document.querySelector(".truncated-note")?.textContent === "… 1,048,576 more characters not shown");

    await harness.send({
      type: "changes",
      turnId: 0,
      changes: [
        { kind: "text-truncated", index: 0, truncatedChars: 612_345_678 },
        { kind: "done", done: DONE, status: "completed" },
      ],
    });
    await harness.page.waitForFunction(() => document.querySelector(".truncated-note")?.textContent === "… 612,345,678 more characters not shown");
    assert.equal(await note().count(), 1);
    assert.match(await harness.page.locator(".turn .answer-text").innerText(), /The start of a long answer\s*… 612,345,678 more characters not shown$/);
  });

  it("shows the note of a cut text and a cut thinking block in a snapshot after a reload", async function () {
    await harness.reload();
    await harness.send({
      type: "snapshot",
      turns: [
        turn(
          [
            { kind: "thinking", text: "Thinking at length", truncatedChars: 1 },
            { kind: "text", text: "An answer", truncatedChars: 42 },
          ],
          true,
        ),
      ],
      restriction: null,
    });
    await note().waitFor();
    assert.equal(await note().textContent(), "… 42 more characters not shown");
    assert.equal(await harness.page.locator(".turn .thinking-text .truncated-note").textContent(), "… 1 more character not shown");
  });
});
