// The chat in Light+, Dark+ and High Contrast, and the checks a person would make looking at it: icons load under the
// CSP, text is readable, nothing is cut off or drawn over another block in a narrow side bar, high contrast draws its
// borders. Screenshots to look at are written by scripts/webview-screenshots.ts.
import * as assert from "node:assert/strict";
import { WebviewHarness } from "../helpers/webview-harness";
import { THEMES } from "../helpers/webview-themes";
import { snapshotOf } from "./conversations";
import { layoutFaults } from "./layout";
import { RICH_CONVERSATION, showComposerWithChipsAndQueue, showHeaderWithPickersAndMeter, showRichConversation } from "./scenes";

/** Text that carries meaning, and what it sits on. WCAG AA asks 4.5:1 for text of this size. */
const TEXT_SELECTORS = [
  ".prompt-text",
  ".agent-name",
  ".answer-text h2",
  ".answer-text p",
  ".answer-text p > code",
  ".answer-text a[href]",
  ".code-block pre code",
  ".tool-name",
  ".tool-error",
  ".tool-parameters",
  ".code-language",
  ".error-title",
  ".error-message",
  ".text-button.primary .button-caption",
  ".text-button.secondary .button-caption",
  ".footer-ending",
  ".problems-notice > summary > span:not(.codicon)",
  ".restriction-text",
];
/** Secondary text in the theme's descriptionForeground: Light+ itself puts it at 4.4:1 on the side bar. */
const SECONDARY_SELECTORS = [".tool-summary", ".tool-duration", ".footer-fact", ".status-text", ".thinking-label", ".thinking-text p"];
const MIN_CONTRAST = 4.5;
const MIN_SECONDARY_CONTRAST = 4.0;
/** The side bar as VS Code opens it, and as narrow as people drag it. */
const SIDE_BAR_WIDTHS = [440, 260];
const VIEWPORT = { width: 440, height: 2000 };

interface Measured {
  selector: string;
  ratio: number;
}

