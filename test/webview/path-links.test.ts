// Paths in answers become links that open the file at its line, but only those the host says are workspace files:
// the page asks (`checkPaths`), the host answers (`pathsChecked`), and everything else stays text.
import * as assert from "node:assert/strict";
import * as cli from "../helpers/stream-builder";
import { toolBlock, turnWith } from "../helpers/turn-builder";
import { WebviewHarness } from "../helpers/webview-harness";
import { recordTurn, snapshotOf } from "./conversations";

const ANSWER = [
  "The bug is in `src/auth.ts:42`; see also @src/cache.ts and README.md#L7.",
  "",
  "Not files: e.g. Node.js, version v1.2, https://example.com/a.ts, 3.14 and src/missing.ts:9.",
  "",
  "```ts",
  "import { x } from \"src/auth.ts\";",
  "```",
  "",
].join("\n");

describe("webview: paths in answers", function () {
  let harness: WebviewHarness;

  before(async function () {
    harness = await WebviewHarness.open();
    await harness.send(snapshotOf([recordTurn(0, "Where is the bug?", [cli.start(), cli.textDelta(ANSWER), cli.done()])]));
    await harness.page.locator(".answer-text").waitFor();
  });

  after(async function () {
    await harness?.close();
  });

  it("asks the host once about what looks like a path, never about code blocks, links, numbers or versions", async function () {
    const asked = await harness.waitForIntent("checkPaths");
    assert.deepEqual([...asked.paths].sort(), ["Node.js", "README.md", "e.g", "src/auth.ts", "src/cache.ts", "src/missing.ts"].sort());
  });

  it("links only the paths the host found, at their lines; the rest stays text", async function () {
    const asked = await harness.waitForIntent("checkPaths");
    await harness.send({ type: "pathsChecked", checked: asked.paths, found: ["src/auth.ts", "README.md"] });
    const links = harness.page.locator(".answer-text .path-link");
    await links.nth(1).waitFor();
    assert.deepEqual(await links.allTextContents(), ["src/auth.ts:42", "README.md#L7"]);
    assert.equal(await harness.page.locator(".answer-text [role=link]", { hasText: "src/cache.ts" }).count(), 0);
    assert.equal(await harness.page.locator("pre .path-candidate").count(), 0, "code blocks are left as written");
    assert.equal(await harness.page.locator(".answer-text code .path-link").count(), 1, "a code span's path is a link too");
  });

  it("opens a link at its line by click and by Enter", async function () {
    await harness.clearIntents();
    await harness.page.locator(".path-link", { hasText: "src/auth.ts:42" }).click();
    assert.deepEqual(await harness.intents(), [{ type: "openPath", path: "src/auth.ts", line: 42 }]);
    await harness.clearIntents();
    await harness.page.locator(".path-link", { hasText: "README.md#L7" }).focus();
    await harness.page.keyboard.press("Enter");
    assert.deepEqual(await harness.intents(), [{ type: "openPath", path: "README.md", line: 7 }]);
  });

  it("links a path at once in a later answer, without asking again, and a tool card's place too", async function () {
    await harness.clearIntents();
    const tool = toolBlock({ status: "succeeded", locations: [{ path: "src/auth.ts", line: 3 }] });
    await harness.send({ type: "snapshot", turns: [turnWith(1, [tool, { kind: "text", text: "Fixed src/auth.ts.", truncatedChars: 0 }], { done: true })], restriction: null });
    await harness.page.locator(".answer-text .path-link").waitFor();
    assert.equal(await harness.page.locator(".tool-location .path-link").textContent(), "src/auth.ts:3");
    await harness.frames(2);
    assert.deepEqual((await harness.intents()).filter((intent) => intent.type === "checkPaths"), []);
  });
});
