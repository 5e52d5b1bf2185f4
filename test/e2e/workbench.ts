// A real VS Code (code-server) with this extension, and the moves a user makes in it: the palette, Quick Open, the
// chat, the status bar, the notification centre. Shared by the end-to-end suites. Facts behind the selectors:
// docs/real-vscode-host.md.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { chromium, type Browser, type FrameLocator, type Locator, type Page } from "playwright-core";
import { startCodeServer, type CodeServer } from "../../scripts/code-server";
import { eventually } from "../helpers/eventually";
import { fakeCli, repoRoot } from "../helpers/repo";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../helpers/webview-harness";

export const RESULTS = path.join(repoRoot, "test-results");

export interface Workbench {
  page: Page;
  workspace: string;
  /** VS Code's log of the extension hosts so far (its warnings about this extension among them). */
  hostLog(): string;
}

/** A workbench whose CLI streams until stopped, and the processes it runs. */
export interface SlowCliWorkbench {
  workbench: Workbench;
  /** The CLI's pid, then its child's: they run under the extension host, out of the test's sight, and write them down. */
  pids(): number[];
  /** Before a prompt: the next run's pids are the only ones. */
  forgetPids(): void;
}

/**
 * A workbench whose CLI is the fake Locus CLI in its `slow` scenario ("tick " every 20 ms until a signal), with a child
 * that runs until a signal ends it, like a tool's shell command. `name` keeps each suite's pid file apart.
 */
export function useWorkbenchWithSlowCli(name: string): SlowCliWorkbench {
  const pidFile = path.join(os.tmpdir(), `agent-stream-e2e-${name}-${process.pid}.pids`);
  const workbench = useWorkbench({
    "agentStream.cli.path": fakeCli("fake-locus.js"),
    "agentStream.cli.env": { FAKE_SCENARIO: "slow", FAKE_CHILD: "1", FAKE_PID_FILE: pidFile },
  });
  after(() => fs.rmSync(pidFile, { force: true }));
  return {
    workbench,
    pids: () => fs.readFileSync(pidFile, "utf8").trim().split("\n").map(Number),
    forgetPids: () => fs.rmSync(pidFile, { force: true }),
  };
}

/**
 * One code-server with its own user settings, a workspace copied from `from`, and Chromium on its workbench.
 * Settings that depend on an earlier `before` (a server's port) can be given as a function, called when the server starts.
 */
export function useWorkbench(settings: Record<string, unknown> | (() => Record<string, unknown>), from?: string): Workbench {
  const workbench = {} as Workbench;
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  before(async () => {
    fs.mkdirSync(RESULTS, { recursive: true });
    workbench.workspace = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-e2e-"));
    if (from) fs.cpSync(from, workbench.workspace, { recursive: true });
    else fs.writeFileSync(path.join(workbench.workspace, "README.md"), "# Sample workspace\n");
    server = await startCodeServer({ settings: typeof settings === "function" ? settings() : settings });
    workbench.hostLog = () => server?.hostLog() ?? "";
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
    workbench.page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await workbench.page.goto(server.workbenchUrl(workbench.workspace));
    await workbench.page.waitForSelector(".monaco-workbench", { timeout: 60_000 });
  });
  afterEach(async function () {
    // A failure leaves a picture of what the user would have seen, and, in the test's output (a CI run's clone is gone
    // afterwards), the chat's text and what the extension logged.
    if (this.currentTest?.state === "failed" && workbench.page) {
      const name = (this.currentTest.title ?? "failure").replace(/[^a-z0-9]+/gi, "-").slice(0, 60);
      await workbench.page.screenshot({ path: path.join(RESULTS, `e2e-failed-${name}.png`) }).catch(() => undefined);
      const chat = await chatFrame(workbench.page)
        .locator("body")
        .innerText({ timeout: 5000 })
        .catch((error: unknown) => `(no chat: ${String(error).split("\n")[0]})`);
      const log = server?.extensionLog() ?? "";
      fs.writeFileSync(path.join(RESULTS, `e2e-failed-${name}.txt`), `The chat:\n${chat}\n\nThe extension's log:\n${log}\n`);
      console.error(`      The chat when it failed:\n${indented(lastLines(chat, 40))}`);
      console.error(`      The extension's log (last lines):\n${indented(lastLines(log, 60))}`);
    }
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    if (workbench.workspace) fs.rmSync(workbench.workspace, { recursive: true, force: true });
  });
  return workbench;
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split("\n").slice(-count).join("\n");
}

