// @ in the composer: the page asks the host for matching files as the user types, shows them in a list the keyboard
// drives from the message box, turns the chosen one into a chip, and sends the chips with the prompt.
import * as assert from "node:assert/strict";
import { MAX_FILE_QUERY_CHARS, type PickedFile } from "../../src/protocol/messages";
import { WebviewHarness, type TestHostMessage } from "../helpers/webview-harness";

const EMPTY: TestHostMessage = { type: "snapshot", turns: [], restriction: null };
const FILES: PickedFile[] = [
  { path: "src/auth/middleware.ts", kind: "file", open: true },
  { path: "src/auth", kind: "folder", open: false },
  { path: "README.md", kind: "file", open: false },
];

describe("webview: @ mentions in the composer", function () {
  let harness: WebviewHarness;
  const input = () => harness.page.getByRole("textbox", { name: "Message to the agent" });
  const list = () => harness.page.getByRole("listbox", { name: "Files and folders" });

  before(async function () {
    harness = await WebviewHarness.open();
  });

  after(async function () {
    await harness?.close();
  });

  beforeEach(async function () {
    await harness.reload();
    await harness.send(EMPTY);
    // The page keeps an unsent draft across reloads: start each test from an empty box.
    await input().fill("");
    await harness.clearIntents();
  });

  /** Types, waits for the page's question about what follows the @, and answers it. */
  async function typeAndAnswer(text: string, files: PickedFile[] = FILES): Promise<void> {
    await input().pressSequentially(text);
    const asked = await harness.waitForIntent("findFiles");
    await harness.send({ type: "filesFound", requestId: asked.requestId, files });
    await list().getByRole("option").first().waitFor();
  }

  it("asks the host for what follows the @ as it is typed, and shows the answer with open files marked", async function () {
    await typeAndAnswer("look at @auth");
    const asked = (await harness.intents()).filter((intent) => intent.type === "findFiles").map((intent) => intent.type === "findFiles" && intent.query);
    assert.equal(asked.at(-1), "auth");
    assert.deepEqual(await list().getByRole("option").allTextContents(), ["src/auth/middleware.tsopen", "src/auth", "README.md"]);
    assert.equal(await input().getAttribute("aria-activedescendant"), "file-option-0");
  });

  it("drops the answer to an older question: only the latest is shown", async function () {
    await input().pressSequentially("@a");
    const first = await harness.waitForIntent("findFiles");
    await input().pressSequentially("u");
    await harness.page.waitForFunction((id) => (globalThis as unknown as { __intents: { type: string; requestId?: number }[] }).__intents.some((i) => i.type === "findFiles" && (i.requestId ?? 0) > id), first.requestId);
    await harness.send({ type: "filesFound", requestId: first.requestId, files: [{ path: "stale.ts", kind: "file", open: false }] });
    const latest = await harness.waitForIntent("findFiles");
    await harness.send({ type: "filesFound", requestId: latest.requestId, files: FILES });
    await list().getByRole("option").first().waitFor();
    assert.ok(!(await list().textContent())?.includes("stale.ts"));
  });

  it("chooses with ↓ and Enter: the @query gives way to a chip, and the prompt carries it", async function () {
    await typeAndAnswer("explain @mid");
    await input().press("ArrowDown");
    assert.equal(await input().getAttribute("aria-activedescendant"), "file-option-1");
    await input().press("Enter");
    await list().waitFor({ state: "hidden" });
    assert.equal(await input().inputValue(), "explain ");
    assert.deepEqual(await harness.page.locator(".attachment-chip").allTextContents(), ["src/auth/"]);
    await input().pressSequentially("please");
    await input().press("Enter");
    const sent = await harness.waitForIntent("send");
    assert.deepEqual(sent, { type: "send", prompt: "explain please", attachments: [{ path: "src/auth", kind: "folder" }] });
    assert.equal(await harness.page.locator(".attachment-chip").count(), 0, "the chips went with the prompt");
  });

  it("chooses by click and by Tab, never twice the same, and a chip's × removes it", async function () {
    await typeAndAnswer("@read");
    await list().getByRole("option", { name: /README\.md/ }).click();
    await typeAndAnswer(" @mid");
    await input().press("Tab");
    await typeAndAnswer(" @mid");
    await input().press("Tab");
    assert.deepEqual(await harness.page.locator(".attachment-chip").allTextContents(), ["README.md", "src/auth/middleware.ts"]);
    await harness.page.getByRole("button", { name: "Remove README.md" }).click();
    assert.deepEqual(await harness.page.locator(".attachment-chip").allTextContents(), ["src/auth/middleware.ts"]);
  });

  it("closes the list with Escape (which then stops nothing) and when the caret leaves the @word", async function () {
    await typeAndAnswer("@au");
    await input().press("Escape");
    await list().waitFor({ state: "hidden" });
    assert.equal(await input().inputValue(), "@au");
    await typeAndAnswer("x");
    await input().press("Space");
    await list().waitFor({ state: "hidden" });
    assert.deepEqual((await harness.intents()).filter((intent) => intent.type === "stop" || intent.type === "send"), []);
  });

  it("asks about as many characters after the @ as the host takes, and nothing once the word is longer", async function () {
    const longest = "a".repeat(MAX_FILE_QUERY_CHARS);
    await input().fill(`@${longest}`);
    assert.equal((await harness.waitForIntent("findFiles")).query, longest);
    await harness.clearIntents();
    await input().pressSequentially("a");
    await input().pressSequentially(" @b");
    await harness.page.waitForFunction(() => (globalThis as unknown as { __intents: { type: string; query?: string }[] }).__intents.some((i) => i.type === "findFiles" && i.query === "b"));
    const asked = (await harness.intents()).flatMap((intent) => (intent.type === "findFiles" ? [intent.query] : []));
    assert.deepEqual(asked, ["", "b"], "nothing for the longer word, then the new @ and @b");
  });

  it("does not open for an e-mail address or an @ inside a word", async function () {
    await input().pressSequentially("mail me@example.com");
    await harness.frames(2);
    assert.deepEqual((await harness.intents()).filter((intent) => intent.type === "findFiles"), []);
  });

  it("shows a selection the host attaches as a chip with its file and lines, and sends it with the prompt", async function () {
    const selection = { kind: "selection" as const, path: "src/auth.ts", lines: { start: 3, end: 9 }, text: "const x = 1;", language: "typescript" };
    await harness.send({ type: "attach", attachment: selection });
    await harness.page.locator(".attachment-chip").waitFor();
    assert.deepEqual(await harness.page.locator(".attachment-chip").allTextContents(), ["src/auth.ts:3–9"]);
    await harness.send({ type: "attach", attachment: selection });
    await harness.frames(1);
    assert.equal(await harness.page.locator(".attachment-chip").count(), 1, "the same selection once");
    await input().fill("what does this do?");
    await input().press("Enter");
    assert.deepEqual(await harness.waitForIntent("send"), { type: "send", prompt: "what does this do?", attachments: [selection] });
  });

  it("asks the host for the editor's selection from the composer's button", async function () {
    await harness.page.getByRole("button", { name: "Add Selection to Chat" }).click();
    assert.deepEqual(await harness.intents(), [{ type: "addSelection" }]);
  });
});
