// The suggestion list under the message box, one component for the files after @ and the slash commands after /:
// both take the same keys the same way, keep the keyboard in the box, and point the box at the selected option.
import * as assert from "node:assert/strict";
import { WebviewHarness, type TestHostMessage } from "../helpers/webview-harness";

const EMPTY: TestHostMessage = { type: "snapshot", turns: [], restriction: null };
const COMMANDS = [
  { name: "compact", description: "Compact the conversation" },
  { name: "config", description: "Open the settings" },
  { name: "cost", description: "Show what the session cost" },
];
const FILES = [
  { path: "src/a.ts", kind: "file" as const, open: false },
  { path: "src/b.ts", kind: "file" as const, open: false },
  { path: "src/c.ts", kind: "file" as const, open: false },
];

interface ListUnderTest {
  name: string;
  listName: string;
  optionPrefix: string;
  /** Types what opens the list with three options, and waits for them. */
  open(harness: WebviewHarness): Promise<void>;
  /** The box's text, and the chips above it, once the option at `index` was chosen. */
  chosen: (index: number) => { text: string; chips: string[] };
}

const LISTS: ListUnderTest[] = [
  {
    name: "the slash commands",
    listName: "Slash commands",
    optionPrefix: "command-option-",
    async open(harness) {
      await harness.send({ type: "commands", commands: COMMANDS });
      await harness.page.getByRole("textbox", { name: "Message to the agent" }).pressSequentially("/co");
    },
    chosen: (index) => ({ text: `/${COMMANDS[index]!.name} `, chips: [] }),
  },
  {
    name: "the files after @",
    listName: "Files and folders",
    optionPrefix: "file-option-",
    async open(harness) {
      await harness.page.getByRole("textbox", { name: "Message to the agent" }).pressSequentially("@src");
      const asked = await harness.waitForIntent("findFiles");
      await harness.send({ type: "filesFound", requestId: asked.requestId, files: FILES });
    },
    chosen: (index) => ({ text: "", chips: [FILES[index]!.path] }),
  },
];

describe("webview: the suggestion list under the composer", function () {
  let harness: WebviewHarness;
  const input = () => harness.page.getByRole("textbox", { name: "Message to the agent" });
  const result = async () => ({ text: await input().inputValue(), chips: await harness.page.locator(".attachment-chip").allTextContents() });

  before(async function () {
    harness = await WebviewHarness.open();
  });

  after(async function () {
    await harness?.close();
  });

  beforeEach(async function () {
    await harness.reload();
    await harness.send(EMPTY);
    await input().fill("");
    await harness.clearIntents();
  });

  for (const under of LISTS) {
    describe(under.name, function () {
      const list = () => harness.page.getByRole("listbox", { name: under.listName });
      const selected = () => list().locator('[role="option"][aria-selected="true"]');
      const open = async () => {
        await under.open(harness);
        await list().getByRole("option").nth(2).waitFor();
      };

      it("moves the selection with ↓ and ↑, wrapping at either end, and points the box at it", async function () {
        await open();
        assert.equal(await input().getAttribute("aria-activedescendant"), `${under.optionPrefix}0`);
        await input().press("ArrowUp");
        assert.equal(await selected().getAttribute("id"), `${under.optionPrefix}2`, "↑ from the first goes to the last");
        assert.equal(await input().getAttribute("aria-activedescendant"), `${under.optionPrefix}2`);
        await input().press("ArrowDown");
        assert.equal(await selected().getAttribute("id"), `${under.optionPrefix}0`, "↓ from the last goes to the first");
        await input().press("ArrowDown");
        assert.equal(await selected().count(), 1, "one option selected");
        assert.equal(await input().getAttribute("aria-activedescendant"), `${under.optionPrefix}1`);
        assert.equal(await input().evaluate((box) => box === document.activeElement), true, "the keyboard stays in the box");
      });

      it("chooses the selected option with Tab, and closes without taking the box's aria-activedescendant along", async function () {
        await open();
        await input().press("ArrowDown");
        await input().press("Tab");
        await list().waitFor({ state: "hidden" });
        assert.deepEqual(await result(), under.chosen(1));
        assert.equal(await input().getAttribute("aria-activedescendant"), null);
        assert.equal(await input().evaluate((box) => box === document.activeElement), true, "Tab did not move the focus");
      });

      it("chooses an option by click, and the box keeps the focus", async function () {
        await open();
        await list().getByRole("option").nth(2).click();
        await list().waitFor({ state: "hidden" });
        assert.deepEqual(await result(), under.chosen(2));
        assert.equal(await input().evaluate((box) => box === document.activeElement), true);
      });

      it("closes with Escape, leaving the text as typed and stopping nothing", async function () {
        await open();
        const typed = await input().inputValue();
        await input().press("Escape");
        await list().waitFor({ state: "hidden" });
        assert.equal(await input().inputValue(), typed);
        assert.equal(await input().getAttribute("aria-activedescendant"), null);
        assert.deepEqual((await harness.intents()).filter((intent) => intent.type === "stop" || intent.type === "send"), []);
      });
    });
  }
});
