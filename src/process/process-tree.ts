// Signals and probes everything a CLI started: its process group on POSIX (and on Linux every process that carries
// the run's cookie, even one that left the group), its process tree on Windows.
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import { errorCode } from "./error-code";

export interface ProcessTree {
  /** Sends the signal to every process of the tree; a tree that is already gone is not an error. */
  signal(signal: NodeJS.Signals): void;
  /** Whether any process of the tree may still be running. */
  isAlive(): boolean;
}

/**
 * The environment variable that marks every process of one run: its value lists the runs a process belongs to
 * (ours last), and descendants inherit it whatever group or session they move to. Jenkins' ProcessTreeKiller works
 * the same way.
 */
export const RUN_COOKIE_VARIABLE = "AGENT_STREAM_RUN";

/**
 * `child` must have been spawned with `detached: true` on POSIX, so that its pid is also its process group id.
 * `cookie` is the run's value in RUN_COOKIE_VARIABLE (see runCookieEnvironment).
 */
export function processTreeOf(child: ChildProcess, pid: number, cookie?: string): ProcessTree {
  return process.platform === "win32" ? new WindowsProcessTree(child, pid) : processGroupTree(pid, cookie);
}

/** For a process that did not start the group itself (the watchdog): the group, plus the cookie's holders on Linux. */
export function processGroupTree(groupId: number, cookie?: string): ProcessTree {
  return new PosixProcessTree(groupId, process.platform === "linux" && cookie !== undefined ? Buffer.from(cookie) : undefined);
}

/** The child's environment with this run's cookie added to those it inherited (a run started inside another run). */
export function runCookieEnvironment(env: NodeJS.ProcessEnv, cookie: string): NodeJS.ProcessEnv {
  const inherited = env[RUN_COOKIE_VARIABLE];
  return { ...env, [RUN_COOKIE_VARIABLE]: inherited === undefined || inherited === "" ? cookie : `${inherited} ${cookie}` };
}

class PosixProcessTree implements ProcessTree {
  constructor(
    private readonly groupId: number,
    /** Only on Linux, where /proc/<pid>/environ shows it. */
    private readonly cookie: Buffer | undefined,
  ) {}

  signal(signal: NodeJS.Signals): void {
    signalQuietly(-this.groupId, signal);
    if (this.cookie === undefined) return;
    for (const pid of runningMembers(this.groupId, this.cookie, false)) {
      if (pid !== this.groupId) signalQuietly(pid, signal);
    }
  }

  isAlive(): boolean {
    let groupExists = true;
    try {
      process.kill(-this.groupId, 0);
    } catch (error) {
      if (errorCode(error) === "EPERM") return true;
      groupExists = false;
    }
    if (process.platform !== "linux") return groupExists;
    // Without a cookie only the group is looked for, and only when kill(-group, 0) found something.
    if (!groupExists && this.cookie === undefined) return false;
    return runningMembers(this.groupId, this.cookie, true).length > 0;
  }
}

function signalQuietly(target: number, signal: NodeJS.Signals): void {
  try {
    process.kill(target, signal);
  } catch {
    // ESRCH: gone already. EPERM: a process we may not signal; nothing more we can do about it.
  }
}

/**
 * Windows has neither process groups nor SIGINT for a windowless child, so every step is a forced tree kill.
 * Liveness can only be seen for the CLI itself.
 */
class WindowsProcessTree implements ProcessTree {
  constructor(
    private readonly child: ChildProcess,
    private readonly pid: number,
  ) {}

  signal(): void {
    if (!this.isAlive()) return;
    const taskkill = spawn("taskkill", ["/T", "/F", "/PID", String(this.pid)], {
      shell: false,
      stdio: "ignore",
      windowsHide: true,
    });
    // taskkill exits by itself; if it cannot even start, at least end the CLI.
    taskkill.on("error", () => this.child.kill());
  }

  isAlive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }
}

/**
 * Linux: the running processes in the group or whose environment holds the cookie. Zombies do not count: they have
 * exited, and a container whose PID 1 never reaps orphans keeps them forever (kill(-group, 0) still finds them).
 * One pass over /proc, run only while a tree is being ended, never per line of output.
 */
function runningMembers(groupId: number, cookie: Buffer | undefined, firstOnly: boolean): number[] {
  let names: string[];
  try {
    names = fs.readdirSync("/proc");
  } catch {
    return [groupId]; // cannot look: assume the worst, the escalation gives up after its last step
  }
  const found: number[] = [];
  // Members were started after the leader, so the newest pids (listed last) are the likeliest hits.
  for (let i = names.length - 1; i >= 0; i--) {
    const pid = Number(names[i]);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const stat = readProcessStat(pid);
    if (stat === undefined || stat.state === "Z" || stat.state === "X") continue;
    if (stat.groupId !== groupId && (cookie === undefined || !holdsCookie(pid, cookie))) continue;
    found.push(pid);
    if (firstOnly) break;
  }
  return found;
}

function readProcessStat(pid: number): { state: string; groupId: number } | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return undefined; // exited while we looked
  }
  // "pid (comm) state ppid pgrp ...": comm may contain spaces and parentheses, so split after the last ")".
  const [state, , groupId] = text.slice(text.lastIndexOf(")") + 2).split(" ", 3);
  return { state, groupId: Number(groupId) };
}

/** The cookie is a random UUID, so finding its bytes anywhere in the environment is finding our variable. */
function holdsCookie(pid: number, cookie: Buffer): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`).includes(cookie);
  } catch {
    return false; // another user's process, or one that exited while we looked
  }
}
