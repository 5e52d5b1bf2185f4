// The chat as people drag the side bar narrow (180–290 px), with an edit's diffs, a permission card and an error card
// on screen: nothing sticks out or is squeezed away, file names stay readable, titles keep whole words, and only the
// conversation scrolls — never the page under the composer.
import * as assert from "node:assert/strict";
import { WebviewHarness } from "../helpers/webview-harness";
import { layoutFaults } from "./layout";
import { HEADER_CONTROLS, HEADER_SESSION, showAgentBlocks, showComposerWithChipsAndQueue, showHeaderWithPickersAndMeter, showRichConversation } from "./scenes";

const NARROW_WIDTHS = [180, 220, 290];

describe("webview: a narrow side bar", function () {
  let harness: WebviewHarness;

  before(async function () {
    harness = await WebviewHarness.open({ viewport: { width: 290, height: 794 } });
    await showRichConversation(harness);
    await showAgentBlocks(harness, 9);
    await harness.frames(2);
  });

  after(async function () {
    await harness?.close();
  });

  it("scrolls only the conversation: the page is exactly as tall as the view, and a wheel over the composer moves nothing", async function () {
    const page = () => harness.page.evaluate(() => ({ height: document.scrollingElement?.scrollHeight, view: window.innerHeight, top: window.scrollY }));
    assert.deepEqual(await page(), { height: 794, view: 794, top: 0 });
    await harness.page.locator(".composer").hover();
    await harness.page.mouse.wheel(0, 600);
    await harness.frames(2);
    assert.equal((await page()).top, 0);
  });

  for (const width of NARROW_WIDTHS) {
    describe(`at ${width} px`, function () {
      before(async function () {
        await harness.page.setViewportSize({ width, height: 2400 });
        await harness.frames(2);
      });

      it("has nothing cut off, sticking out or drawn over another block", async function () {
        assert.deepEqual(await layoutFaults(harness.page), []);
      });

      it("shows each changed file's name in full beside its icon, with Open Diff inside the card", async function () {
        const faults = await harness.page.evaluate(() => {
          const found: string[] = [];
          for (const item of document.querySelectorAll(".diff-file")) {
            const name = item.querySelector(".diff-name");
            const open = item.querySelector(".diff-open");
            const card = item.closest(".tool-card, .permission");
            if (name === null || name.scrollWidth > name.clientWidth + 1 || name.getBoundingClientRect().width < 1) found.push(`${name?.textContent} is cut`);
            const icon = item.querySelector(".diff-path > .codicon")?.getBoundingClientRect();
            const nameBox = name?.getBoundingClientRect();
            if (icon === undefined || nameBox === undefined || Math.abs(icon.top + icon.height / 2 - (nameBox.top + nameBox.height / 2)) > 4) found.push(`${name?.textContent}'s icon is not on its line`);
            if (open !== null && card !== null && open.getBoundingClientRect().right > card.getBoundingClientRect().right + 0.5) found.push(`Open Diff of ${name?.textContent} sticks out`);
          }
          return found;
        });
        assert.deepEqual(faults, []);
      });

      it("keeps an error's title to whole words, its icon beside it", async function () {
        const title = harness.page.locator(".error-card .error-title").first();
        const words = await title.evaluate((node) => {
          const range = document.createRange();
          range.selectNodeContents(node);
          const rects = [...range.getClientRects()];
          const lines = new Set(rects.map((rect) => Math.round(rect.top)));
          const icon = node.parentElement?.querySelector(".codicon")?.getBoundingClientRect();
          const iconMiddle = icon === undefined ? -1 : icon.top + icon.height / 2;
          return { lines: lines.size, words: (node.textContent ?? "").split(" ").length, iconBesideTitle: iconMiddle >= node.getBoundingClientRect().top && iconMiddle <= node.getBoundingClientRect().bottom };
        });
        assert.ok(words.lines <= Math.ceil(words.words / 2), `the title takes ${words.lines} lines for ${words.words} words`);
        assert.ok(words.iconBesideTitle, "the error icon sits on a line of its own");
      });
    });
  }
});

describe("webview: the composer with chips and a queue", function () {
  let harness: WebviewHarness;

  before(async function () {
    harness = await WebviewHarness.open({ viewport: { width: 440, height: 700 } });
    await showComposerWithChipsAndQueue(harness);
  });

  after(async function () {
    await harness?.close();
  });

  /** Each queued message: how much of its words shows, and whether any of its row sticks out of it. */
  const queued = () =>
    harness.page.locator(".queued").evaluateAll((rows) =>
      rows.map((row) => {
        const text = row.querySelector(".queued-text")!;
        const right = row.getBoundingClientRect().right;
        const outside = [...row.querySelectorAll("button")].filter((button) => button.getBoundingClientRect().right > right + 0.5).length;
        return { shown: text.clientWidth / row.clientWidth, whole: text.scrollWidth <= text.clientWidth + 1, outside };
      }),
    );

  it("shows a short queued message whole, its context giving way first, at the side bar's default width", async function () {
    const [long, short] = await queued();
    assert.deepEqual(short, { ...short!, whole: true, outside: 0 }, "and update the docs, whole");
    assert.equal(long?.outside, 0);
  });

  for (const width of [180, 200, 260]) {
    it(`keeps a queued message's words readable at ${width} px, every button inside its row, and the page as tall as the view`, async function () {
      await harness.page.setViewportSize({ width, height: 700 });
      await harness.frames(2);
      for (const row of await queued()) {
        assert.ok(row.shown > 0.6, `the words get ${Math.round(row.shown * 100)}% of the row`);
        assert.equal(row.outside, 0, "a button sticks out of its row");
      }
      assert.deepEqual(await layoutFaults(harness.page), []);
      const page = await harness.page.evaluate(() => ({ height: document.scrollingElement?.scrollHeight, view: window.innerHeight }));
      assert.equal(page.height, page.view);
    });
  }
});

