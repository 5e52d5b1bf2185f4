// Debian's Chromium driven through playwright-core (which downloads no browser of its own): for the webview tests,
// the end-to-end tests and the integration runner. Facts behind the flags: docs/real-vscode-host.md.
import * as fs from "node:fs";
import { chromium, type Browser, type LaunchOptions } from "playwright-core";

export const CHROMIUM_PATH = process.env["AGENT_STREAM_CHROMIUM"] ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Rejects (never throws) when Chromium is missing, and within a minute when it does not start. */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: run scripts/ensure-chromium.sh (or set AGENT_STREAM_CHROMIUM)`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, timeout: 60_000, ...options });
}
