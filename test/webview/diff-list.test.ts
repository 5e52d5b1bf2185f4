// A tool card that changed many files: the chat shows the first hundred and counts the rest, works each file out
// once and without freezing, and keeps what the user opened while the card updates.
import * as assert from "node:assert/strict";
import type { ToolCard, ToolDiff } from "../../src/protocol/transcript";
import { WebviewHarness, type TestHostMessage } from "../helpers/webview-harness";
import { toolBlock, turnWith } from "../helpers/turn-builder";

declare global {
  interface Window {
    __longestTask?: number;
    __firstFile?: Element | null;
  }
}

/** A file whose every line changed. */
function rewritten(index: number, lines: number): ToolDiff {
  const text = (prefix: string) => Array.from({ length: lines }, (_, i) => `${prefix}${i}`).join("\n") + "\n";
  return { path: `/w/src/file${index}.ts`, oldText: text("o"), newText: text("n") };
}

function edit(diffs: ToolDiff[]): ToolCard {
  return toolBlock({ tool: "edit", toolKind: "edit", title: "Edit the files", status: "running", diffs });
}

const snapshot = (card: ToolCard): TestHostMessage => ({ type: "snapshot", turns: [turnWith(0, [card])], restriction: null });
const updated = (card: ToolCard): TestHostMessage => ({ type: "changes", turnId: 0, changes: [{ kind: "block-updated", index: 0, block: card }] });

describe("webview: the files a tool changed", function () {
  let harness: WebviewHarness;

  before(async function () {
    harness = await WebviewHarness.open({ viewport: { width: 480, height: 800 } });
  });

  after(async function () {
    await harness?.close();
  });

  beforeEach(async function () {
    await harness.send({ type: "snapshot", turns: [], restriction: null });
  });

  const files = () => harness.page.locator(".tool-card .diff-file");

  /** Until every file shown has its counts. */
  async function counted(): Promise<void> {
    await harness.page.waitForFunction(() => Array.from(document.querySelectorAll(".diff-file")).every((file) => file.querySelector(".diff-added") !== null));
  }

  it("shows the first hundred files and counts the rest", async function () {
    await harness.send(snapshot(edit(Array.from({ length: 105 }, (_, i) => rewritten(i, 2)))));
    await harness.page.locator(".diff-more").waitFor();
    assert.equal(await files().count(), 100);
    assert.equal(await harness.page.locator(".diff-more").textContent(), "… and 5 more changed files, not shown");
    await counted();
    assert.deepEqual(await files().nth(99).locator(".diff-counts [aria-hidden]").allTextContents(), ["+2", "−2"]);
  });

  it("shows a card of 300 files of 1,000 changed lines each without a task of seconds (it took over ten)", async function () {
    await harness.page.evaluate(() => {
      window.__longestTask = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__longestTask = Math.max(window.__longestTask ?? 0, entry.duration);
      }).observe({ type: "longtask" });
    });
    await harness.send(snapshot(edit(Array.from({ length: 300 }, (_, i) => rewritten(i, 1000)))));
    await files().first().waitFor();
    await counted();
    await harness.frames(2);
    assert.deepEqual(await files().first().locator(".diff-counts [aria-hidden]").allTextContents(), ["+1000", "−1000"]);
    const longest = await harness.page.evaluate(() => window.__longestTask ?? 0);
    assert.ok(longest < 2000, `the longest task took ${longest.toFixed(0)} ms`);
  });

  it("keeps a file's item and its open preview when the card updates with another file changed", async function () {
    const diffs = [rewritten(0, 3), rewritten(1, 3)];
    await harness.send(snapshot(edit(diffs)));
    const first = files().first();
    await first.locator(".diff-preview summary").click();
    assert.equal(await first.locator(".diff-preview pre").textContent(), "- o0\n- o1\n- o2\n+ n0\n+ n1\n+ n2");
    await first.evaluate((node) => (window.__firstFile = node));
    await harness.send(updated(edit([diffs[0]!, rewritten(7, 3)])));
    await harness.page.locator(".diff-path[title='/w/src/file7.ts']").waitFor();
    assert.equal(await first.evaluate((node) => node === window.__firstFile && (node.querySelector(".diff-preview") as HTMLDetailsElement).open), true);
  });

  it("makes a file's preview when it is first opened", async function () {
    await harness.send(snapshot(edit([rewritten(0, 2)])));
    const preview = files().first().locator(".diff-preview");
    await preview.waitFor();
    assert.equal(await preview.locator("pre").textContent(), "");
    await preview.locator("summary").click();
    assert.equal(await preview.locator("pre").textContent(), "- o0\n- o1\n+ n0\n+ n1");
  });
});
