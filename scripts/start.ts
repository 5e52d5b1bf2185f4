// `npm start`: opens a real VS Code with the extension loaded on a copy of the sample workspace, the built-in agent
// selected, so it works with no agent CLI and no API key. Desktop VS Code when `code` is on PATH, otherwise
// code-server on 127.0.0.1 (installed on first use into the cache; nothing is installed outside it).
// Ctrl-C or SIGTERM stops everything it started; the temporary folders go on every path, failures included.
//
//   npm start -- --check   (CI) installs and starts code-server as above, checks that it serves the workbench,
//                          then stops and cleans up.
// AGENT_STREAM_START_SETTINGS: a JSON object of extra user settings (try a real CLI with agentStream.cli.path).
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot, startCodeServer, StoppedError } from "./code-server";

const SAMPLE = path.join(repoRoot, "examples", "sample-workspace");

async function main(): Promise<number> {
  const check = process.argv.includes("--check");
  const stop = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
  // A copy, so that trying the agent never touches the repository's own files.
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-sample-"));
  try {
    fs.cpSync(SAMPLE, workspace, { recursive: true });
    if (!check && hasDesktopCode()) return await runDesktop(workspace, stop.signal);
    return await runCodeServer(workspace, stop.signal, check);
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

function settings(): Record<string, unknown> {
  const extra = process.env["AGENT_STREAM_START_SETTINGS"];
  const parsed: unknown = extra ? JSON.parse(extra) : {};
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("AGENT_STREAM_START_SETTINGS must be a JSON object");
  return { "agentStream.useBuiltinAgent": true, ...parsed };
}

function hasDesktopCode(): boolean {
  return spawnSync("code", ["--version"], { stdio: "ignore" }).status === 0;
}

async function runDesktop(workspace: string, signal: AbortSignal): Promise<number> {
  const userData = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-user-"));
  try {
    fs.mkdirSync(path.join(userData, "User"), { recursive: true });
    fs.writeFileSync(path.join(userData, "User", "settings.json"), JSON.stringify(settings(), null, 2));
    console.log(`Opening VS Code on ${workspace} with Agent Stream loaded (the built-in agent is selected).`);
    const code = spawn("code", ["--wait", "--new-window", `--extensionDevelopmentPath=${repoRoot}`, `--user-data-dir=${userData}`, workspace], {
      stdio: "inherit",
    });
    const exited = new Promise<number>((resolve) => code.once("exit", (exitCode) => resolve(exitCode ?? 1)));
    signal.addEventListener("abort", () => code.kill("SIGTERM"), { once: true });
    return await exited;
  } finally {
    fs.rmSync(userData, { recursive: true, force: true });
  }
}

async function runCodeServer(workspace: string, signal: AbortSignal, check: boolean): Promise<number> {
  console.log("No desktop `code` on PATH: starting code-server on 127.0.0.1 (installed on first use, which takes minutes).");
  // Loaded as an installed extension, not through the test driver: notifications then pop up as users see them.
  const server = await startCodeServer({ settings: settings(), load: "installed", signal });
  try {
    const url = server.workbenchUrl(workspace);
    if (check) {
      await checkServes(server.url, url);
      console.log(`code-server served the workbench at ${url}; stopping (--check).`);
      return 0;
    }
    console.log(`\nAgent Stream is running in VS Code (code-server) at:\n\n  ${url}\n`);
    console.log("Open it in a browser, click the Agent Stream icon in the activity bar, and ask about the workspace.");
    console.log("Press Ctrl-C to stop.");
    await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
    console.log("\nStopping code-server…");
    return 0;
  } finally {
    await server.stop();
  }
}

/** What a browser gets first: the health check, then the workbench page itself. */
async function checkServes(base: string, workbenchUrl: string): Promise<void> {
  const health = await fetch(`${base}/healthz`);
  if (!health.ok) throw new Error(`${base}/healthz answered ${health.status}`);
  const page = await fetch(workbenchUrl);
  const html = await page.text();
  if (!page.ok || !html.includes("workbench")) throw new Error(`${workbenchUrl} answered ${page.status} without the workbench`);
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    if (error instanceof StoppedError) {
      console.error("npm start: stopped before VS Code was ready.");
      process.exitCode = 130;
      return;
    }
    console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
