// Starts the process watchdog (process-watchdog.ts) for one CLI, and tells it when there is nothing left to guard.
import { spawn, type ChildProcess } from "node:child_process";
import { Socket } from "node:net";
import * as path from "node:path";
import { RUN_COOKIE_VARIABLE } from "./process-tree";

/**
 * Next to the module that runs it: dist/process-watchdog.js beside dist/cli.js and dist/extension.js, and
 * out/src/process/process-watchdog.js beside the compiled core that tests load.
 */
export const DEFAULT_WATCHDOG_SCRIPT = path.join(__dirname, "process-watchdog.js");

/** The word the parent writes once the CLI's exit was reported. */
export const WATCHDOG_DONE = "done\n";

export interface Watchdog {
  /** The CLI's tree is gone: the watchdog exits without touching anything. */
  release(): void;
}

/**
 * POSIX only: on Windows the tree is ended with taskkill /T on Stop, and nothing watches for our death. Returns
 * undefined when there is no watchdog; the run goes on without one (a stop still ends the tree).
 */
export function startWatchdog(script: string, groupId: number, cookie: string): Watchdog | undefined {
  if (process.platform === "win32") return undefined;
  let watchdog: ChildProcess;
  try {
    watchdog = spawn(process.execPath, [script, String(groupId), cookie], {
      env: watchdogEnvironment(process.env),
      shell: false,
      // Its own session: not in the CLI's group, and out of reach of a terminal's Ctrl-C or hangup.
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
    });
  } catch {
    return undefined;
  }
  const stdin = watchdog.stdin;
  // A watchdog that failed to start, or died, must not crash its parent; the run goes on.
  watchdog.on("error", () => {});
  stdin?.on("error", () => {});
  // Neither the watchdog nor its pipe may keep `agent-stream` or the extension host from exiting.
  watchdog.unref();
  if (stdin instanceof Socket) stdin.unref();
  return {
    release: () => {
      if (stdin !== null && !stdin.destroyed) stdin.end(WATCHDOG_DONE);
    },
  };
}

/**
 * process.execPath is Electron in desktop VS Code: ELECTRON_RUN_AS_NODE makes it Node. NODE_OPTIONS (an inspector, a
 * preload) is not for the watchdog. Nor is a cookie of an enclosing run: its stop must not end the watchdog before it
 * has done its job.
 */
function watchdogEnvironment(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, ELECTRON_RUN_AS_NODE: "1" };
  delete env.NODE_OPTIONS;
  delete env[RUN_COOKIE_VARIABLE];
  return env;
}
