// What a stream CLI's tool cards show, from a real recording (Claude Code 2.1.330 editing files, run against the mock
// model) read by the same adapter and session as the chat: each edit's file with +N −M and Open Diff, what each
// command printed folded until opened, and a code fence in that output shown as the text it is; and pi's edit, known
// only by the part it replaced, said to be that part.
import * as assert from "node:assert/strict";
import { createAdapter } from "../../src/dialects/registry";
import type { Transcript } from "../../src/protocol/transcript";
import { fixture, transcriptOf } from "../helpers/dialect-harness";
import { turnWith } from "../helpers/turn-builder";
import { WebviewHarness } from "../helpers/webview-harness";

describe("webview: a stream CLI's edit and command cards", function () {
  let harness: WebviewHarness;
  let transcript: Transcript;

  before(async function () {
    transcript = await transcriptOf(fixture("claude-recorded/2.1.330", "tool-edit.ndjson"), createAdapter("claude"));
    harness = await WebviewHarness.open({ viewport: { width: 480, height: 900 } });
    await harness.send({ type: "snapshot", turns: [turnWith(0, transcript.blocks, { done: true })], restriction: null });
    await harness.page.locator(".tool-card").nth(6).waitFor();
  });

  after(async function () {
    await harness?.close();
  });

  const card = (name: string) => harness.page.locator(".tool-card", { has: harness.page.locator(".tool-name", { hasText: new RegExp(`^${name}$`) }) });

  it("shows an Edit's file with +N −M and Open Diff, and its whole-file change when opened", async function () {
    const edit = card("Edit");
    const header = edit.locator(".diff-header");
    await header.locator(".diff-added").waitFor();
    assert.deepEqual(
      await header.evaluate((h) => [h.querySelector(".diff-name")!.textContent, h.querySelector(".diff-added")!.textContent, h.querySelector(".diff-removed")!.textContent]),
      ["notes.txt", "+1", "−1"],
    );
    await edit.locator(".diff-preview summary").click();
    assert.equal(await edit.locator(".diff-preview pre").textContent(), "- Remember: the build is green.\n+ Remember: the build is red.\n  Second line: ünïcødé ✓");
    await harness.clearIntents();
    await edit.getByRole("button", { name: /^Open Diff of .*notes\.txt$/ }).click();
    const editIndex = transcript.blocks.findIndex((block) => block.kind === "tool" && block.tool === "Edit");
    assert.deepEqual(await harness.intents(), [{ type: "openDiff", turnId: 0, blockIndex: editIndex, diffIndex: 0 }]);
  });

  it("shows a Write of a new file as a new file", async function () {
    const write = card("Write");
    await write.locator(".diff-added").waitFor();
    assert.equal(await write.locator(".diff-added").textContent(), "+3");
    assert.equal(await write.locator(".diff-preview summary").textContent(), "New file");
  });

  it("folds a command's output until opened, and shows a code fence in it as text", async function () {
    const output = card("Bash").locator("details.tool-output");
    assert.equal(await output.evaluate((d) => (d as HTMLDetailsElement).open), false, "output starts folded");
    assert.equal(await output.locator("summary").textContent(), "Output (5 lines)");
    await output.locator("summary").click();
    assert.equal(await output.locator("pre").textContent(), "Before\n```ts\nconst x = 1;\n```\nAfter");
    assert.equal(await output.locator("pre code, pre pre, .code-block").count(), 0, "no code block made of the fence");
  });

  it("shows an image a tool returned as one line, never its data", async function () {
    const image = card("Read").last().locator("details.tool-output");
    await image.locator("summary").click();
    assert.equal(await image.locator("pre").textContent(), "[image: image/png, not shown]");
    assert.equal(await harness.page.locator("img").count(), 0);
  });

  // Last: it shows another recording in place of Claude Code's.
  it("says of pi's edit, known only by the part it replaced, that its diff is that part", async function () {
    const pi = await transcriptOf(fixture("pi-recorded/0.73.1", "tool-edit.ndjson"), createAdapter("pi"));
    await harness.send({ type: "snapshot", turns: [turnWith(1, pi.blocks, { done: true })], restriction: null });
    const edit = card("edit");
    await edit.locator(".diff-added").waitFor();
    assert.deepEqual(await edit.locator(".diff-counts").evaluate((counts) => [counts.querySelector(".diff-added")!.textContent, counts.querySelector(".diff-removed")!.textContent]), ["+1", "−1"]);
    assert.equal(await edit.locator(".diff-preview summary").textContent(), "Changes (the replaced part only)");
  });
});