describe("webview: the chat's header in a narrow side bar", function () {
  let harness: WebviewHarness;

  before(async function () {
    harness = await WebviewHarness.open({ viewport: { width: 600, height: 500 } });
    await showHeaderWithPickersAndMeter(harness);
    // New sessions would get another agent: the header offers one with it too.
    await harness.send({ type: "header", header: { ...HEADER_SESSION, otherAgent: "Gemini CLI" } });
    await harness.page.getByRole("button", { name: "New session with Gemini CLI" }).waitFor();
  });

  after(async function () {
    await harness?.close();
  });

  /** How the header is laid out: the title's room against its first 12 characters, what leaves the header, the rows. */
  const header = () =>
    harness.page.evaluate(() => {
      const box = document.querySelector(".session-header")!.getBoundingClientRect();
      const title = document.querySelector(".session-title")!;
      const words = title.firstChild!;
      const range = document.createRange();
      range.setStart(words, 0);
      range.setEnd(words, Math.min(12, words.textContent!.length));
      const outside = [...document.querySelectorAll(".session-header *")]
        .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).clipPath === "none")
        .filter((el) => {
          const rect = el.getBoundingClientRect();
          return rect.left < box.left - 0.5 || rect.right > box.right + 0.5 || rect.top < box.top - 0.5 || rect.bottom > box.bottom + 0.5;
        })
        .map((el) => `${el.className} "${(el.textContent ?? "").slice(0, 20)}"`);
      const top = (selector: string) => Math.round(document.querySelector(selector)!.getBoundingClientRect().top);
      return {
        titleWidth: title.getBoundingClientRect().width,
        twelveCharacters: range.getBoundingClientRect().width,
        outside,
        titleRow: top(".session-title"),
        meterRow: top(".session-header .usage-meter"),
      };
    });

  /** Each picker's label, and whether a click at its middle reaches it (on screen, nothing drawn over it). */
  const pickersUnderThePointer = () =>
    harness.page.locator(".agent-control-select").evaluateAll((selects) =>
      selects.map((select) => {
        const rect = select.getBoundingClientRect();
        const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
        return { label: select.getAttribute("aria-label"), reached: hit === select && rect.right <= document.documentElement.clientWidth + 0.5 };
      }),
    );

  for (const width of [180, 270, 600]) {
    describe(`at ${width} px`, function () {
      before(async function () {
        await harness.page.setViewportSize({ width, height: 500 });
        await harness.frames(2);
      });

      it("keeps at least the session title's first 12 characters in view", async function () {
        const { titleWidth, twelveCharacters } = await header();
        assert.ok(titleWidth >= twelveCharacters, `the title gets ${Math.round(titleWidth)} px of the ${Math.round(twelveCharacters)} its first 12 characters take`);
      });

      it("has nothing in the header reach past its edges, cut off or drawn over another", async function () {
        assert.deepEqual((await header()).outside, []);
        assert.deepEqual(await layoutFaults(harness.page), []);
      });

      it("has every picker on screen where the mouse can reach it, and the keyboard too", async function () {
        for (const picker of await pickersUnderThePointer()) assert.ok(picker.reached, `${picker.label} cannot be clicked`);
        await harness.clearIntents();
        const thinking = harness.page.getByRole("combobox", { name: "Thinking" });
        await thinking.focus();
        await thinking.press("ArrowDown");
        assert.deepEqual(await harness.waitForIntent("chooseSetting"), { type: "chooseSetting", setting: "option", optionId: "thought_level", value: "high" });
        // The host has not taken the pick: the picker shows what the agent is in again.
        await harness.send({ type: "controls", controls: HEADER_CONTROLS });
      });
    });
  }

  it("wraps a finished turn's footer without starting a row with a separator dot, nor ending the footer with one, every dot alike", async function () {
    await harness.page.setViewportSize({ width: 270, height: 500 });
    await harness.frames(2);
    const dots = await harness.page.locator(".turn-footer").evaluate((footer) => {
      const items = [...footer.querySelectorAll(".footer-ending, .footer-fact")];
      const dot = (item: Element, side: "::before" | "::after") => getComputedStyle(item, side).content.includes("·");
      let rowBottom = -Infinity;
      const rows: Element[][] = [];
      for (const item of items) {
        const rect = item.getBoundingClientRect();
        if (rect.top >= rowBottom - 1) rows.push([]);
        rows.at(-1)!.push(item);
        rowBottom = rect.bottom;
      }
      // Every dot looks the same: the one after the bold "Completed" is not bold and bright.
      const looks = new Set(items.filter((item) => dot(item, "::after")).map((item) => `${getComputedStyle(item, "::after").color} ${getComputedStyle(item, "::after").fontWeight}`));
      return { rows: rows.length, startingRows: rows.filter((row) => dot(row[0]!, "::before")).map((row) => row[0]!.textContent), trailing: dot(items.at(-1)!, "::after"), looks: looks.size };
    });
    assert.ok(dots.rows > 1, "the footer fits one row at 270 px: nothing to check");
    assert.deepEqual(dots, { rows: dots.rows, startingRows: [], trailing: false, looks: 1 });
  });

  it("keeps the title and the meter on one row where they fit, and puts the meter below the title where they do not", async function () {
    await harness.page.setViewportSize({ width: 600, height: 500 });
    await harness.frames(2);
    const wide = await header();
    assert.equal(wide.meterRow, wide.titleRow);
    await harness.page.setViewportSize({ width: 270, height: 500 });
    await harness.frames(2);
    const narrow = await header();
    assert.ok(narrow.meterRow > narrow.titleRow, "the meter shares the title's row at 270 px");
  });
});
