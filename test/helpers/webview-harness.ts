// The chat webview in real Chromium, served exactly as VS Code serves it: the page from renderWebviewPage (same
// CSP), the built dist/ files, and a stand-in for acquireVsCodeApi that records every intent. Used by the webview
// tests and the webview benchmark. This file runs in Node; code sent to the page is kept free of DOM types.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "../../scripts/chromium";
import { renderWebviewPage } from "../../src/panel/webview-html";
import type { HostMessage, WebviewIntent } from "../../src/protocol/messages";
import { TEST_HEADER, TEST_SESSION_ID } from "./test-session";
import { repoRoot } from "./repo";
import { BODY_CLASS, themeStylesheet, type Theme } from "./webview-themes";

// The end-to-end tests import the Chromium settings from here.
export { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../scripts/chromium";

let sharedBrowser: Promise<Browser> | undefined;

/**
 * One Chromium for every suite of a run (starting it takes seconds on two cores); each harness gets its own context.
 * A browser that cannot start is tried once: every later suite fails at once with the same error, rather than
 * each waiting for its own failed launch.
 */
export function getSharedBrowser(): Promise<Browser> {
  sharedBrowser ??= launchChromium();
  return sharedBrowser;
}

export async function closeSharedBrowser(): Promise<void> {
  const browser = sharedBrowser;
  sharedBrowser = undefined;
  // A launch that failed has nothing to close; its error was already reported by the suites that needed it.
  const launched = await browser?.catch(() => undefined);
  await launched?.close();
}

export interface HarnessOptions {
  theme?: Theme;
  placement?: "sidebar" | "editor";
  viewport?: { width: number; height: number };
  /** Defaults to the shared browser. */
  browser?: Browser;
}

const DIST = path.join(repoRoot, "dist");
const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".ttf": "font/ttf",
  ".map": "application/json",
};

/** Runs in the page before its own script: the VS Code API stand-in, and traps that record what must never happen. */
const INIT_SCRIPT = `(() => {
  const w = window;
  w.__intents = [];
  w.__envelopes = [];
  w.__pwned = [];
  w.__cspViolations = [];
  w.pwn = (what) => { w.__pwned.push(String(what)); };
  // VS Code keeps a webview's state across reloads; sessionStorage survives a reload of this tab.
  let state = JSON.parse(sessionStorage.getItem("__vscodeState") ?? "null");
  let acquired = false;
  w.acquireVsCodeApi = () => {
    if (acquired) throw new Error("An instance of the VS Code API has already been acquired");
    acquired = true;
    return Object.freeze({
      // Every intent travels in an envelope naming its session: tests read the intents, and the envelopes apart.
      postMessage: (message) => {
        const copy = JSON.parse(JSON.stringify(message));
        w.__envelopes.push(copy);
        w.__intents.push(copy !== null && typeof copy === "object" && "intent" in copy ? copy.intent : copy);
      },
      getState: () => state,
      setState: (next) => { state = next; sessionStorage.setItem("__vscodeState", JSON.stringify(next)); return next; },
    });
  };
  document.addEventListener("securitypolicyviolation", (e) => {
    w.__cspViolations.push(e.violatedDirective + " " + e.blockedURI + " " + (e.sample || ""));
  });
  // The parser has not made <html> yet when this runs: theme the page once it has.
  const theme = sessionStorage.getItem("__testTheme") ?? "__DEFAULT_THEME__";
  document.addEventListener("DOMContentLoaded", () => {
    document.documentElement.dataset.testTheme = theme;
    document.body.classList.add(__BODY_CLASSES__[theme]);
  });
})();`;

export { TEST_HEADER, TEST_SESSION_ID };

/** A host message as tests write it: about the test's session unless it names one. */
export type TestHostMessage = HostMessage extends infer M ? (M extends HostMessage ? Omit<M, "sessionId" | "header"> & Partial<Pick<M, Extract<keyof M, "sessionId" | "header">>> : never) : never;

function aboutTestSession(message: TestHostMessage): HostMessage {
  const stamped = { sessionId: TEST_SESSION_ID, ...message };
  return (stamped.type === "snapshot" || stamped.type === "header" ? { header: TEST_HEADER, ...stamped } : stamped) as HostMessage;
}

type PageWindow = {
  postMessage(message: unknown, targetOrigin: string): void;
  __intents: WebviewIntent[];
  __envelopes: unknown[];
  __pwned: string[];
  __cspViolations: string[];
};

