// A reopened session of hundreds of kilobytes: its snapshot is painted from the end back, in slices of the main
// thread, and must end exactly as the same session streamed, whatever arrives while it paints.
import * as assert from "node:assert/strict";
import type { CliStreamEvent } from "../../src/protocol/events";
import * as cli from "../helpers/stream-builder";
import { WebviewHarness, type TestHostMessage } from "../helpers/webview-harness";
import { changeMessages, deltas, recordTurn, snapshotOf, type RecordedTurn } from "./conversations";

declare global {
  interface Window {
    __firstTask?: { busy: boolean; lastSegmentText: string; emptySegments: number; segments: number };
    __changesArrived?: { busy: boolean }[];
  }
}

const EMPTY: TestHostMessage = { type: "snapshot", turns: [], restriction: null };

/** About `kilobytes` of an agent's answer: prose, lists, code, a link reference defined at the end. */
function longAnswer(kilobytes: number, seed: string): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < kilobytes * 1024; i++) {
    let part: string;
    if (i % 7 === 3) part = "```ts\n" + Array.from({ length: 8 }, (_, line) => `const ${seed}${i}_${line} = load(${line}, "${seed}");`).join("\n") + "\n```";
    else if (i % 5 === 1) part = Array.from({ length: 4 }, (_, item) => `- item ${item} of ${seed} ${i}: see [the notes][notes] and \`cache.get\``).join("\n");
    else part = `Paragraph ${i} of ${seed}: the request handler reads the token from the cache before **refresh**, so the verify call sees a stale value.`;
    parts.push(part);
    length += part.length + 2;
  }
  parts.push(`The end of ${seed}.`, "[notes]: https://example.com/notes");
  return parts.join("\n\n") + "\n";
}

/** A long turn: text, a tool call, more text; deltas of `size` characters. */
function longTurnSteps(kilobytes: number, seed: string, size: number): CliStreamEvent[] {
  const text = longAnswer(kilobytes, seed);
  const half = text.indexOf("\n\n", Math.floor(text.length / 2)) + 2;
  return [
    cli.start(),
    ...deltas(text.slice(0, half), size),
    cli.toolStarted("read_file", `${seed}-read`, { path: "src/auth.ts" }),
    cli.toolCompleted("read_file", `${seed}-read`, { duration: 12 }),
    ...deltas(text.slice(half), size),
  ];
}

