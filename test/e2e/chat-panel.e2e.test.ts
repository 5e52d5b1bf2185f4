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

interface Workbench {
  page: Page;
  workspace: string;
}

/** One code-server with its own user settings, a workspace copied from `from`, and Chromium on its workbench. */
function useWorkbench(settings: Record<string, unknown>, from?: string): Workbench {
  const workbench = {} as Workbench;
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  before(async () => {
    fs.mkdirSync(RESULTS, { recursive: true });
    workbench.workspace = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-e2e-"));
    if (from) fs.cpSync(from, workbench.workspace, { recursive: true });
    else fs.writeFileSync(path.join(workbench.workspace, "README.md"), "# Sample workspace\n");
    server = await startCodeServer({ settings });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
    workbench.page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await workbench.page.goto(server.workbenchUrl(workbench.workspace));
    await workbench.page.waitForSelector(".monaco-workbench", { timeout: 60_000 });
  });
  afterEach(async function () {
    // A failure leaves a picture of what the user would have seen.
    if (this.currentTest?.state === "failed" && workbench.page) {
      const name = (this.currentTest.title ?? "failure").replace(/[^a-z0-9]+/gi, "-").slice(0, 60);
      await workbench.page.screenshot({ path: path.join(RESULTS, `e2e-failed-${name}.png`) }).catch(() => undefined);
    }
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    if (workbench.workspace) fs.rmSync(workbench.workspace, { recursive: true, force: true });
  });
  return workbench;
}

/** Opens the chat from the palette, sends a prompt, and returns the chat frame. */
async function ask(page: Page, prompt: string): Promise<FrameLocator> {
  await runCommand(page, "Agent Stream: Open Chat");
  const chat = chatFrame(page);
  const composer = chat.locator("textarea").first();
  await composer.waitFor({ timeout: 60_000 });
  await composer.fill(prompt);
  await composer.press("Enter");
  return chat;
}

describe("chat panel in a real VS Code", function () {
  this.timeout(240_000);
  // Seen once in a fresh-clone CI run: the first answer never appeared (not reproduced since). One retry keeps
  // CI honest about real failures; the failed attempt's screenshot stays in test-results/ for diagnosis.
  this.retries(1);
  const workbench = useWorkbench({ "agentStream.cli.path": fakeCli("fake-locus.js"), "agentStream.cli.env": { FAKE_SCENARIO: "answer" } });

  it("opens from the command palette and streams an answer with its tool card", async () => {
    const chat = await ask(workbench.page, "What is in this workspace?");
    await chat.getByText("You asked: What is in this workspace?").waitFor({ timeout: 60_000 });
    await chat.getByText("Completed").first().waitFor({ timeout: 30_000 });
    assert.equal(await chat.getByText("README.md").first().isVisible(), true, "the Read tool card names its file");
    await workbench.page.screenshot({ path: path.join(RESULTS, "e2e-chat-panel.png") });
  });
});

describe("built-in agent in a real VS Code", function () {
  this.timeout(240_000);
  this.retries(1);
  const workbench = useWorkbench({ "agentStream.useBuiltinAgent": true }, path.join(repoRoot, "examples", "sample-workspace"));

  it("summarises the workspace with real tool calls, no CLI and no API key", async () => {
    const chat = await ask(workbench.page, "summarise this workspace");
    await chat.getByText("Languages by file count").waitFor({ timeout: 60_000 });
    await chat.getByText("Completed").first().waitFor({ timeout: 60_000 });
    assert.equal(await chat.getByText("ListFiles").first().isVisible(), true, "the ListFiles tool card is shown");
    assert.equal(await chat.getByText("A small project to try Agent Stream on", { exact: false }).first().isVisible(), true, "the README's first paragraph is quoted");
    await workbench.page.screenshot({ path: path.join(RESULTS, "e2e-builtin-agent.png") });
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
