// Screenshots of the chat to look at, written to test-results/: the rich conversation in Dark+, Light+ and High
// Contrast, and what ACP agents show, at the side bar's default width; the composer with chips and a queue, narrow and
// wide. Not tests: what a person checks in them (contrast, nothing cut off or overlapping) is measured by
// test/webview/looks.test.ts, agent-blocks.test.ts and narrow.test.ts.
// Run: node esbuild.mjs && npx tsc -p . && node out/scripts/webview-screenshots.js (docs/webview-screenshots.md).
import { closeSharedBrowser, WebviewHarness } from "../test/helpers/webview-harness";
import { THEMES } from "../test/helpers/webview-themes";
import { showAgentBlocks, showComposerWithChipsAndQueue, showRichConversation } from "../test/webview/scenes";

async function richConversation(): Promise<void> {
  const harness = await WebviewHarness.open({ viewport: { width: 440, height: 2000 } });
  try {
    for (const theme of THEMES) {
      await harness.setTheme(theme);
      await showRichConversation(harness);
      await harness.page.evaluate("document.querySelector('.transcript').scrollTop = 0");
      console.log(await harness.screenshot(`webview-${theme}`));
    }
  } finally {
    await harness.close();
  }
}

async function agentBlocks(): Promise<void> {
  const harness = await WebviewHarness.open({ viewport: { width: 480, height: 1300 } });
  try {
    await showAgentBlocks(harness, 0);
    await harness.frames(2);
    console.log(await harness.screenshot("agent-blocks-dark"));
  } finally {
    await harness.close();
  }
}

/** The composer with chips and a queue, as narrow as people drag the side bar and at its default width, dark and light. */
async function composer(): Promise<void> {
  for (const width of [200, 440]) {
    const harness = await WebviewHarness.open({ viewport: { width, height: 700 } });
    try {
      await showComposerWithChipsAndQueue(harness);
      for (const theme of ["dark", "light"] as const) {
        await harness.setTheme(theme);
        await harness.frames(2);
        console.log(await harness.screenshot(`composer-${width}-${theme}`));
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
    await composer();
  } finally {
    await closeSharedBrowser();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