describe("webview: reopening a long session", function () {
  let harness: WebviewHarness;

  before(async function () {
    harness = await WebviewHarness.open({ viewport: { width: 420, height: 600 } });
  });

  after(async function () {
    await harness?.close();
  });

  beforeEach(async function () {
    await harness.send(EMPTY);
    await harness.frames(1);
  });

  const turnsHtml = () => harness.page.locator(".turn").evaluateAll((turns) => turns.map((turn) => turn.innerHTML));

  async function streamLive(turns: readonly RecordedTurn[]): Promise<void> {
    for (const turn of turns) {
      await harness.send(turn.started);
      await harness.sendOverFrames(changeMessages(turn, 200), 4);
    }
    await harness.page.locator(".turn-footer").nth(turns.length - 1).waitFor();
    await harness.frames(2);
  }

  it("paints the end of a long answer before the rest, which follows in later tasks", async function () {
    const turn = recordTurn(0, "long", [...longTurnSteps(300, "a", 4000), cli.done()]);
    await harness.page.evaluate((snapshot) => {
      // Looks at the page after each task that changed it, until the answer's end is there.
      const observer = new MutationObserver(() => {
        const answers = document.querySelectorAll(".turn .answer-text");
        const end = (answers[answers.length - 1]?.textContent ?? "").trim();
        if (!end.endsWith("The end of a.")) return;
        observer.disconnect();
        const segments = Array.from(document.querySelectorAll(".turn .answer-text .markdown-chunk > .markdown-segment"));
        window.__firstTask = {
          busy: document.querySelector(".transcript")?.getAttribute("aria-busy") === "true",
          lastSegmentText: end,
          emptySegments: segments.filter((segment) => segment.childNodes.length === 0).length,
          segments: segments.length,
        };
      });
      observer.observe(document.querySelector(".transcript")!, { childList: true, subtree: true });
      window.postMessage(snapshot, "*");
    }, snapshotOf([turn]));
    await harness.page.waitForFunction(() => window.__firstTask !== undefined);
    const first = await harness.page.evaluate(() => window.__firstTask!);
    assert.ok(first.emptySegments > first.segments / 2, `most of the answer waits for later tasks (${first.emptySegments} of ${first.segments} segments empty)`);
    assert.equal(first.busy, true, "the transcript says it is still being painted");

    await harness.frames(1);
    const fences = longAnswer(300, "a").split("```ts").length - 1;
    assert.equal(await harness.page.locator(".turn .code-block").count(), fences);
    assert.match(await harness.page.locator(".turn .answer-text").first().innerText(), /^Paragraph 0 of a:/);
  });

  it("ends a long session painted in slices with the same page as the same session streamed", async function () {
    const turns = [recordTurn(0, "first", [...longTurnSteps(120, "b", 1500), cli.done()]), recordTurn(1, "second", [...longTurnSteps(120, "c", 1500), cli.done()])];
    await streamLive(turns);
    const streamed = await turnsHtml();
    assert.match(streamed[0], /href="https:\/\/example.com\/notes"/, "the reference defined at the end resolves above it");

    await harness.send(snapshotOf(turns));
    await harness.frames(2);
    assert.deepEqual(await turnsHtml(), streamed);
  });

  it("lands changes that arrive while a snapshot is still painting where they belong", async function () {
    const steps = [...longTurnSteps(200, "d", 3000), cli.textDelta("\n\nOne more paragraph, written after the reload."), cli.done()];
    const whole = recordTurn(1, "second", steps);
    const before = recordTurn(1, "second", steps.slice(0, -2));
    const earlier = recordTurn(0, "first", [...longTurnSteps(100, "e", 3000), cli.done()]);
    const rest = changeMessages(whole).slice(before.changes.length);
    assert.ok(rest.length >= 2, "something arrives after the snapshot");

    await harness.page.evaluate(
      ([snapshot, changes]) => {
        window.__changesArrived = [];
        const record = (event: MessageEvent<{ type?: string }>) => {
          if (event.data?.type === "changes") window.__changesArrived!.push({ busy: document.querySelector(".transcript[aria-busy]") !== null });
        };
        window.addEventListener("message", record);
        window.postMessage(snapshot, "*");
        for (const change of changes) window.postMessage(change, "*");
      },
      [snapshotOf([earlier, before]), rest] as const,
    );
    await harness.page.locator(".turn-footer").nth(1).waitFor();
    await harness.frames(2);
    const arrived = await harness.page.evaluate(() => window.__changesArrived!);
    assert.ok(arrived.length > 0 && arrived.every((change) => change.busy), "the changes arrived while the snapshot was still painting");
    const painted = await turnsHtml();

    await harness.send(snapshotOf([earlier, whole]));
    await harness.frames(2);
    assert.deepEqual(painted, await turnsHtml());
    assert.match(painted[1], /One more paragraph, written after the reload\./);
  });

  it("keeps the end of a long session in view while the turns above it are painted", async function () {
    const turns = [recordTurn(0, "first", [...longTurnSteps(150, "f", 5000), cli.done()]), recordTurn(1, "second", [...longTurnSteps(150, "g", 5000), cli.done()])];
    await harness.send(snapshotOf(turns));
    await harness.frames(2);
    const place = await harness.page.evaluate(() => {
      const transcript = document.querySelector(".transcript")!;
      return { fromEnd: transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight, height: transcript.scrollHeight };
    });
    assert.ok(place.height > 50_000, "the session is many screens long");
    assert.ok(place.fromEnd <= 24, `the view is at the end (${place.fromEnd} px from it)`);
  });

  it("returns to where the user had scrolled to in a long session once the turns above it are painted", async function () {
    const turns = [recordTurn(0, "first", [...longTurnSteps(150, "h", 5000), cli.done()]), recordTurn(1, "second", [...longTurnSteps(150, "i", 5000), cli.done()])];
    await harness.send(snapshotOf(turns));
    await harness.frames(2);
    await harness.page.evaluate(() => (document.querySelector(".transcript")!.scrollTop = 20_000));
    await harness.page.waitForFunction(() => JSON.parse(sessionStorage.getItem("__vscodeState") ?? "{}").scrollTop === 20_000);
    await harness.reload();
    await harness.send(snapshotOf(turns));
    await harness.frames(2);
    assert.equal(await harness.page.evaluate(() => document.querySelector(".transcript")!.scrollTop), 20_000);
    // The next test starts from the end again.
    await harness.page.evaluate(() => sessionStorage.removeItem("__vscodeState"));
  });
});
