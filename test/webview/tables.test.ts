// Markdown tables as agents write them: column alignment from the delimiter row must show, and without an inline
// style (the webview's CSP forbids them: each one was a CSP error and the alignment was lost).
import * as assert from "node:assert/strict";
import * as cli from "../helpers/stream-builder";
import { WebviewHarness } from "../helpers/webview-harness";
import { recordTurn, snapshotOf } from "./conversations";

const TABLE = [
  "| File | Lines | Status |",
  "|:-----|------:|:------:|",
  "| src/a.ts | 120 | changed |",
  "| src/b.ts | 7 | new |",
  "",
].join("\n");

describe("webview: markdown tables", function () {
  let harness: WebviewHarness;

  before(async function () {
    harness = await WebviewHarness.open();
    await harness.resetTraps();
    const turn = recordTurn(0, "Which files changed?", [cli.start(), cli.textDelta(TABLE), cli.done()]);
    await harness.send(snapshotOf([turn]));
    await harness.page.locator(".answer-text table").waitFor();
    await harness.frames();
  });

  after(async function () {
    await harness?.close();
  });

  it("aligns each column as its delimiter row says: left, right and centred", async function () {
    const alignments = await harness.page.locator(".answer-text table tbody tr").first().locator("td").evaluateAll((cells) =>
      cells.map((cell) => getComputedStyle(cell).textAlign),
    );
    assert.deepEqual(alignments, ["left", "right", "center"]);
    const headers = await harness.page.locator(".answer-text table th").evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell).textAlign));
    assert.deepEqual(headers, ["left", "right", "center"]);
  });

  it("renders the table without a style attribute or a CSP violation", async function () {
    assert.equal(await harness.page.locator(".answer-text [style]").count(), 0);
    assert.deepEqual(await harness.cspViolations(), []);
  });
});
