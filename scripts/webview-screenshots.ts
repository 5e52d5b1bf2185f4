// Screenshots of the chat to look at, written to test-results/ (or the directory after --out): the rich conversation
// in Dark+, Light+ and High Contrast, and what ACP agents show, at the side bar's default width; the composer with
// chips and a queue, and the header's pickers and meter with a finished turn's footer, narrow and wide, dark and light.
// Not tests: what a person checks in them (contrast, nothing cut off or overlapping) is measured by
// test/webview/looks.test.ts, agent-blocks.test.ts and narrow.test.ts.
// Run: node esbuild.mjs && npx tsc -p . && node out/scripts/webview-screenshots.js [--out DIR] (docs/webview-screenshots.md).
import { parseArgs } from "node:util";
import { closeSharedBrowser, WebviewHarness } from "../test/helpers/webview-harness";
import { THEMES } from "../test/helpers/webview-themes";
import { showAgentBlocks, showComposerWithChipsAndQueue, showHeaderWithPickersAndMeter, showRichConversation } from "../test/webview/scenes";

const { values: args } = parseArgs({ options: { out: { type: "string" } } });
const directory = args.out;

/** The widths issue 25's pictures are taken at: a side bar dragged narrow, and a wide panel. */
const NARROW_AND_WIDE = [270, 700];

async function richConversation(): Promise<void> {
  const harness = await WebviewHarness.open({ viewport: { width: 440, height: 2000 } });
  try {
    for (const theme of THEMES) {
      await harness.setTheme(theme);
      await showRichConversation(harness);
      await harness.page.evaluate("document.querySelector('.transcript').scrollTop = 0");
      console.log(await harness.screenshot(`webview-${theme}`, { directory }));
    }
  } finally {
    await harness.close();
  }
}

async function agentBlocks(): Promise<void> {
  const harness = await WebviewHarness.open({ viewport: { width: 480, height: 1300 } });
  try {
    // The session's header as a snapshot gives it, not an empty bar.
    await harness.send({ type: "snapshot", turns: [], restriction: null });
    await showAgentBlocks(harness, 0);
    await harness.frames(2);
    console.log(await harness.screenshot("agent-blocks-dark", { directory }));
  } finally {
    await harness.close();
  }
}

/** A scene at each width, in dark and light, saved as `${name}-${width}-${theme}.png`. */
async function narrowAndWide(name: string, height: number, show: (harness: WebviewHarness) => Promise<void>): Promise<void> {
  for (const width of NARROW_AND_WIDE) {
    const harness = await WebviewHarness.open({ viewport: { width, height } });
    try {
      await show(harness);
      for (const theme of ["dark", "light"] as const) {
        await harness.setTheme(theme);
        await harness.frames(2);
        console.log(await harness.screenshot(`${name}-${width}-${theme}`, { directory }));
      }
    } finally {
      await harness.close();
    }
  }
}

async function main(): Promise<void> {
  try {
    await richConversation();
    await agentBlocks();
    // The composer with file, folder, selection and image chips, and two queued messages, one of them with an image.
    await narrowAndWide("composer", 700, showComposerWithChipsAndQueue);
    // The header's pickers (a mode that approves by itself) and meter, and a finished turn's footer with its usage.
    await narrowAndWide("header", 420, showHeaderWithPickersAndMeter);
  } finally {
    await closeSharedBrowser();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
