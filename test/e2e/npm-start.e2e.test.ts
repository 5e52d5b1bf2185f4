// `npm start` (out/scripts/start.js, as the npm script runs it, on code-server) shows VS Code as users see it: the
// Agent Stream icon in the activity bar, and its error notifications popping up as toasts, not only in the bell.
// SIGTERM then stops it and removes what it made.
import * as assert from "node:assert/strict";
import { spawn, type ChildProcessByStdio } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Readable } from "node:stream";
import type { Browser } from "playwright-core";
import { launchChromium } from "../../scripts/chromium";
import { repoRoot } from "../helpers/repo";
import { ask, RESULTS } from "./workbench";

/** A first run installs code-server (minutes); later ones start in seconds. */
const READY_WITHIN_MS = 15 * 60_000;

describe("npm start on code-server, as a user opens it", function () {
  this.timeout(READY_WITHIN_MS + 180_000);
  let tmp: string;
  let start: ChildProcessByStdio<null, Readable, Readable> | undefined;
  let browser: Browser | undefined;

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-e2e-start-"));
  });
  after(async () => {
    await browser?.close();
    // A failed test still stops it the way a user does, so that it stops code-server too.
    if (start?.exitCode === null) {
      const child = start;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("shows the Agent Stream icon and pops up an error notification, then SIGTERM removes its temporary folders", async () => {
    const missingCli = path.join(tmp, "no-such-folder", "locus");
    start = spawn(process.execPath, [path.join(repoRoot, "out", "scripts", "start.js")], {
      cwd: repoRoot,
      env: {
        ...process.env,
        TMPDIR: tmp,
        // A CLI that is not there: asking fails with CLI_NOT_FOUND, an error notification.
        AGENT_STREAM_START_SETTINGS: JSON.stringify({ "agentStream.useBuiltinAgent": false, "agentStream.cli.path": missingCli }),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => start!.once("exit", (code) => resolve(code)));
    const url = await printedUrl(start, READY_WITHIN_MS);
    assert.doesNotMatch(url, /payload=/, "the extension must not need the smoke-test driver's payload");

    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(url);
    await page.locator('.activitybar [aria-label^="Agent Stream"]').first().waitFor({ timeout: 120_000 });
    await ask(page, "Are you there?");
    const toast = page.locator(".notifications-toasts .notification-toast", { hasText: "The agent CLI could not be found" }).first();
    await toast.waitFor({ timeout: 60_000 });
    fs.mkdirSync(RESULTS, { recursive: true });
    await page.screenshot({ path: path.join(RESULTS, "e2e-npm-start-toast.png") });
    await browser.close();
    browser = undefined;

    start.kill("SIGTERM");
    assert.equal(await exited, 0);
    const leftovers = fs.readdirSync(tmp).filter((name) => name.startsWith("agent-stream-"));
    assert.deepEqual(leftovers, [], "the workspace copy or code-server's home is still there");
    const base = new URL(url).origin;
    assert.equal(await fetch(`${base}/healthz`).then(() => "answering", () => "gone"), "gone", "code-server still answers");
  });
});

/** The workbench URL npm start prints once code-server is ready. */
function printedUrl(child: ChildProcessByStdio<null, Readable, Readable>, withinMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`no URL within ${withinMs / 60_000} min:\n${output}`)), withinMs);
    const onData = (d: Buffer) => {
      output += d.toString();
      const match = /^\s+(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)$/m.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code} before printing a URL:\n${output}`));
    });
  });
}
