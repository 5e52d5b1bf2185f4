// The composer: Enter sends, Shift+Enter and IME confirmations do not; Stop and New Session; Restricted Mode.
import * as assert from "node:assert/strict";
import * as cli from "../helpers/stream-builder";
import { WebviewHarness, type TestHostMessage } from "../helpers/webview-harness";
import { answeredTurn, recordTurn, snapshotOf } from "./conversations";

const EMPTY: TestHostMessage = { type: "snapshot", turns: [], restriction: null };
const RESTRICTED = "Restricted Mode: this workspace is not trusted, so Agent Stream runs no agent CLI here.";

describe("webview: the composer", function () {
  let harness: WebviewHarness;
  const input = () => harness.page.getByRole("textbox", { name: "Message to the agent" });

  before(async function () {
    harness = await WebviewHarness.open();
  });

  after(async function () {
    await harness?.close();
  });

  beforeEach(async function () {
    await harness.send(EMPTY);
    await harness.page.locator(".turn").first().waitFor({ state: "detached" });
    await input().fill("");
    await harness.clearIntents();
  });

  /** A keydown Enter as the browser sends it while an input method is composing. */
  async function pressComposingEnter(init: { isComposing?: boolean; keyCode?: number }): Promise<void> {
    await input().evaluate((node, options) => {
      node.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", code: "Enter", bubbles: true, cancelable: true, ...options }));
    }, init);
  }

  it("sends the prompt with Enter and empties the box", async function () {
    await input().fill("Explain the token cache");
    await input().press("Enter");
    assert.deepEqual(await harness.intents(), [{ type: "send", prompt: "Explain the token cache" }]);
    assert.equal(await input().inputValue(), "");
  });

  it("sends the prompt with the Send button", async function () {
    await input().fill("Explain it again");
    await harness.page.getByRole("button", { name: "Send (Enter)" }).click();
    assert.deepEqual(await harness.intents(), [{ type: "send", prompt: "Explain it again" }]);
  });

  it("starts a new line with Shift+Enter and sends nothing", async function () {
    await input().fill("first line");
    await input().press("Shift+Enter");
    await input().pressSequentially("second line");
    assert.equal(await input().inputValue(), "first line\nsecond line");
    assert.deepEqual(await harness.intents(), []);
  });

  it("sends nothing on Enter that confirms an IME composition (isComposing)", async function () {
    await input().fill("にほんご");
    await pressComposingEnter({ isComposing: true });
    await harness.frames(1);
    assert.deepEqual(await harness.intents(), []);
    assert.equal(await input().inputValue(), "にほんご");
  });

  it("sends nothing on Enter with keyCode 229 (a key the IME is still handling)", async function () {
    await input().fill("한국어");
    await pressComposingEnter({ keyCode: 229 });
    await harness.frames(1);
    assert.deepEqual(await harness.intents(), []);
  });

  it("sends nothing for a prompt of only spaces and new lines", async function () {
    await input().fill("  \n  ");
    await input().press("Enter");
    assert.deepEqual(await harness.intents(), []);
  });

  it("posts stop from the Stop button while a turn runs, and shows Send again when it ends", async function () {
    const turn = recordTurn(0, "work", [cli.start(), cli.textDelta("working"), cli.done()]);
    await harness.send(turn.started, { type: "changes", turnId: 0, changes: turn.changes.slice(0, 2) });
    const stop = harness.page.getByRole("button", { name: "Stop" });
    await stop.waitFor();
    await stop.click();
    assert.deepEqual(await harness.intents(), [{ type: "stop" }]);
    await harness.send({ type: "changes", turnId: 0, changes: turn.changes.slice(2) });
    await stop.waitFor({ state: "hidden" });
    assert.equal(await harness.page.getByRole("button", { name: "Send (Enter)" }).isVisible(), true);
  });

  it("queues a message typed while a turn runs: Enter hands it to the host, and the box says it will be sent after", async function () {
    const turn = recordTurn(0, "work", [cli.start(), cli.textDelta("working")]);
    await harness.send(turn.started, { type: "changes", turnId: 0, changes: turn.changes });
    await harness.page.getByRole("button", { name: "Stop" }).waitFor();
    assert.match((await input().getAttribute("placeholder")) ?? "", /^Queue a follow-up/);
    await input().fill("next question");
    await input().press("Enter");
    assert.deepEqual(await harness.intents(), [{ type: "send", prompt: "next question" }]);
    assert.equal(await input().inputValue(), "");
  });

  it("sends a message now with Ctrl+Enter while a turn runs, as the placeholder and the box's key shortcuts say", async function () {
    const turn = recordTurn(0, "work", [cli.start(), cli.textDelta("working")]);
    await harness.send(turn.started, { type: "changes", turnId: 0, changes: turn.changes });
    await harness.page.getByRole("button", { name: "Stop" }).waitFor();
    assert.match((await input().getAttribute("placeholder")) ?? "", /Ctrl\+Enter: send it now, into this turn/);
    assert.equal(await input().getAttribute("aria-keyshortcuts"), "Control+Enter");
    await input().fill("also check the docs");
    await input().press("Control+Enter");
    assert.deepEqual(await harness.intents(), [{ type: "sendNow", prompt: "also check the docs" }]);
    assert.equal(await input().inputValue(), "");
  });

  it("sends with Ctrl+Enter as with Enter when no turn runs", async function () {
    await input().fill("first question");
    await input().press("Control+Enter");
    assert.deepEqual(await harness.intents(), [{ type: "send", prompt: "first question" }]);
    assert.equal(await input().getAttribute("aria-keyshortcuts"), null);
  });

  describe("the queue", function () {
    const queue = (held = false): TestHostMessage => ({
      type: "queue",
      items: [
        { id: "q1", prompt: "then the tests", summary: null },
        { id: "q2", prompt: "and the docs", summary: "README.md" },
      ],
      held,
    });

    it("shows what waits, in order, with what each carries, and sends each change as an intent by the message's id", async function () {
      await harness.send(queue());
      const items = harness.page.getByRole("list", { name: "Queued messages" }).getByRole("listitem");
      await items.nth(1).waitFor();
      assert.deepEqual(await items.locator(".queued-text").allTextContents(), ["then the tests", "and the docs"]);
      assert.equal(await items.nth(1).locator(".queued-context").textContent(), "with README.md");
      await items.nth(1).getByRole("button", { name: "Move up" }).click();
      await items.nth(0).getByRole("button", { name: "Remove" }).click();
      await items.nth(0).getByRole("button", { name: "Send now (into the running turn, or stops it)" }).click();
      assert.deepEqual(await harness.intents(), [
        { type: "queued", action: "up", id: "q2" },
        { type: "queued", action: "remove", id: "q1" },
        { type: "queued", action: "sendNow", id: "q1" },
      ]);
      assert.equal(await items.nth(0).getByRole("button", { name: "Move up" }).isDisabled(), true);
    });

    it("puts a queued message back into the box to edit, and takes it off the queue", async function () {
      await harness.send(queue());
      await harness.page.getByRole("listitem").nth(1).getByRole("button", { name: "Edit" }).click();
      assert.equal(await input().inputValue(), "and the docs");
      assert.deepEqual(await harness.intents(), [{ type: "queued", action: "remove", id: "q2" }]);
    });

    it("says when the queue waits after a turn that did not complete, and sends it on the user's word", async function () {
      await harness.send(queue(true));
      const notice = harness.page.locator(".queue-held");
      await notice.waitFor();
      await notice.getByRole("button", { name: "Send queued messages" }).click();
      assert.deepEqual(await harness.intents(), [{ type: "resumeQueue" }]);
      await harness.send({ type: "queue", items: [], held: false });
      await harness.page.locator(".queue").waitFor({ state: "hidden" });
    });
  });

  it("posts newSession from the New Session button", async function () {
    await harness.page.getByRole("button", { name: "New Session" }).click();
    assert.deepEqual(await harness.intents(), [{ type: "newSession" }]);
  });

  it("moves to another session on its snapshot: its turns replace the other's, the header names its agent, and intents name it", async function () {
    await harness.send(snapshotOf([answeredTurn(0)]));
    await harness.page.locator(".turn").waitFor();
    const other = "00000000-0000-4000-8000-000000000002";
    await harness.send({ type: "snapshot", sessionId: other, header: { title: "Other work", agent: "Gemini CLI", otherAgent: "Claude Code" }, turns: [], restriction: null });
    await harness.page.locator(".turn").waitFor({ state: "detached" });
    assert.equal(await harness.page.locator(".session-agent").textContent(), "Gemini CLI");
    assert.equal(await harness.page.locator(".session-title").textContent(), "Other work");
    await harness.clearIntents();
    await harness.page.getByRole("button", { name: "New session with Claude Code" }).click();
    assert.deepEqual(await harness.envelopes(), [{ sessionId: other, intent: { type: "newSessionWithAgent" } }]);
  });

  it("ignores news of a session it no longer shows", async function () {
    await harness.send({ type: "snapshot", turns: [], restriction: null });
    const stale = recordTurn(0, "from the session shown before", [cli.start(), cli.textDelta("stale"), cli.done()]);
    await harness.send({ ...stale.started, sessionId: "00000000-0000-4000-8000-000000000009" });
    // What the view shows next is its own session's turn; the stale one never appeared before it.
    await harness.send(answeredTurn(1).started);
    await harness.page.locator(".turn").waitFor();
    assert.equal(await harness.page.locator(".turn").count(), 1);
    assert.ok(!(await harness.page.locator(".transcript").textContent())?.includes("from the session shown before"));
  });

  describe("keyboard", function () {
    const twoPrompts = () => snapshotOf([recordTurn(0, "first question", [cli.start(), cli.textDelta("a"), cli.done()]), recordTurn(1, "second question", [cli.start(), cli.textDelta("b"), cli.done()])]);

    it("stops the running turn with Escape from the message box", async function () {
      const turn = recordTurn(0, "work", [cli.start(), cli.textDelta("working")]);
      await harness.send(turn.started, { type: "changes", turnId: 0, changes: turn.changes });
      await harness.page.getByRole("button", { name: "Stop" }).waitFor();
      await input().focus();
      await harness.page.keyboard.press("Escape");
      assert.deepEqual(await harness.intents(), [{ type: "stop" }]);
    });

    it("leaves Escape to a card's control that has the focus, and sends nothing when no turn runs", async function () {
      const turn = recordTurn(0, "work", [cli.start(), cli.textDelta("working")]);
      await harness.send(turn.started, { type: "changes", turnId: 0, changes: turn.changes });
      await harness.page.getByRole("button", { name: "Copy answer as markdown" }).focus();
      await harness.page.keyboard.press("Escape");
      assert.deepEqual(await harness.intents(), []);
      await harness.send(EMPTY);
      await harness.page.locator(".turn").first().waitFor({ state: "detached" });
      await input().focus();
      await harness.page.keyboard.press("Escape");
      assert.deepEqual(await harness.intents(), []);
    });

    it("walks the session's earlier prompts with ↑ and ↓ from an empty box, and back to empty", async function () {
      await harness.send(twoPrompts());
      await harness.page.locator(".turn").nth(1).waitFor();
      await input().focus();
      await input().press("ArrowUp");
      assert.equal(await input().inputValue(), "second question");
      await input().press("ArrowUp");
      assert.equal(await input().inputValue(), "first question");
      await input().press("ArrowUp");
      assert.equal(await input().inputValue(), "first question");
      await input().press("ArrowDown");
      assert.equal(await input().inputValue(), "second question");
      await input().press("ArrowDown");
      assert.equal(await input().inputValue(), "");
      assert.deepEqual(await harness.intents(), []);
    });

    it("does not replace text the user typed with an earlier prompt", async function () {
      await harness.send(twoPrompts());
      await harness.page.locator(".turn").nth(1).waitFor();
      await input().fill("my own words");
      await input().press("ArrowUp");
      assert.equal(await input().inputValue(), "my own words");
      await input().fill("");
      await input().press("ArrowUp");
      await input().press("End");
      await input().pressSequentially(" again");
      await input().press("ArrowUp");
      assert.equal(await input().inputValue(), "second question again", "an edited recall is the user's text: ↑ moves the caret");
    });
  });

  describe("drafts", function () {
    const other = "00000000-0000-4000-8000-000000000003";

    it("keeps what was typed and not sent across a reload of the page", async function () {
      await input().fill("half a thought");
      await harness.reload();
      await harness.send(EMPTY);
      await harness.frames(1);
      assert.equal(await input().inputValue(), "half a thought");
      await input().fill("");
    });

    it("keeps a draft per session: moving to another session shows its own, and back again", async function () {
      await input().fill("for the first session");
      await harness.send({ type: "snapshot", sessionId: other, turns: [], restriction: null });
      await harness.frames(1);
      assert.equal(await input().inputValue(), "");
      await input().fill("for the other one");
      await harness.send(EMPTY);
      await harness.frames(1);
      assert.equal(await input().inputValue(), "for the first session");
      await harness.send({ type: "snapshot", sessionId: other, turns: [], restriction: null });
      await harness.frames(1);
      assert.equal(await input().inputValue(), "for the other one");
      await input().fill("");
      await harness.send(EMPTY);
    });

    it("forgets the draft once it is sent", async function () {
      await input().fill("send me");
      await input().press("Enter");
      await harness.reload();
      await harness.send(EMPTY);
      await harness.frames(1);
      assert.equal(await input().inputValue(), "");
    });
  });

  describe("under a restriction", function () {
    beforeEach(async function () {
      await harness.send(snapshotOf([answeredTurn(0)], RESTRICTED));
      await harness.page.locator(".restriction-banner").waitFor();
    });

    it("explains the restriction in a banner", async function () {
      assert.equal(await harness.page.locator(".restriction-banner").textContent(), RESTRICTED);
    });

    it("disables the message box and the Send button", async function () {
      assert.equal(await input().isDisabled(), true);
      assert.equal(await harness.page.getByRole("button", { name: "Send (Enter)" }).isDisabled(), true);
    });

    it("sends nothing even when Enter reaches the box", async function () {
      await input().evaluate((node: HTMLTextAreaElement) => {
        node.value = "sneaky";
        node.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
      });
      assert.deepEqual(await harness.intents(), []);
    });

    it("enables the composer again when a snapshot comes without a restriction", async function () {
      await harness.send(snapshotOf([answeredTurn(0)]));
      await harness.page.locator(".restriction-banner").waitFor({ state: "hidden" });
      assert.equal(await input().isEnabled(), true);
    });
  });
});
