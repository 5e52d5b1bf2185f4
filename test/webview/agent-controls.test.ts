// The header's pickers: the agent's mode, model and config options, picked by mouse or keyboard, a mode that approves
// by itself in warning colours, hidden when the agent offers nothing, and fitting a narrow sidebar.
import * as assert from "node:assert/strict";
import { agentControls } from "../../src/panel/agent-controls";
import { emptyAgentState } from "../../src/protocol/agent-state";
import type { AgentControls } from "../../src/protocol/messages";
import { WebviewHarness, type TestHostMessage } from "../helpers/webview-harness";

const EMPTY: TestHostMessage = { type: "snapshot", turns: [], restriction: null };
const MODES = [
  { id: "default", name: "Default", description: "Asks before edits and commands", approvesItself: false },
  { id: "plan", name: "Plan", description: null, approvesItself: false },
  { id: "bypassPermissions", name: "Bypass permissions", description: null, approvesItself: true },
];
const CONTROLS: AgentControls = {
  mode: { currentId: "default", chosenId: null, offered: MODES },
  model: { currentId: "claude-sonnet-4-5", chosenId: null, offered: [] },
  options: [
    {
      optionId: "thought_level",
      name: "Thinking",
      currentId: "low",
      chosenId: null,
      offered: [
        { id: "low", name: "Low", description: null },
        { id: "high", name: "High", description: null },
      ],
    },
  ],
  appliesAt: "now",
  applying: false,
  refusal: null,
};

describe("webview: the header's agent pickers", function () {
  let harness: WebviewHarness;
  const group = () => harness.page.getByRole("group", { name: "Agent settings" });
  const mode = () => harness.page.getByRole("combobox", { name: "Mode", exact: true });

  before(async function () {
    harness = await WebviewHarness.open({ viewport: { width: 300, height: 700 } });
  });

  after(async function () {
    await harness?.close();
  });

  beforeEach(async function () {
    await harness.page.setViewportSize({ width: 300, height: 700 });
    await harness.reload();
    await harness.send(EMPTY);
    await harness.clearIntents();
  });

  it("shows nothing while the agent offers nothing to pick", async function () {
    await harness.frames(1);
    assert.equal(await group().isVisible(), false);
  });

  it("shows the mode, the model the agent names, and its other options", async function () {
    await harness.send({ type: "controls", controls: CONTROLS });
    assert.equal(await mode().inputValue(), "default");
    assert.deepEqual(await mode().locator("option").allTextContents(), ["Default", "Plan", "Bypass permissions (skips approvals)"]);
    assert.equal(await harness.page.getByRole("combobox", { name: "Thinking" }).inputValue(), "low");
    assert.equal(await group().getByText("claude-sonnet-4-5").isVisible(), true);
  });

  it("sends the mode picked with the mouse", async function () {
    await harness.send({ type: "controls", controls: CONTROLS });
    await mode().selectOption("plan");
    assert.deepEqual(await harness.waitForIntent("chooseSetting"), { type: "chooseSetting", setting: "mode", value: "plan" });
  });

  it("sends an option picked with the keyboard", async function () {
    await harness.send({ type: "controls", controls: CONTROLS });
    const thinking = harness.page.getByRole("combobox", { name: "Thinking" });
    await thinking.focus();
    await thinking.press("ArrowDown");
    assert.deepEqual(await harness.waitForIntent("chooseSetting"), { type: "chooseSetting", setting: "option", optionId: "thought_level", value: "high" });
  });

  it("shows a boolean option the agent offers as an On/Off picker and sends the value picked", async function () {
    const fast = { id: "fast", name: "Fast mode", description: null, category: null, type: "boolean" as const, currentValue: false };
    const controls = agentControls({ ...emptyAgentState(), configOptions: [fast] }, {}, { appliesAt: "now", applying: false, refusal: null });
    await harness.send({ type: "controls", controls });
    const picker = harness.page.getByRole("combobox", { name: "Fast mode" });
    assert.deepEqual(await picker.locator("option").allTextContents(), ["On", "Off"]);
    assert.equal(await picker.inputValue(), "false");
    await picker.selectOption("true");
    assert.deepEqual(await harness.waitForIntent("chooseSetting"), { type: "chooseSetting", setting: "option", optionId: "fast", value: "true" });
  });

  it("marks a mode that approves by itself in warning colours, and says it skips approvals", async function () {
    await harness.send({ type: "controls", controls: { ...CONTROLS, mode: { ...CONTROLS.mode!, currentId: "bypassPermissions" } } });
    assert.equal(await mode().inputValue(), "bypassPermissions");
    assert.match((await mode().getAttribute("title")) ?? "", /approves its own edits and commands.*not asked/);
    const [warned, asking] = await Promise.all([
      mode().evaluate((select) => getComputedStyle(select).borderTopColor),
      harness.page.getByRole("combobox", { name: "Thinking" }).evaluate((select) => getComputedStyle(select).borderTopColor),
    ]);
    assert.notEqual(warned, asking);
  });

  it("shows the choice while it is on its way to the agent, then the mode the agent says it is in", async function () {
    await harness.send({ type: "controls", controls: { ...CONTROLS, applying: true, mode: { ...CONTROLS.mode!, chosenId: "plan" } } });
    assert.equal(await mode().inputValue(), "plan");
    // The agent left plan mode by itself (Claude after its plan was approved): the header follows the agent.
    await harness.send({ type: "controls", controls: { ...CONTROLS, mode: { ...CONTROLS.mode!, chosenId: "plan", currentId: "default" } } });
    assert.equal(await mode().inputValue(), "default");
  });

  it("goes back to what the host says after a refusal, and shows why", async function () {
    await harness.send({ type: "controls", controls: CONTROLS });
    await mode().selectOption("plan");
    await harness.send({ type: "controls", controls: { ...CONTROLS, refusal: "The agent did not switch to mode plan (it answered Forbidden)." } });
    assert.equal(await mode().inputValue(), "default");
    assert.equal(await group().getByRole("status").textContent(), "The agent did not switch to mode plan (it answered Forbidden).");
  });

  it("says a choice waits for the next message where the agent cannot take it now", async function () {
    await harness.send({ type: "controls", controls: { ...CONTROLS, appliesAt: "next-turn", mode: { ...CONTROLS.mode!, chosenId: "plan" } } });
    assert.equal(await group().getByRole("status").textContent(), "Applies from the next message.");
  });

  it("forgets one session's pickers when the page moves to another", async function () {
    await harness.send({ type: "controls", controls: CONTROLS });
    await harness.send({ type: "snapshot", sessionId: "00000000-0000-4000-8000-000000000004", turns: [], restriction: null });
    await harness.frames(1);
    assert.equal(await group().isVisible(), false);
  });

  for (const width of [300, 180]) {
    it(`fits the header at ${width} px, every picker inside the page`, async function () {
      await harness.page.setViewportSize({ width, height: 700 });
      await harness.send({ type: "controls", controls: CONTROLS });
      await harness.frames(1);
      const overflowing = await harness.page.evaluate(() =>
        [...document.querySelectorAll(".agent-control")].filter((picker) => picker.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).length,
      );
      assert.equal(overflowing, 0);
      assert.equal(await harness.page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), true);
    });
  }
});
