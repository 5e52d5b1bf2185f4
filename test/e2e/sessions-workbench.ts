// The Sessions view of a real VS Code (code-server) as a user works it: its rows (each row's accessible label says
// title, agent, state), their inline actions, its badge, the modal that asks before a delete, the chat of one session
// among several webviews, and where the workbench's own code-server keeps its HOME. Used by sessions.e2e.test.ts.
import * as fs from "node:fs";
import type { FrameLocator, Locator, Page } from "playwright-core";

/** The Sessions view's pane (above Chat, in the Agent Stream container). */
export function sessionsPane(page: Page): Locator {
  return page.locator(".pane", { has: page.locator(".pane-header h3.title", { hasText: /^Sessions$/ }) });
}

/** The row of the session titled `title`: its label is "<title>, <agent>, <state>[, active]". */
export function sessionRow(page: Page, title: string): Locator {
  return sessionsPane(page).locator(`.monaco-list-row[aria-label^="${title.replace(/"/g, '\\"')}, "]`);
}

/** Waits until the row of `title` says `state` ("running", "waiting for you", "completed", …). */
export async function rowInState(page: Page, title: string, state: string, timeout = 120_000): Promise<void> {
  await sessionRow(page, title)
    .and(page.locator(`[aria-label*=", ${state}"]`))
    .waitFor({ timeout })
    .catch(async (error: unknown) => {
      const labels = await sessionsPane(page).locator(".monaco-list-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("aria-label")));
      throw new Error(`the row "${title}" never said "${state}"; the rows: ${JSON.stringify(labels)}: ${String(error).split("\n")[0]}`);
    });
}

/** The Agent Stream container shown, its Sessions view expanded. */
export async function showSessions(page: Page): Promise<Locator> {
  await command(page, "Agent Stream: Open Chat");
  const pane = sessionsPane(page);
  await pane.waitFor({ timeout: 30_000 });
  if ((await pane.locator(".pane-header").getAttribute("aria-expanded")) !== "true") await pane.locator(".pane-header").click();
  await pane.locator(".monaco-list").waitFor({ timeout: 30_000 });
  return pane;
}

/** The view hidden and shown again, as a user folds and unfolds it: the CLIs' own stores are read again. */
export async function foldAndUnfoldSessions(page: Page): Promise<void> {
  const header = sessionsPane(page).locator(".pane-header");
  await header.click();
  await header.and(page.locator('[aria-expanded="false"]')).waitFor();
  await header.click();
  await header.and(page.locator('[aria-expanded="true"]')).waitFor();
}

/** An inline action of a row (its hover toolbar): "Open Session in Editor", "Rename Session…", "Delete Session…". */
export async function clickRowAction(page: Page, title: string, action: string): Promise<void> {
  const row = sessionRow(page, title);
  // The list draws a row again when any session changes (a new one, a state, a title): the new row is not hovered, so
  // its toolbar hides. Hover the row as it is now and click, again while it keeps being drawn anew.
  const deadline = Date.now() + 30_000;
  for (;;) {
    await row.hover();
    try {
      await row.locator(`.actions .action-label[aria-label="${action}"]`).click({ timeout: 3_000 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

/** The count on the Agent Stream icon of the activity bar (the Sessions view's badge), or null when it shows none. */
export async function containerBadge(page: Page): Promise<string | null> {
  const badge = page.locator('.activitybar .action-item:has(.action-label[aria-label^="Agent Stream"]) .badge .badge-content');
  if (!(await badge.isVisible())) return null;
  return (await badge.innerText()).trim();
}

/** VS Code's modal dialog when it shows `message`; answered by a click on one of its buttons. */
export function modalDialog(page: Page, message: string | RegExp): Locator {
  return page.locator(".monaco-dialog-box", { hasText: message });
}

/**
 * The chat webview that shows the session titled `title` (the sidebar's or an editor tab's): every webview is looked
 * at, since several sessions are on screen at once.
 */
export async function chatOfSession(page: Page, title: string, timeout = 60_000): Promise<FrameLocator> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const count = await page.locator("iframe.webview").count();
    for (let index = 0; index < count; index++) {
      const frame = page.frameLocator("iframe.webview").nth(index).frameLocator("iframe#active-frame");
      const shown = await frame
        .locator(".session-title")
        .innerText({ timeout: 1000 })
        .catch(() => undefined);
      if (shown === title && (await page.locator("iframe.webview").nth(index).isVisible())) return frame;
    }
    if (Date.now() > deadline) throw new Error(`no chat on screen shows the session "${title}"`);
    await page.waitForTimeout(250);
  }
}

/** The HOME of the code-server that serves `page`, which its extension host (and every agent it runs) inherits. */
export function codeServerHome(page: Page): string {
  const port = new URL(page.url()).port;
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let cmdline: string[];
    let environ: string[];
    try {
      cmdline = fs.readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
      if (!cmdline.includes(`127.0.0.1:${port}`) || !cmdline.includes("--bind-addr")) continue;
      environ = fs.readFileSync(`/proc/${name}/environ`, "utf8").split("\0");
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    const home = environ.find((entry) => entry.startsWith("HOME="));
    if (home !== undefined) return home.slice("HOME=".length);
  }
  throw new Error(`no code-server process listens on 127.0.0.1:${port}`);
}

/** The colour theme picked from the palette, as a user switches it. */
export async function useColorTheme(page: Page, theme: string): Promise<void> {
  await command(page, "Preferences: Color Theme");
  await page.locator(".quick-input-widget input").fill(theme);
  await page.locator(".quick-input-list .monaco-list-row", { has: page.getByText(theme, { exact: true }) }).first().click();
  await page.locator(".quick-input-widget").waitFor({ state: "hidden" });
}

/**
 * F1, the title, then a click on the row whose whole label is the title. workbench.ts's runCommand matches any part
 * of a label that is exactly the title, so "Agent Stream: New Session" can pick "Agent Stream: New Session with
 * Agent…" once that was used more recently (and sits first). A click on the sidebar's title first: a key pressed while
 * a chat's webview loads or holds the focus can be lost, and then the palette never opens.
 */
export async function command(page: Page, title: string): Promise<void> {
  const whole = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
  for (let attempt = 0; attempt < 30; attempt++) {
    await page.locator(".part.sidebar .composite.title").click();
    await page.keyboard.press("F1");
    const input = page.locator(".quick-input-widget input");
    if (!(await input.waitFor({ timeout: 5000 }).then(() => true, () => false))) continue;
    await input.fill(`>${title}`);
    const row = page.locator(".quick-input-list .monaco-list-row", { has: page.locator(".label-name", { hasText: whole }) }).first();
    if (await row.waitFor({ timeout: 2000 }).then(() => true, () => false)) {
      await row.click();
      return;
    }
    await page.keyboard.press("Escape");
  }
  throw new Error(`command "${title}" never appeared in the palette`);
}

/** New Session from the palette, whatever else runs (the status bar then speaks of the running ones). */
export async function newEmptySession(page: Page): Promise<FrameLocator> {
  await command(page, "Agent Stream: New Session");
  return chatOfSession(page, UNTITLED);
}

/** What an empty session is called until its first prompt names it. */
export const UNTITLED = "New session";

/** The primary sidebar dragged by its edge to `width` pixels, as a user widens it to read the rows. */
export async function widenSidebar(page: Page, width: number): Promise<void> {
  const box = await page.locator(".part.sidebar").boundingBox();
  if (box === null) throw new Error("the sidebar is not shown");
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width + 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 10 });
  await page.mouse.up();
}
