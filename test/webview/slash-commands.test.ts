// `/` at the start of the composer completes the commands the session's agent takes, as the host says them.
import * as assert from "node:assert/strict";
import { WebviewHarness, type TestHostMessage } from "../helpers/webview-harness";

const EMPTY: TestHostMessage = { type: "snapshot", turns: [], restriction: null };
const COMMANDS = [
  { name: "compact", description: "Compact the conversation" },
  { name: "code-review", description: "Review the pending changes" },
  { name: "init", description: "Write a CLAUDE.md" },
  { name: "security-review", description: "" },
];

describe("webview: slash commands in the composer", function () {
  let harness: WebviewHarness;
  const input = () => harness.page.getByRole("textbox", { name: "Message to the agent" });
  const list = () => harness.page.getByRole("listbox", { name: "Slash commands" });

  before(async function () {
    harness = await WebviewHarness.open();
  });

  after(async function () {
    await harness?.close();
  });

  beforeEach(async function () {
    await harness.reload();
    await harness.send(EMPTY, { type: "commands", commands: COMMANDS });
    await input().fill("");
    await harness.clearIntents();
  });

  it("lists the agent's commands after / with their descriptions, those that start with what was typed first", async function () {
    await input().pressSequentially("/");
    await list().getByRole("option").first().waitFor();
    assert.equal(await list().getByRole("option").count(), 4);
    await input().pressSequentially("re");
    await harness.frames(1);
    assert.deepEqual(await list().locator(".command-name").allTextContents(), ["/code-review", "/security-review"]);
    assert.equal(await list().getByRole("option").first().getAttribute("title"), "Review the pending changes");
  });

  it("puts the chosen command in the box with ↓ and Enter, and sends nothing yet", async function () {
    await input().pressSequentially("/co");
    await list().getByRole("option").first().waitFor();
    await input().press("ArrowDown");
    await input().press("Enter");
    await list().waitFor({ state: "hidden" });
    assert.equal(await input().inputValue(), "/compact ");
    assert.deepEqual(await harness.intents(), []);
    await input().pressSequentially("now");
    await input().press("Enter");
    assert.deepEqual(await harness.waitForIntent("send"), { type: "send", prompt: "/compact now" });
  });

  it("offers nothing for a / that does not start the message, and closes with Escape", async function () {
    await input().pressSequentially("see a/b");
    await harness.frames(1);
    assert.equal(await list().isVisible(), false);
    await input().fill("");
    await input().pressSequentially("/in");
    await list().getByRole("option").first().waitFor();
    await input().press("Escape");
    await list().waitFor({ state: "hidden" });
    assert.equal(await input().inputValue(), "/in");
  });

  it("forgets one session's commands when the page moves to another", async function () {
    await harness.send({ type: "snapshot", sessionId: "00000000-0000-4000-8000-000000000004", turns: [], restriction: null });
    await harness.frames(1);
    await input().pressSequentially("/");
    await harness.frames(1);
    assert.equal(await list().isVisible(), false);
  });
});