function indented(text: string): string {
  return text.replace(/^/gm, "        ");
}

/** Opens the chat from the palette and returns its frame once its composer is there. */
export async function openChat(page: Page): Promise<FrameLocator> {
  await runCommand(page, "Agent Stream: Open Chat");
  const chat = chatFrame(page);
  await chat.locator("textarea").first().waitFor({ timeout: 60_000 });
  return chat;
}

/**
 * Opens the chat from the palette, sends a prompt, and returns the chat frame once the prompt shows as a turn: a
 * prompt that never reaches the conversation fails here, not later as an answer that never came.
 */
export async function ask(page: Page, prompt: string): Promise<FrameLocator> {
  const chat = await openChat(page);
  const composer = chat.locator("textarea").first();
  await composer.fill(prompt);
  await composer.press("Enter");
  await turnOf(chat, prompt)
    .waitFor({ timeout: 30_000 })
    .catch((error: unknown) => {
      throw new Error(`the chat never showed the prompt "${prompt}" as a turn: ${String(error).split("\n")[0]}`);
    });
  return chat;
}

/**
 * F1, the title, then a click on the row with exactly that title. Not Enter on the first row: while the extension
 * host is still starting, or when the text matches nothing exactly, VS Code puts "similar commands" (Copilot Chat's,
 * another of ours) first. The row appears only once the extension registered its commands, hence the retries.
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  for (let attempt = 0; attempt < 30; attempt++) {
    await page.keyboard.press("F1");
    // Just after a reload the workbench is on screen before its keybindings are: F1 then opens nothing, and is pressed again.
    const typed = await page.locator(".quick-input-widget input").fill(`>${title}`, { timeout: 2000 }).then(() => true, () => false);
    if (!typed) continue;
    // The whole label: a highlighted part of a longer one ("… New Session" in "… New Session with Agent…") is not it.
    const row = page.locator(".quick-input-list .monaco-list-row", { has: page.locator(".label-name", { hasText: wholeLabel(title) }) }).first();
    if (await row.waitFor({ timeout: 2000 }).then(() => true, () => false)) {
      await row.click();
      return;
    }
    await page.keyboard.press("Escape");
  }
  throw new Error(`command "${title}" never appeared in the palette`);
}

/** A regular expression matching exactly `text`, for a label that may be split into highlighted parts. */
function wholeLabel(text: string): RegExp {
  return new RegExp(`^${literally(text)}$`);
}