describe("webview: looks in light, dark and high-contrast themes", function () {
  let harness: WebviewHarness;

  before(async function () {
    harness = await WebviewHarness.open({ viewport: VIEWPORT });
  });

  after(async function () {
    await harness?.close();
  });

  /** Contrast of each element's text against what is painted behind it (semi-transparent layers blended). */
  function measure(selectors: readonly string[]): Promise<Measured[]> {
    return harness.page.evaluate((list) => {
      const parse = (css: string): number[] => {
        const m = /rgba?\(([^)]+)\)/.exec(css);
        if (m === null) return [0, 0, 0, 0];
        const parts = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
        return [parts[0], parts[1], parts[2], parts[3] ?? 1];
      };
      const over = (top: number[], bottom: number[]): number[] => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat(1);
      const luminance = (rgb: number[]) => {
        const [r, g, b] = rgb.slice(0, 3).map((v) => {
          const c = v / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const backdrop = (node: Element): number[] => {
        const chain: Element[] = [];
        for (let n: Element | null = node; n !== null; n = n.parentElement) chain.unshift(n);
        let color = [255, 255, 255, 1];
        for (const n of chain) color = over(parse(getComputedStyle(n).backgroundColor), color);
        return color;
      };
      const results: { selector: string; ratio: number }[] = [];
      for (const selector of list) {
        const node = document.querySelector(selector);
        if (node === null) {
          results.push({ selector, ratio: -1 });
          continue;
        }
        const back = backdrop(node);
        const style = getComputedStyle(node);
        const fore = over(parse(style.color), back);
        const opacity = Number(style.opacity);
        const text = opacity < 1 ? over([...fore.slice(0, 3), opacity], back) : fore;
        const [hi, lo] = [luminance(text), luminance(back)].sort((a, b) => b - a);
        results.push({ selector, ratio: Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100 });
      }
      return results;
    }, selectors);
  }

  for (const theme of THEMES) {
    describe(theme, function () {
      before(async function () {
        await harness.setTheme(theme);
        await showRichConversation(harness);
      });

      it("loads the codicon font and the stylesheets without a CSP violation", async function () {
        assert.equal(await harness.page.evaluate(() => document.fonts.check('16px "codicon"')), true);
        assert.equal(await harness.page.evaluate(() => getComputedStyle(document.querySelector(".codicon-check")!, "::before").fontFamily), "codicon");
        assert.deepEqual(await harness.cspViolations(), []);
      });

      it(`fits a side bar of ${SIDE_BAR_WIDTHS.join(" px and of ")} px: nothing cut off, clipped or drawn over another block`, async function () {
        const faults: Record<number, string[]> = {};
        for (const width of SIDE_BAR_WIDTHS) {
          await harness.page.setViewportSize({ width, height: 2000 });
          await harness.frames(2);
          faults[width] = await layoutFaults(harness.page);
        }
        await harness.page.setViewportSize(VIEWPORT);
        assert.deepEqual(faults, Object.fromEntries(SIDE_BAR_WIDTHS.map((width) => [width, []])));
      });

      it(`keeps every kind of text at ${MIN_CONTRAST}:1 contrast or more`, async function () {
        await harness.send(snapshotOf(RICH_CONVERSATION, "Restricted Mode: trust this workspace to run an agent CLI."));
        await harness.page.locator(".restriction-banner").waitFor();
        const measured = await measure(TEXT_SELECTORS);
        if (process.env["SHOW_CONTRAST"]) console.log(theme, JSON.stringify(measured), JSON.stringify(await measure(SECONDARY_SELECTORS)));
        const low = measured.filter((m) => m.ratio < MIN_CONTRAST);
        await harness.send(snapshotOf(RICH_CONVERSATION));
        assert.deepEqual(low, []);
      });

      it(`keeps secondary text at ${MIN_SECONDARY_CONTRAST}:1 contrast or more`, async function () {
        const low = (await measure(SECONDARY_SELECTORS)).filter((m) => m.ratio < MIN_SECONDARY_CONTRAST);
        assert.deepEqual(low, []);
      });
    });
  }

  describe("high contrast borders", function () {
    before(async function () {
      await harness.setTheme("high-contrast");
    });

    it("outlines cards, code, the prompt and the message box in the contrast border colour", async function () {
      const borders = await harness.page.evaluate(() =>
        [".tool-card", ".code-block", ".error-card", ".prompt-text", ".composer-input", ".text-button.primary"].map((selector) => {
          const style = getComputedStyle(document.querySelector(selector)!);
          return `${selector} ${style.borderTopWidth} ${style.borderTopColor}`;
        }),
      );
      assert.deepEqual(borders, [
        ".tool-card 1px rgb(111, 195, 223)",
        ".code-block 1px rgb(111, 195, 223)",
        ".error-card 1px rgb(111, 195, 223)",
        ".prompt-text 1px rgb(111, 195, 223)",
        ".composer-input 1px rgb(111, 195, 223)",
        ".text-button.primary 1px rgb(111, 195, 223)",
      ]);
    });
  });
  describe("issue 25's controls", function () {
    /** The header's pickers and meter with a finished turn's footer, and the composer's chips and queue: what each shows. */
    const SCENES = [
      {
        show: showHeaderWithPickersAndMeter,
        text: [".session-agent", ".agent-control-select", ".agent-control-select.approves-itself"],
        secondary: [".session-title", ".agent-control-value", ".usage-meter-figures", ".footer-usage .footer-fact"],
      },
      { show: showComposerWithChipsAndQueue, text: [".chip-name", ".queued-text"], secondary: [".queued-context"] },
    ];

    for (const theme of THEMES) {
      it(`keeps the header's pickers and meter, a turn's usage and the composer's chips and queue readable in ${theme}`, async function () {
        await harness.setTheme(theme);
        const low: Measured[] = [];
        for (const scene of SCENES) {
          // A page of its own: a snapshot of the same session keeps the composer's chips, and the scene adds its own.
          await harness.reload();
          await scene.show(harness);
          low.push(...(await measure(scene.text)).filter((m) => m.ratio < MIN_CONTRAST));
          low.push(...(await measure(scene.secondary)).filter((m) => m.ratio < MIN_SECONDARY_CONTRAST));
        }
        assert.deepEqual(low, []);
      });
    }
  });
});
