// What leaves the webview from the transcript: web links (the host opens them) and text to copy.
import * as assert from "node:assert/strict";
import * as cli from "../helpers/stream-builder";
import { WebviewHarness } from "../helpers/webview-harness";
import { answeredTurn, recordTurn, snapshotOf, THINKING_TEXT, ANSWER_MARKDOWN } from "./conversations";

const LINKS_MARKDOWN = [
  "Read the [guide](https://example.com/guide?x=1) or https://example.org/autolinked.",
  "",
  "Not web: [settings](vscode:settings), [command](command:workbench.action.reloadWindow), [file](src/auth.ts), <mailto:a@example.com>.",
].join("\n");

describe("webview: links and copying", function () {
  let harness: WebviewHarness;
  const answered = answeredTurn(0);
  const links = recordTurn(1, "links", [cli.start(), cli.textDelta(LINKS_MARKDOWN), cli.done()]);
  const linksTurn = () => harness.page.locator(".turn").nth(1);

  before(async function () {
    harness = await WebviewHarness.open();
    await harness.send(snapshotOf([answered, links]));
    await linksTurn().waitFor();
  });

  after(async function () {
    await harness?.close();
  });

  beforeEach(async function () {
    await harness.clearIntents();
  });

  it("posts openLink with the address of a clicked web link", async function () {
    await linksTurn().getByRole("link", { name: "guide" }).click();
    assert.deepEqual(await harness.intents(), [{ type: "openLink", url: "https://example.com/guide?x=1" }]);
  });

  it("posts openLink for a bare address that was turned into a link", async function () {
    await linksTurn().getByRole("link", { name: "https://example.org/autolinked" }).click();
    assert.deepEqual(await harness.intents(), [{ type: "openLink", url: "https://example.org/autolinked" }]);
  });

  it("never navigates the webview when a link is clicked, nor opens a window on a middle click", async function () {
    const link = linksTurn().getByRole("link", { name: "guide" });
    await link.click();
    await link.click({ button: "middle" });
    await harness.frames(2);
    assert.deepEqual(harness.navigations, []);
    assert.equal(harness.page.url(), `${harness.origin}/`);
    assert.equal(harness.page.context().pages().length, 1);
  });

  it("leaves links to non-web addresses as plain text without an href", async function () {
    const anchors = await linksTurn().locator(".answer-text a").evaluateAll((nodes) => nodes.map((a) => [a.textContent, a.getAttribute("href")]));
    assert.deepEqual(anchors, [
      ["guide", "https://example.com/guide?x=1"],
      ["https://example.org/autolinked", "https://example.org/autolinked"],
      ["settings", null],
      ["command", null],
      ["file", null],
      ["mailto:a@example.com", null],
    ]);
  });

  it("posts nothing when a link to a non-web address is clicked", async function () {
    await linksTurn().locator(".answer-text a", { hasText: "command" }).click();
    await linksTurn().locator(".answer-text a", { hasText: "settings" }).click();
    assert.deepEqual(await harness.intents(), []);
  });

  it("opens a focused web link with Enter from the keyboard", async function () {
    await linksTurn().getByRole("link", { name: "guide" }).focus();
    await harness.page.keyboard.press("Enter");
    assert.deepEqual(await harness.intents(), [{ type: "openLink", url: "https://example.com/guide?x=1" }]);
  });

  it("posts a code block's code from its copy button", async function () {
    await harness.page.locator(".turn").nth(0).getByRole("button", { name: "Copy code" }).click();
    const code = ANSWER_MARKDOWN.split("```ts\n")[1].split("```")[0];
    assert.deepEqual(await harness.intents(), [{ type: "copy", text: code }]);
  });

  it("posts the whole answer as markdown: thinking quoted, tool lines, the text, no status", async function () {
    await harness.page.locator(".turn").nth(0).getByRole("button", { name: "Copy answer as markdown" }).click();
    const expected = [
      THINKING_TEXT.split("\n").map((line, i) => (i === 0 ? `> 💭 ${line}` : `> ${line}`)).join("\n"),
      "✓ **Read** `/src/auth/middleware.ts` succeeded (42 ms)",
      "✓ **Grep** `/src` succeeded (1.3 s)",
      "✗ **Read** `/src/auth/missing.ts` failed (5 ms) — ENOENT: no such file or directory",
      ANSWER_MARKDOWN,
    ].join("\n\n") + "\n";
    const [intent] = await harness.intents();
    assert.deepEqual(intent, { type: "copy", text: expected });
  });

  it("gives every button a name a screen reader can read", async function () {
    const unnamed = await harness.page.locator("button").evaluateAll((buttons) =>
      buttons.filter((b) => (b.getAttribute("aria-label") ?? "").trim() === "").map((b) => b.outerHTML),
    );
    assert.deepEqual(unnamed, []);
  });

  it("reaches a turn's buttons with the Tab key", async function () {
    await harness.page.getByRole("region", { name: "Conversation" }).focus();
    const reached: string[] = [];
    for (let i = 0; i < 12; i++) {
      await harness.page.keyboard.press("Tab");
      reached.push(await harness.page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent ?? ""));
    }
    assert.ok(reached.includes("Copy answer as markdown"), reached.join(" | "));
    assert.ok(reached.includes("Copy code"), reached.join(" | "));
  });
});
