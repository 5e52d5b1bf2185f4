// Opening the chat in a real VS Code (code-server, its Node extension host, Chromium) with 1,000 stored sessions and a
// 5 MB active one, against an empty store, in the same run: issue 23's target is ≤ 1.5× the empty store's time and
// < 30 MB more extension host memory. bench/session-store.bench.ts measures the host's share alone.
//
// Each run is a fresh code-server and browser: the window opened once, the chat shown (and, seeded, the 5 MB session
// opened from the Sessions view so that it is the active one) and painted, then reloaded, as a user comes back to the window. The
// reload is what is measured: from its navigation and from the extension's activation to the Sessions view's row of
// the active session, the chat's frame with the active session's end painted, and the frame after its last slice
// (every turn painted); then the extension host's RSS. Empty and seeded runs alternate, ABBA.
// Run: npm run bench:sessions-workbench [-- ROUNDS]
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Frame, Page } from "playwright-core";
import { startCodeServer, type CodeServer } from "../scripts/code-server";
import { launchChromium } from "../scripts/chromium";
import { chatOfSession, sessionRow, showSessions, UNTITLED } from "../test/e2e/sessions-workbench";
import { ACTIVE_SESSION_BYTES, ACTIVE_SESSION_TURNS, fillStore, STORED_SESSIONS } from "./stored-sessions";

const ROUNDS = Number(process.argv[2] ?? 5);
const EXTENSION_ID = "agent-stream.agent-stream";
const TIMEOUT_MS = 180_000;

type Store = "empty" | "seeded";

interface Opening {
  /** From the reload's navigation to the extension's activation (VS Code's extension host log). */
  activatedMs: number;
  /** From the activation: the Sessions view shows the active session's row. */
  rowsMs: number;
  /** From the activation: the chat webview's document began to load (VS Code made the webview the extension resolved). */
  chatDocumentMs: number;
  /** From the activation: the first frame in which the chat's header names the active session (its snapshot handled). */
  chatHeaderMs: number;
  /** From the activation: the first frame in which the chat shows the active session's end (its turns are painted from the end). */
  chatEndMs: number;
  /** From the activation: the first frame in which every turn of the active session is painted (the chat no longer aria-busy). */
  chatWholeMs: number;
  /** The extension host's resident memory once the chat is painted whole, MiB. */
  hostRssMiB: number;
}

/**
 * VS Code web names a folder's workspace storage by a string hash of the folder's URI (vs/base/common/hash's
 * stringHash, in hex): the folder the extension's storageUri points into, written before the window opens.
 */
function workspaceStorageId(server: CodeServer, folder: string): string {
  const uri = `vscode-remote://127.0.0.1:${server.port}${folder}`;
  let hash = 149417; // the seed stringHash mixes in first
  for (let i = 0; i < uri.length; i++) hash = ((hash << 5) - hash + uri.charCodeAt(i)) | 0;
  return hash.toString(16);
}

/** What the page functions below read of a document (the root tsconfig has no DOM types). */
interface PageDocument {
  querySelector(selector: string): { textContent: string | null } | null;
  querySelectorAll(selector: string): ArrayLike<{ getAttribute(name: string): string | null }>;
}

/**
 * Runs in the chat's frame, polled at every animation frame (a function, not a string: the webview's CSP forbids
 * eval; and self-contained: Playwright sends its source): the time of the first frame in which it shows the session titled `title`, with at least `atLeast` turns and,
 * when `whole`, none still to paint.
 */
function chatPainted({ title, atLeast, whole }: { title: string; atLeast: number; whole: boolean }): number | false {
  const document = (globalThis as unknown as { document: PageDocument }).document;
  const shown = document.querySelector(".session-title")?.textContent === title;
  const turns = document.querySelectorAll("article.turn").length;
  const busy = document.querySelector(".transcript[aria-busy]") !== null;
  return shown && turns >= atLeast && (!whole || !busy) ? Date.now() : false;
}

/** Runs in the workbench, polled at every animation frame: the time of the first frame with a view's row of `title`. */
function rowPainted(title: string): number | false {
  const rows = Array.from((globalThis as unknown as { document: PageDocument }).document.querySelectorAll(".pane .monaco-list-row[aria-label]"));
  return rows.some((row) => row.getAttribute("aria-label")?.startsWith(`${title}, `) === true) ? Date.now() : false;
}

/** The chat webview's own document, once it exists (VS Code's webview frame holds it in a frame of its own). */
async function chatDocument(page: Page): Promise<Frame> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (Date.now() < deadline) {
    const outer = await (await page.waitForSelector("iframe.webview", { timeout: TIMEOUT_MS })).contentFrame();
    const inner = await outer?.waitForSelector("iframe#active-frame", { timeout: 5000 }).catch(() => null);
    const frame = await inner?.contentFrame();
    if (frame) return frame;
  }
  throw new Error("the chat's webview never loaded");
}

