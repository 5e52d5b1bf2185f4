// What is left running of a CLI the extension started, seen from outside the extension host through /proc.
import * as fs from "node:fs";

/** Running, as opposed to gone or a zombie (dead, not yet reaped: PID 1 here reaps orphans every few seconds). */
export function isRunning(pid: number): boolean {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return false;
  }
  // "pid (comm) S ...": comm may hold spaces and parentheses, the state follows the last ")".
  const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  return state !== "Z" && state !== "X";
}

/**
 * The running processes whose environment holds `entry` (NAME=value): the CLI and whatever it started, which inherits
 * it. A command line would name the CLI's own process only (and pi's is `node …/pi`, since it is a script).
 */
export function runningWithEnvironment(entry: string): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let environ: string;
    try {
      environ = fs.readFileSync(`/proc/${name}/environ`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    if (environ.split("\0").includes(entry) && isRunning(Number(name))) pids.push(Number(name));
  }
  return pids;
}

/** The variable the e2e suites put in a CLI's environment so that runningWithEnvironment finds it and its children. */
export const RUN_MARKER_VARIABLE = "AGENT_STREAM_E2E_RUN";

/**
 * A CLI's environment for `agentStream.cli.env`, from the recorder's: without PATH (the extension host has its own,
 * and the CLI's path is absolute), with RUN_MARKER_VARIABLE set to `marker`.
 */
export function markedCliEnvironment(env: Readonly<Record<string, string>>, marker: string): Record<string, string> {
  const rest = Object.fromEntries(Object.entries(env).filter(([name]) => name !== "PATH"));
  return { ...rest, [RUN_MARKER_VARIABLE]: marker };
}
