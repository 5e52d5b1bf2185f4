// The chat panel in a real VS Code (code-server), driven as a user drives it: palette, composer, Stop.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { chromium, type Browser, type FrameLocator, type Page } from "playwright-core";
import { startCodeServer, type CodeServer } from "../../scripts/code-server";
import { fakeCli, repoRoot } from "../helpers/repo";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../helpers/webview-harness";

const RESULTS = path.join(repoRoot, "test-results");

describe("chat panel in a real VS Code", function () {
  this.timeout(240_000);
  let server: CodeServer;
  let browser: Browser;
  let page: Page;
  let workspace: string;

  before(async () => {
    fs.mkdirSync(RESULTS, { recursive: true });
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-e2e-"));
    fs.writeFileSync(path.join(workspace, "README.md"), "# Sample workspace\n");
    server = await startCodeServer({
      settings: { "agentStream.cli.path": fakeCli("fake-locus.js"), "agentStream.cli.env": { FAKE_SCENARIO: "answer" } },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(server.workbenchUrl(workspace));
    await page.waitForSelector(".monaco-workbench", { timeout: 60_000 });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
  });

  it("opens from the command palette and streams an answer with its tool card", async () => {
    await runCommand(page, "Agent Stream: Open Chat");
    const chat = chatFrame(page);
    const composer = chat.locator("textarea").first();
    await composer.waitFor({ timeout: 60_000 });
    await composer.fill("What is in this workspace?");
    await composer.press("Enter");
    await chat.getByText("You asked: What is in this workspace?").waitFor({ timeout: 60_000 });
    await chat.getByText("Completed").first().waitFor({ timeout: 30_000 });
    assert.equal(await chat.getByText("README.md").first().isVisible(), true, "the Read tool card names its file");
    await page.screenshot({ path: path.join(RESULTS, "e2e-chat-panel.png") });
  });
});

/** F1, type the title, Enter. The row appears only once the extension registered its commands. */
async function runCommand(page: Page, title: string): Promise<void> {
  for (let attempt = 0; attempt < 30; attempt++) {
    await page.keyboard.press("F1");
    await page.keyboard.type(`>${title}`);
    const row = page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first();
    if (await row.isVisible({ timeout: 2000 }).catch(() => false)) {
      await page.keyboard.press("Enter");
      return;
    }
    await page.keyboard.press("Escape");
  }
  throw new Error(`command "${title}" never appeared in the palette`);
}

function chatFrame(page: Page): FrameLocator {
  return page.frameLocator("iframe.webview").last().frameLocator("iframe#active-frame");
}