/** The time of the first frame in which the chat is painted as asked, following its document if the webview replaces it. */
async function chatPaintedAt(page: Page, args: { title: string; atLeast: number; whole: boolean }): Promise<number> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const frame = await chatDocument(page);
    try {
      const handle = await frame.waitForFunction(chatPainted, args, { polling: "raf", timeout: Math.max(1, deadline - Date.now()) });
      return (await handle.jsonValue()) as number;
    } catch (error) {
      if (Date.now() > deadline || !frame.isDetached()) throw error;
    }
  }
}

/** When the extension host of the reloaded window began activating this extension: its log line's local time, to the millisecond. */
function activationTime(server: CodeServer, after: number): number {
  const logs = path.join(server.userData, "logs");
  const times: number[] = [];
  for (const session of fs.readdirSync(logs)) {
    const folder = path.join(logs, session);
    if (!fs.statSync(folder).isDirectory()) continue;
    for (const host of fs.readdirSync(folder).filter((name) => /^exthost\d+$/.test(name))) {
      const file = path.join(folder, host, "remoteexthost.log");
      if (!fs.existsSync(file)) continue;
      for (const match of fs.readFileSync(file, "utf8").matchAll(/^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3}) \[info\] ExtensionService#_doActivateExtension (\S+),/gm)) {
        if (match[3] !== EXTENSION_ID) continue;
        const time = new Date(`${match[1]}T${match[2]}`).getTime();
        if (time >= after) times.push(time);
      }
    }
  }
  if (times.length === 0) throw new Error(`no extension host logged the activation of ${EXTENSION_ID} after the reload`);
  return Math.min(...times);
}