export class WebviewHarness {
  /** Dialogs (alert, confirm, prompt) the page opened: none may ever open. */
  readonly dialogs: string[] = [];
  /** Navigations of any frame after the page loaded: none may happen. */
  readonly navigations: string[] = [];
  /** True while the harness itself loads the page: those navigations are expected. */
  private loading = false;

  private constructor(
    readonly page: Page,
    private readonly context: BrowserContext,
    private readonly server: http.Server,
    readonly origin: string,
  ) {}

  /** Serves the page, opens it and waits for the webview's `ready`. */
  static async open(options: HarnessOptions = {}): Promise<WebviewHarness> {
    const theme = options.theme ?? "dark";
    const placement = options.placement ?? "sidebar";
    // The browser first: a listening server left behind by a failed launch would keep mocha from ever exiting.
    const browser = options.browser ?? (await getSharedBrowser());
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    server.on("request", (request, response) => serve(request.url ?? "/", origin, placement, response));
    const context = await browser.newContext({ viewport: options.viewport ?? { width: 420, height: 900 } });
    const page = await context.newPage();
    const harness = new WebviewHarness(page, context, server, origin);
    const bodyClasses = JSON.stringify(BODY_CLASS);
    await page.addInitScript(INIT_SCRIPT.replace("__DEFAULT_THEME__", theme).replace("__BODY_CLASSES__", bodyClasses));
    page.on("dialog", (dialog) => {
      harness.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss().catch(() => undefined);
    });
    page.on("framenavigated", (frame) => {
      if (!harness.loading) harness.navigations.push(frame.url());
    });
    await harness.load(() => page.goto(`${origin}/`));
    return harness;
  }

  /** Reloads the page (a webview that was hidden and shown again) and waits for its `ready`. */
  async reload(): Promise<void> {
    await this.load(() => this.page.reload());
  }

  private async load(navigate: () => Promise<unknown>): Promise<void> {
    this.loading = true;
    try {
      await navigate();
      await this.page.waitForFunction("window.__intents.some((intent) => intent.type === 'ready')");
    } finally {
      this.loading = false;
    }
  }

  /**
   * Delivers messages as the host would (VS Code posts to the webview's window); resolves once the view took them. A
   * message that names no session is about the test's session (TEST_SESSION_ID), and a snapshot without a header gets
   * TEST_HEADER.
   */
  async send(...given: TestHostMessage[]): Promise<void> {
    const messages = given.map(aboutTestSession);
    await this.page.evaluate(
      (list) =>
        new Promise<void>((resolve) => {
          const page = globalThis as unknown as PageWindow & {
            addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
            removeEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
          };
          // Messages arrive in order: once this last one has, the view has taken the others (a busy page may paint a
          // frame before it takes a message, so a test that waits for frames would otherwise look too early).
          const delivered = (event: { data: unknown }) => {
            if (event.data !== "__harness-delivered") return;
            page.removeEventListener("message", delivered);
            resolve();
          };
          page.addEventListener("message", delivered);
          for (const message of list) page.postMessage(message, "*");
          page.postMessage("__harness-delivered", "*");
        }),
      messages,
    );
  }

  /**
   * Delivers messages `perFrame` at a time, one batch per animation frame, from inside the page (no round trip
   * per message): a stream as it arrives while the view paints. Resolves after the last batch was posted.
   */
  async sendOverFrames(given: readonly TestHostMessage[], perFrame = 1): Promise<void> {
    const messages = given.map(aboutTestSession);
    await this.page.evaluate(
      ([list, batch]) =>
        new Promise<void>((resolve) => {
          const page = globalThis as unknown as PageWindow & { requestAnimationFrame(callback: () => void): number };
          let next = 0;
          const tick = () => {
            for (const end = Math.min(next + batch, list.length); next < end; next++) page.postMessage(list[next], "*");
            if (next < list.length) page.requestAnimationFrame(tick);
            else resolve();
          };
          page.requestAnimationFrame(tick);
        }),
      [messages, perFrame] as const,
    );
  }

  /** Every intent the webview posted since it loaded (or since `clearIntents`). */
  async intents(): Promise<WebviewIntent[]> {
    return (await this.page.evaluate("window.__intents")) as WebviewIntent[];
  }

  /** Every message the webview posted, as it posted it: an intent in its envelope. */
  async envelopes(): Promise<unknown[]> {
    return (await this.page.evaluate("window.__envelopes")) as unknown[];
  }

