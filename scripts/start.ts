// `npm start`: opens a real VS Code with the extension loaded on the sample workspace, the built-in agent
// selected, so it works with no agent CLI and no API key. Desktop VS Code when `code` is on PATH, otherwise
// code-server on 127.0.0.1. Ctrl-C stops everything it started.
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot, startCodeServer } from "./code-server";

const SAMPLE = path.join(repoRoot, "examples", "sample-workspace");
const SETTINGS = { "agentStream.useBuiltinAgent": true };

async function main(): Promise<void> {
  // A copy, so that trying the agent never touches the repository's own files.
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-sample-"));
  fs.cpSync(SAMPLE, workspace, { recursive: true });
  if (hasDesktopCode()) await runDesktop(workspace);
  else await runCodeServer(workspace);
}

function hasDesktopCode(): boolean {
  return spawnSync("code", ["--version"], { stdio: "ignore" }).status === 0;
}

async function runDesktop(workspace: string): Promise<void> {
  const userData = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-user-"));
  fs.mkdirSync(path.join(userData, "User"), { recursive: true });
  fs.writeFileSync(path.join(userData, "User", "settings.json"), JSON.stringify(SETTINGS, null, 2));
  console.log(`Opening VS Code on ${workspace} with Agent Stream loaded (the built-in agent is selected).`);
  const code = spawn("code", ["--wait", "--new-window", `--extensionDevelopmentPath=${repoRoot}`, `--user-data-dir=${userData}`, workspace], {
    stdio: "inherit",
  });
  const stop = () => code.kill("SIGTERM");
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await new Promise((resolve) => code.once("exit", resolve));
}

async function runCodeServer(workspace: string): Promise<void> {
  console.log("No desktop `code` on PATH: starting code-server (installed on first use into ~/.cache/agent-stream).");
  const server = await startCodeServer({ settings: SETTINGS });
  const url = server.workbenchUrl(workspace);
  console.log(`\nAgent Stream is running in VS Code (code-server) at:\n\n  ${url}\n`);
  console.log("Open it in a browser, click the Agent Stream icon in the activity bar, and ask about the workspace.");
  console.log("Press Ctrl-C to stop.");
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  console.log("\nStopping code-server…");
  await server.stop();
  fs.rmSync(workspace, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