/** The newest extension host of the server (the reloaded window's; the one before may linger for its grace time): its RSS, MiB. */
function hostRssMiB(server: CodeServer): number {
  let newest: { start: number; rssKiB: number } | undefined;
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      // Fields after the command's closing parenthesis: state, ppid, pgrp, …, starttime (the 22nd field).
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== server.processGroup) continue;
      if (!fs.readFileSync(`/proc/${name}/cmdline`, "utf8").includes("extensionHost")) continue;
      const start = Number(fields[19]);
      const rssKiB = Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${name}/status`, "utf8"))?.[1]);
      if (newest === undefined || start > newest.start) newest = { start, rssKiB };
    } catch {
      continue; // gone meanwhile
    }
  }
  if (newest === undefined) throw new Error("no extension host runs under the code-server");
  return newest.rssKiB / 1024;
}

async function openOnce(store: Store): Promise<Opening> {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "sessions-workbench-bench-"));
  fs.writeFileSync(path.join(workspace, "README.md"), "# Sample workspace\n");
  const server = await startCodeServer({ settings: { "agentStream.useBuiltinAgent": true } });
  const browser = await launchChromium();
  try {
    let title = UNTITLED;
    let turns = 0;
    if (store === "seeded") {
      const storage = path.join(server.userData, "User", "workspaceStorage", workspaceStorageId(server, workspace), EXTENSION_ID);
      const active = await fillStore(storage);
      [title, turns] = [active.title, active.turns.length];
    }
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(server.workbenchUrl(workspace));
    await page.waitForSelector(".monaco-workbench", { timeout: TIMEOUT_MS });
    // The window as the user left it: the chat shown, the 5 MB session the active one (opened from its row).
    await showSessions(page);
    if (store === "seeded") await sessionRow(page, title).click({ timeout: TIMEOUT_MS });
    await chatOfSession(page, title, TIMEOUT_MS);
    // Reloaded only once painted whole: a page still painting 5 MB slows the reload's start by seconds, and that is
    // the window before, not this one.
    await chatPaintedAt(page, { title, atLeast: turns, whole: true });
    const reloaded = page.reload({ waitUntil: "commit" });
    await reloaded;
    const navigationStart = (await page.evaluate("performance.timeOrigin")) as number;
    const [rows, chatHeader, chatEnd, chatWhole] = await Promise.all([
      page.waitForFunction(rowPainted, title, { polling: "raf", timeout: TIMEOUT_MS }).then(async (handle) => (await handle.jsonValue()) as number),
      chatPaintedAt(page, { title, atLeast: 0, whole: false }),
      chatPaintedAt(page, { title, atLeast: Math.min(turns, 1), whole: false }),
      chatPaintedAt(page, { title, atLeast: turns, whole: true }),
    ]);
    const hostRss = hostRssMiB(server);
    const chatBegan = await (await chatDocument(page)).evaluate(() => performance.timeOrigin);
    const activated = activationTime(server, navigationStart);
    return { activatedMs: activated - navigationStart, rowsMs: rows - activated, chatDocumentMs: chatBegan - activated, chatHeaderMs: chatHeader - activated, chatEndMs: chatEnd - activated, chatWholeMs: chatWhole - activated, hostRssMiB: hostRss };
  } catch (error) {
    if (process.env["BENCH_KEEP"]) fs.cpSync(path.join(server.userData, "logs"), process.env["BENCH_KEEP"], { recursive: true });
    console.error(`the extension's log:\n${server.extensionLog().split("\n").slice(-40).join("\n")}`);
    throw error;
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function report(runs: Record<Store, Opening[]>): void {
  console.log(
    `opening the chat in code-server after a reload: empty store, against ${STORED_SESSIONS.toLocaleString("en")} stored sessions and a ${(ACTIVE_SESSION_BYTES / (1024 * 1024)).toFixed(0)} MB active one of ${ACTIVE_SESSION_TURNS} turns; ${ROUNDS} runs each, ABBA, each a fresh code-server and browser`,
  );
  console.log(
    "activation: from the reload's navigation; the rest from the activation. rows: the Sessions view shows the active session's row; chat doc: the chat webview's document begins; " +
      "chat header: the frame whose header names the active session (its snapshot arrived); chat end: the frame with the active session's end; chat whole: the frame after its last slice",
  );
  console.log("");
  const columns: (keyof Opening)[] = ["activatedMs", "rowsMs", "chatDocumentMs", "chatHeaderMs", "chatEndMs", "chatWholeMs", "hostRssMiB"];
  console.log(`${"ms (host MiB), median (max)".padEnd(30)}${["activation", "rows", "chat doc", "chat header", "chat end", "chat whole", "host RSS"].map((name) => name.padStart(14)).join("")}`);
  for (const store of ["empty", "seeded"] as const) {
    const cells = columns.map((column) => `${median(runs[store].map((run) => run[column])).toFixed(0)} (${Math.max(...runs[store].map((run) => run[column])).toFixed(0)})`);
    console.log(`  ${store.padEnd(28)}${cells.map((cell) => cell.padStart(14)).join("")}`);
  }
  const ratio = (column: keyof Opening) => median(runs.seeded.map((run) => run[column])) / median(runs.empty.map((run) => run[column]));
  const ready = (store: Store) => median(runs[store].map((run) => Math.max(run.rowsMs, run.chatEndMs)));
  const fromLoad = (store: Store) => median(runs[store].map((run) => run.activatedMs + Math.max(run.rowsMs, run.chatEndMs)));
  const memory = median(runs.seeded.map((run) => run.hostRssMiB)) - median(runs.empty.map((run) => run.hostRssMiB));
  console.log("");
  console.log(`seeded / empty, from the activation to the rows and the chat's end painted: ${(ready("seeded") / ready("empty")).toFixed(2)}× (${ready("empty").toFixed(0)} → ${ready("seeded").toFixed(0)} ms; target ≤ 1.5×)`);
  console.log(`seeded / empty, from the reload to the rows and the chat's end painted: ${(fromLoad("seeded") / fromLoad("empty")).toFixed(2)}× (${fromLoad("empty").toFixed(0)} → ${fromLoad("seeded").toFixed(0)} ms)`);
  console.log(`seeded / empty, each: rows ${ratio("rowsMs").toFixed(2)}×, chat end ${ratio("chatEndMs").toFixed(2)}×, chat whole ${ratio("chatWholeMs").toFixed(2)}×`);
  console.log(`extension host RSS, seeded − empty: ${memory >= 0 ? "+" : ""}${memory.toFixed(1)} MiB (target < 30 MB)`);
}

async function main(): Promise<void> {
  const runs: Record<Store, Opening[]> = { empty: [], seeded: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const store of round % 2 === 0 ? (["empty", "seeded"] as const) : (["seeded", "empty"] as const)) {
      const run = await openOnce(store);
      runs[store].push(run);
      process.stderr.write(
        `  run ${round + 1} ${store}: activated ${run.activatedMs.toFixed(0)} ms after the reload; then rows ${run.rowsMs.toFixed(0)} ms, chat doc ${run.chatDocumentMs.toFixed(0)} ms, chat header ${run.chatHeaderMs.toFixed(0)} ms, chat end ${run.chatEndMs.toFixed(0)} ms, chat whole ${run.chatWholeMs.toFixed(0)} ms; host ${run.hostRssMiB.toFixed(0)} MiB\n`,
      );
    }
  }
  report(runs);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