/** `text` as a regular expression's source that matches it literally. */
function literally(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Ctrl+P, the file's name, its row: the file opens in the editor. */
export async function quickOpen(page: Page, fileName: string): Promise<void> {
  await page.keyboard.press("Control+P");
  await page.locator(".quick-input-widget input").fill(fileName);
  await page.locator(".quick-input-list .monaco-list-row", { has: page.getByText(fileName, { exact: true }) }).first().click();
  await page.locator(".tabs-container .tab.active", { hasText: fileName }).waitFor();
}

/** The chat webview's own document (inside VS Code's webview host frame). */
export function chatFrame(page: Page): FrameLocator {
  return page.frameLocator("iframe.webview").last().frameLocator("iframe#active-frame");
}

/**
 * Types `typed` (ending in "@" and the start of a name) in the chat's message box, takes the picker's row for `file`,
 * and returns the message box once the file's chip is there.
 */
export async function mentionFile(chat: FrameLocator, typed: string, file: string): Promise<Locator> {
  const composer = chat.locator("textarea").first();
  await composer.click();
  await composer.pressSequentially(typed);
  await chat.getByRole("option", { name: new RegExp(literally(file)) }).first().waitFor({ timeout: 30_000 });
  await composer.press("Enter");
  await chat.locator(".attachment-chip", { hasText: file }).waitFor();
  return composer;
}

/** The turn whose prompt is `prompt`, in the chat. */
export function turnOf(chat: FrameLocator, prompt: string): Locator {
  return chat.locator("article.turn", { has: chat.locator(".prompt-text", { hasText: prompt }) });
}

/** Our status bar item when it says `text` ("Agent Stream: stopped"; a RegExp for "completed in <duration>"). */
export function statusItem(page: Page, text: string | RegExp): Locator {
  return page.locator(".statusbar .statusbar-item", { hasText: text });
}

/** The item as it is between turns: "Agent Stream" and its icon, nothing more. */
export const IDLE_STATUS = /^\s*Agent Stream\s*$/;

/**
 * New Session from the palette: an empty chat, and the status bar back to idle at once. Tests that read the status
 * bar start here, so a previous turn's "completed"/"stopped" (of another test, or a failed attempt) cannot answer.
 * The session shown before stays in the Sessions list, running if it ran: only Stop and Delete Session end an agent.
 */
export async function newSession(page: Page): Promise<void> {
  await runCommand(page, "Agent Stream: New Session");
  await statusItem(page, IDLE_STATUS).waitFor({ timeout: 30_000 });
  await chatFrame(page).locator(".session-title", { hasText: "New session" }).waitFor({ timeout: 30_000 });
}

/**
 * The Sessions view's rows of the sessions titled `title`, newest first, in `state` when given (its words: "running",
 * "stopped", "completed", …): matched as a screen reader reads a row, "title, agent, state[, active]".
 */
export function sessionRows(page: Page, title: string, state?: string): Locator {
  const view = page.locator(".pane", { has: page.locator(".pane-header", { hasText: /^Sessions/ }) });
  const inState = state === undefined ? "" : `[aria-label*=${JSON.stringify(`, ${state}`)}]`;
  return view.locator(`.monaco-list-row[aria-label^=${JSON.stringify(`${title}, `)}]${inState}`);
}

/**
 * Delete on the newest row titled `title` in the Sessions view (its inline action), and the question it asks first
 * answered Delete. Returns once the row is gone.
 */
export async function deleteSession(page: Page, title: string): Promise<void> {
  const rows = sessionRows(page, title);
  await rows.first().waitFor({ timeout: 30_000 });
  const before = await rows.count();
  await rows.first().hover();
  await rows.first().locator(".actions .action-label[aria-label^='Delete Session']").click();
  const dialog = page.locator(".monaco-dialog-box");
  await dialog.getByText(`Delete the session "${title}"?`, { exact: false }).waitFor({ timeout: 30_000 });
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await dialog.waitFor({ state: "hidden", timeout: 30_000 });
  await eventually(`one row titled "${title}" fewer than ${before} in the Sessions view`, async () => (await rows.count()) === before - 1, 30_000);
}

/** Delete All Sessions from the palette, and the question it asks first answered Delete All. */
export async function deleteAllSessions(page: Page): Promise<void> {
  await runCommand(page, "Agent Stream: Delete All Sessions…");
  const dialog = page.locator(".monaco-dialog-box");
  await dialog.getByText(/^Delete all \d+ sessions of this workspace\?/).waitFor({ timeout: 30_000 });
  await dialog.getByRole("button", { name: "Delete All", exact: true }).click();
  await dialog.waitFor({ state: "hidden", timeout: 30_000 });
}

/**
 * The notification centre (the bell in the status bar). Toasts never show in this workbench: VS Code suppresses
 * them when it runs with the smoke-test driver, which code-server needs to load an extension under development.
 */
export async function openNotificationCenter(page: Page): Promise<Locator> {
  const center = page.locator(".notifications-center.visible");
  if (!(await center.isVisible())) await page.locator("#status\\.notifications").click();
  await center.waitFor();
  return center;
}

export async function closeNotificationCenter(page: Page): Promise<void> {
  const center = page.locator(".notifications-center.visible");
  if (await center.isVisible()) await center.getByRole("button", { name: /^Hide Notifications/ }).click();
  await center.waitFor({ state: "hidden" });
}
