// What ACP agents show in the chat: a tool card's kind, output and changed files; a permission request answered
// from the card (mouse and keyboard); a plan that each update replaces in place.
import * as assert from "node:assert/strict";
import type { SessionChange, Turn } from "../../src/protocol/messages";
import type { TranscriptBlock } from "../../src/protocol/transcript";
import { WebviewHarness, type TestHostMessage } from "../helpers/webview-harness";
import { permissionBlock, planBlock, toolBlock, turnWith } from "../helpers/turn-builder";
import { layoutFaults } from "./layout";
import { EDIT_TOOL as EDIT, showAgentBlocks } from "./scenes";

declare global {
  interface Window {
    __planElement?: Element | null;
    __planScriptRan?: boolean;
  }
}

const EMPTY: TestHostMessage = { type: "snapshot", turns: [], restriction: null };

describe("webview: what ACP agents show", function () {
  let harness: WebviewHarness;

  before(async function () {
    harness = await WebviewHarness.open({ viewport: { width: 480, height: 800 } });
  });

  after(async function () {
    await harness?.close();
  });

  beforeEach(async function () {
    await harness.send(EMPTY);
    await harness.clearIntents();
  });

  const turn = () => harness.page.locator(".turn").last();

  /** A running turn that gains these blocks one change at a time, as the host streams them. */
  async function stream(id: number, blocks: TranscriptBlock[], more: SessionChange[] = []): Promise<void> {
    const started: Turn = turnWith(id, []);
    const added: SessionChange[] = blocks.map((block, index) => ({ kind: "block-added", index, block }));
    await harness.send({ type: "turn-started", turn: started }, { type: "changes", turnId: id, changes: [{ kind: "state", state: "streaming" }, ...added, ...more] });
  }

  /**
   * Waits until the permission card of turn `id` has the focus: until the previous test's turn is gone from the page,
   * its card may still hold it, and an Escape would answer that one.
   */
  async function cardFocusedIn(id: number): Promise<void> {
    await harness.page.waitForFunction(
      (label) => document.activeElement?.classList.contains("permission") === true && document.activeElement.closest(".turn")?.getAttribute("aria-label") === label,
      `Prompt ${id + 1}`,
    );
  }

  async function liveRegionSays(words: string): Promise<void> {
    await harness.page.waitForFunction((expected) => document.querySelector("[aria-live=polite]")?.textContent === expected, words);
  }

  it("shows a message the user sent into the running turn where it arrived, as text, under a label a screen reader reads", async function () {
    const steered = "<b>also</b> check the docs";
    await harness.send({ type: "snapshot", turns: [turnWith(4, [{ kind: "text", text: "Reading." }, { kind: "steer", text: steered }, { kind: "text", text: "And the docs." }], { done: true })], restriction: null });
    const message = turn().getByRole("group", { name: "You, while the agent worked" });
    await message.waitFor();
    assert.equal(await message.locator(".prompt-text").textContent(), steered);
    const order = await turn().locator(".answer-text, .steered-message").evaluateAll((nodes) => nodes.map((node) => (node.classList.contains("steered-message") ? "you" : node.textContent?.trim())));
    assert.deepEqual(order, ["Reading.", "you", "And the docs."]);
  });

  it("says a message sent into the turn was not taken once its run ended without it, and where it went", async function () {
    const steer: TranscriptBlock = { kind: "steer", text: "Also say it in French." };
    await stream(5, [{ kind: "text", text: "Reading." }, steer]);
    await turn().getByRole("group", { name: "You, while the agent worked" }).waitFor();
    await harness.send({
      type: "changes",
      turnId: 5,
      changes: [
        { kind: "done", done: { exitCode: 0, durationMs: 1200, toolsUsed: [], tokensUsed: null, success: true, synthesized: false, usage: null }, status: "completed" },
        { kind: "block-updated", index: 1, block: { ...steer, untaken: "sent next" } },
      ],
    });
    const untaken = turn().getByRole("group", { name: "You, while the agent worked — not taken; sent as the next message" });
    await untaken.waitFor();
    assert.equal(await untaken.locator(".turn-role").innerText(), "You, while the agent worked — not taken; sent as the next message");
    assert.equal(await untaken.locator(".prompt-text").textContent(), "Also say it in French.");
  });

  it("shows a stored turn's message that went back to the queue as not taken", async function () {
    await harness.send({ type: "snapshot", turns: [turnWith(6, [{ kind: "steer", text: "And in German.", untaken: "queued" }], { done: true })], restriction: null });
    await turn().getByRole("group", { name: "You, while the agent worked — not taken; put back in the queue" }).waitFor();
  });

  describe("a tool card", function () {
    it("keeps a long path's file name in sight in a narrow chat: the folder is cut first", async function () {
      const folder = "/tmp/agent-stream-e2e-Zx81Qa/a/very/deep/folder/that/an/agent/names/in/full/";
      const long = toolBlock({ ...EDIT, diffs: [{ path: `${folder}todo.md`, oldText: null, newText: "- one\n" }] });
      await harness.send({ type: "snapshot", turns: [turnWith(9, [long], { done: true })], restriction: null });
      const header = turn().locator(".tool-card .diff-header").first();
      await header.waitFor();
      const [name, cut, pathText, title] = await header.evaluate((h) => {
        const clipped = (e: Element) => e.scrollWidth > e.clientWidth;
        const path = h.querySelector(".diff-path")!;
        return [clipped(h.querySelector(".diff-name")!), clipped(h.querySelector(".diff-folder")!), path.textContent, path.getAttribute("title")];
      });
      assert.equal(cut, true, "the folder is cut in a 480 px chat");
      assert.equal(name, false, "the file name is shown whole");
      assert.equal(pathText, `${folder}todo.md`);
      assert.equal(title, `${folder}todo.md`);
    });

    it("lists each changed file with +N −M, and Open Diff posts openDiff for that file", async function () {
      await harness.send({ type: "snapshot", turns: [turnWith(3, [{ kind: "text", text: "Editing." }, EDIT], { done: true })], restriction: null });
      const files = turn().locator(".tool-card .diff-file");
      await files.nth(1).waitFor();
      const shown = await files.locator(".diff-header").evaluateAll((headers) =>
        headers.map((h) => [h.querySelector(".diff-path")!.textContent, h.querySelector(".diff-added")!.textContent, h.querySelector(".diff-removed")!.textContent]),
      );
      assert.deepEqual(shown, [
        ["/w/src/auth.ts", "+2", "−1"],
        ["/w/src/cache.ts", "+2", "−0"],
      ]);
      await files.nth(1).getByRole("button", { name: "Open Diff of /w/src/cache.ts" }).click();
      assert.deepEqual(await harness.intents(), [{ type: "openDiff", turnId: 3, blockIndex: 1, diffIndex: 1 }]);
    });

    it("shows the agent's title, the tool's kind and its places, and its output folded until opened, as text", async function () {
      await harness.send({ type: "snapshot", turns: [turnWith(0, [EDIT], { done: true })], restriction: null });
      const card = turn().locator(".tool-card");
      assert.equal(await card.getAttribute("aria-label"), "Edit src/auth.ts and add src/cache.ts: succeeded");
      assert.equal(await card.locator(".tool-summary").textContent(), "Edit src/auth.ts and add src/cache.ts");
      assert.equal(await card.locator(".tool-kind").getAttribute("title"), "edit");
      assert.equal(await card.locator(".tool-location").textContent(), "/w/src/auth.ts:2");
      const output = card.locator("details.tool-output");
      assert.equal(await output.evaluate((d) => (d as HTMLDetailsElement).open), false, "output starts folded");
      assert.equal(await output.locator("summary").textContent(), "Output (2 lines)");
      await output.locator("summary").click();
      assert.equal(await output.locator("pre").textContent(), "patched src/auth.ts\ncreated src/cache.ts");
      await card.locator(".diff-preview summary").first().click();
      assert.equal(await card.locator(".diff-preview pre").first().textContent(), "  import a\n- const x = 1\n+ const x = 2\n+ const y = 3\n  export {}");
    });

    it("cuts output past 20,000 characters and says how much more there was", async function () {
      const long = toolBlock({ status: "succeeded", output: "x".repeat(25_000) });
      await harness.send({ type: "snapshot", turns: [turnWith(0, [long], { done: true })], restriction: null });
      const output = turn().locator("details.tool-output");
      await output.locator("summary").click();
      assert.equal((await output.locator("pre").textContent())?.length, 20_000);
      assert.equal(await output.locator(".truncated-note").textContent(), "… 5,000 more characters not shown");
    });
  });

  describe("a permission request", function () {
    const command = toolBlock({ toolId: "run-1", tool: "bash", toolKind: "execute", title: "npm test", parameters: { command: "npm test -- --grep auth" } });
    const request = permissionBlock({ requestId: "17", toolId: "run-1", title: "Run npm test" });

    it("shows what the agent will run and its options in its words; a click posts answerPermission with its request's id and that option's id", async function () {
      await stream(5, [command, request]);
      const card = turn().getByRole("region", { name: "Permission: Run npm test" });
      await card.waitFor();
      assert.equal(await card.locator(".permission-command").textContent(), "npm test -- --grep auth");
      assert.equal(await card.locator(".permission-kind").textContent(), "run a command");
      assert.deepEqual(await card.getByRole("button").allTextContents(), ["Allow", "Always Allow", "Reject", "Never"]);
      await card.getByRole("button", { name: "Always Allow" }).click();
      assert.deepEqual(await harness.intents(), [{ type: "answerPermission", turnId: 5, requestId: "17", optionId: "allow-always" }]);
    });

    it("takes focus when it appears while the turn runs, and Escape answers with the agent's reject-once option", async function () {
      await stream(6, [command, request]);
      const card = turn().locator(".permission");
      await card.waitFor();
      await cardFocusedIn(6);
      await harness.page.keyboard.press("Escape");
      assert.deepEqual(await harness.intents(), [{ type: "answerPermission", turnId: 6, requestId: "17", optionId: "reject-once" }]);
    });

    it("is dismissed, never allowed, by Escape when the agent offers no reject option", async function () {
      const allowOnly = permissionBlock({ toolId: "run-1", options: [{ id: "yes", name: "Yes", kind: "allow_once" }] });
      await stream(7, [command, allowOnly]);
      await cardFocusedIn(7);
      await harness.page.keyboard.press("Escape");
      assert.deepEqual(await harness.intents(), [{ type: "answerPermission", turnId: 7, requestId: "1", optionId: null }]);
    });

    it("shows the diff of an edit before it is answered", async function () {
      await stream(8, [EDIT, permissionBlock({ toolId: EDIT.toolId, title: "Edit src/auth.ts" })]);
      const card = turn().locator(".permission");
      await card.locator(".diff-file").nth(1).waitFor();
      assert.deepEqual(await card.locator(".diff-path").allTextContents(), ["/w/src/auth.ts", "/w/src/cache.ts"]);
      assert.deepEqual(await card.locator(".diff-added").allTextContents(), ["+2", "+2"]);
    });

    it("shows the plan Claude Code asks to carry out (ExitPlanMode) as markdown, its markup inert", async function () {
      const plan = "# Plan\n\n1. Create `plan.txt`.\n2. Write *hello* in it.\n\n<img src=x onerror=\"window.__planScriptRan = true\">";
      const exit = toolBlock({ toolId: "plan-1", tool: "ExitPlanMode", toolKind: "switch_mode", title: "ExitPlanMode", parameters: { plan } });
      await stream(13, [exit, permissionBlock({ toolId: "plan-1", title: "Leave plan mode and start working on the plan" })]);
      const card = turn().locator(".permission");
      await card.locator(".permission-plan h1").waitFor();
      assert.equal(await card.locator(".permission-plan h1").textContent(), "Plan");
      assert.deepEqual(await card.locator(".permission-plan li").allTextContents(), ["Create plan.txt.", "Write hello in it."]);
      assert.equal(await card.locator(".permission-plan em").textContent(), "hello");
      assert.equal(await card.locator(".permission-plan img").count(), 0);
      assert.equal(await harness.page.evaluate(() => window.__planScriptRan === undefined), true);
    });

    it("warns, above what the agent will do, of a file outside the workspace; no warning for one inside", async function () {
      await stream(12, [EDIT, permissionBlock({ toolId: EDIT.toolId, title: "Edit /etc/hosts", outsideWorkspace: ["/etc/hosts", "../x<b>y</b>"] })]);
      const card = turn().locator(".permission");
      await card.locator(".diff-file").nth(1).waitFor();
      const warning = card.locator(".permission-what > .permission-outside");
      assert.equal(await warning.innerText(), "Outside your workspace: /etc/hosts, ../x<b>y</b>", "the paths as text, never as markup");
      assert.equal(await card.locator(".permission-what > *").first().getAttribute("class"), "permission-outside", "said first");
      await stream(13, [EDIT, permissionBlock({ toolId: EDIT.toolId, title: "Edit src/auth.ts" })]);
      await turn().locator(".permission .diff-file").nth(1).waitFor();
      assert.equal(await turn().locator(".permission-outside").count(), 0);
    });

    it("offers no answer to a request left unanswered in a turn that has ended, as a reloaded window shows one: it reads Cancelled", async function () {
      await harness.send({ type: "snapshot", turns: [turnWith(14, [command, request], { done: true })], restriction: null });
      const card = turn().getByRole("region", { name: "Permission: Run npm test" });
      await card.locator(".permission-answer:not([hidden])").waitFor();
      assert.equal(await card.locator(".permission-answer").textContent(), "Cancelled");
      assert.equal(await card.locator("button").count(), 0);
      await card.focus();
      await harness.page.keyboard.press("Escape");
      assert.deepEqual(await harness.intents(), []);
    });

    for (const [answer, words] of [
      [{ decision: "allowed", optionId: "allow-once", answeredBy: "user" }, "Allowed by you: Allow"],
      [{ decision: "rejected", optionId: "reject-once", answeredBy: "user" }, "Rejected by you: Reject"],
      [{ decision: "allowed", optionId: "allow-always", answeredBy: "setting" }, "Allowed by your setting: Always Allow"],
      [{ decision: "allowed", optionId: "allow-always", answeredBy: "remembered" }, "Allowed by your earlier “always”: Always Allow"],
      [{ decision: "cancelled", optionId: null, answeredBy: null }, "Cancelled"],
    ] as const) {
      it(`says "${words}" once answered, announces it, and offers no buttons any more`, async function () {
        await stream(9, [command, request]);
        await turn().locator(".permission button").first().waitFor();
        await harness.send({ type: "changes", turnId: 9, changes: [{ kind: "block-updated", index: 1, block: { ...request, ...answer } }] });
        const card = turn().locator(".permission");
        await card.locator(".permission-answer:not([hidden])").waitFor();
        assert.equal(await card.locator(".permission-answer").textContent(), words);
        assert.equal(await card.locator("button").count(), 0);
        await liveRegionSays(`${words.split(":")[0]}: Run npm test`);
      });
    }
  });

  it("replaces the plan in place on each update", async function () {
    const first = planBlock([
      { content: "Read the auth code", priority: "high", status: "in_progress" },
      { content: "Fix the cache", priority: "medium", status: "pending" },
    ]);
    await stream(10, [first]);
    const plan = turn().getByRole("region", { name: "Plan" });
    await plan.waitFor();
    await plan.evaluate((node) => (window.__planElement = node));
    const next = planBlock([
      { content: "Read the auth code", priority: "high", status: "completed" },
      { content: "Fix the cache", priority: "medium", status: "in_progress" },
      { content: "Run the tests", priority: "low", status: "pending" },
    ]);
    await harness.send({ type: "changes", turnId: 10, changes: [{ kind: "block-updated", index: 0, block: next }] });
    await plan.locator(".plan-entry").nth(2).waitFor();
    assert.deepEqual(await turn().locator(".plan-content").allTextContents(), ["Read the auth code", "Fix the cache", "Run the tests"]);
    assert.deepEqual(await turn().locator(".plan-entry").evaluateAll((entries) => entries.map((e) => e.className.split(" ")[1])), ["plan-completed", "plan-in_progress", "plan-pending"]);
    assert.equal(await plan.evaluate((node) => node === window.__planElement), true, "the same plan element, updated in place");
    assert.equal(await turn().locator(".plan").count(), 1);
  });

  it("fits a tool card with its diffs, a waiting request and a plan in a side bar of 480 px and of 260 px: nothing cut off, clipped or drawn over another", async function () {
    await showAgentBlocks(harness, 11);
    const faults: Record<number, string[]> = {};
    for (const width of [480, 260]) {
      await harness.page.setViewportSize({ width, height: 1300 });
      await harness.frames(2);
      faults[width] = await layoutFaults(harness.page);
    }
    await harness.page.setViewportSize({ width: 480, height: 800 });
    assert.deepEqual(faults, { 480: [], 260: [] });
  });
});