  async clearIntents(): Promise<void> {
    await this.page.evaluate("window.__intents.length = 0; window.__envelopes.length = 0");
  }

  /** Waits until the webview has posted an intent of this type, and returns the latest one. */
  async waitForIntent<T extends WebviewIntent["type"]>(type: T): Promise<Extract<WebviewIntent, { type: T }>> {
    await this.page.waitForFunction((wanted) => (globalThis as unknown as PageWindow).__intents.some((i) => i.type === wanted), type);
    const intents = await this.intents();
    return intents.filter((intent) => intent.type === type).at(-1) as Extract<WebviewIntent, { type: T }>;
  }

  /** Calls of window.pwn() and CSP violations: what a hostile payload would leave behind. */
  async pwnCalls(): Promise<string[]> {
    return (await this.page.evaluate("window.__pwned")) as string[];
  }

  async cspViolations(): Promise<string[]> {
    return (await this.page.evaluate("window.__cspViolations")) as string[];
  }

  /** Forgets recorded pwn() calls and CSP violations (after a control check that they are recorded). */
  async resetTraps(): Promise<void> {
    await this.page.evaluate("window.__pwned.length = 0; window.__cspViolations.length = 0");
  }

  /**
   * Resolves after `count` animation frames: what the webview paints, it paints in one of them. A snapshot is
   * painted over several tasks, with the transcript aria-busy meanwhile: the frames are counted once it is done.
   */
  async frames(count = 1): Promise<void> {
    // A frame first: messages sent before it are handled by then, and a snapshot among them has started painting.
    await this.countFrames(1);
    await this.page.waitForFunction(() => (globalThis as unknown as { document: { querySelector(selector: string): unknown } }).document.querySelector(".transcript[aria-busy]") === null);
    await this.countFrames(count);
  }

  private async countFrames(count: number): Promise<void> {
    await this.page.evaluate(
      (n) =>
        new Promise<void>((resolve) => {
          const raf = (globalThis as unknown as { requestAnimationFrame(callback: () => void): number }).requestAnimationFrame;
          let left = n;
          const tick = () => (--left <= 0 ? resolve() : raf(tick));
          raf(tick);
        }),
      count,
    );
  }

  /** Switches theme in place, and for later reloads. */
  async setTheme(theme: Theme): Promise<void> {
    await this.page.evaluate(
      ([name, classes]) => {
        const doc = (globalThis as unknown as { document: { documentElement: { dataset: Record<string, string> }; body: { classList: { remove(...c: string[]): void; add(c: string): void } } } }).document;
        (globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }).sessionStorage.setItem("__testTheme", name);
        doc.documentElement.dataset["testTheme"] = name;
        doc.body.classList.remove(...Object.values(classes));
        doc.body.classList.add(classes[name]);
      },
      [theme, BODY_CLASS] as const,
    );
  }

  /** Saves a PNG under test-results/ (or the directory given) and returns its path. */
  async screenshot(name: string, options: { fullPage?: boolean; directory?: string } = {}): Promise<string> {
    const file = path.join(options.directory ?? path.join(repoRoot, "test-results"), `${name}.png`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await this.page.screenshot({ path: file, fullPage: options.fullPage ?? false, animations: "disabled" });
    return file;
  }

  async close(): Promise<void> {
    await this.context.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function serve(url: string, origin: string, placement: "sidebar" | "editor", response: http.ServerResponse): void {
  const pathname = new URL(url, origin).pathname;
  if (pathname === "/") {
    const page = renderWebviewPage({
      cspSource: origin,
      scriptUri: `${origin}/dist/webview.js`,
      styleUris: [`${origin}/dist/codicons/codicon.css`, `${origin}/dist/webview.css`, `${origin}/test-theme.css`],
      nonce: randomBytes(18).toString("base64url"),
      placement,
    });
    send(response, 200, "text/html; charset=utf-8", page);
    return;
  }
  if (pathname === "/test-theme.css") {
    send(response, 200, CONTENT_TYPES[".css"], themeStylesheet());
    return;
  }
  const file = path.normalize(path.join(repoRoot, decodeURIComponent(pathname)));
  if (!file.startsWith(DIST + path.sep) || !fs.existsSync(file)) {
    send(response, 404, "text/plain", "not found");
    return;
  }
  send(response, 200, CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream", fs.readFileSync(file));
}

function send(response: http.ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  response.writeHead(status, { "Content-Type": contentType, "Cache-Control": "no-store" });
  response.end(body);
}
