// Signals and probes everything a CLI started: its process group on POSIX, its process tree on Windows.
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import { errorCode } from "./error-code";

export interface ProcessTree {
  /** Sends the signal to every process of the tree; a tree that is already gone is not an error. */
  signal(signal: NodeJS.Signals): void;
  /** Whether any process of the tree may still be running. */
  isAlive(): boolean;
}

/** `child` must have been spawned with `detached: true` on POSIX, so that its pid is also its process group id. */
export function processTreeOf(child: ChildProcess, pid: number): ProcessTree {
  return process.platform === "win32" ? new WindowsProcessTree(child, pid) : new PosixProcessGroup(pid);
}

class PosixProcessGroup implements ProcessTree {
  constructor(private readonly groupId: number) {}

  signal(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.groupId, signal);
    } catch {
      // ESRCH: the group is gone. EPERM: a member we may not signal; nothing more we can do about it.
    }
  }

  isAlive(): boolean {
    try {
      process.kill(-this.groupId, 0);
    } catch (error) {
      return errorCode(error) === "EPERM";
    }
    return process.platform !== "linux" || hasRunningMember(this.groupId);
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
 * kill(-group, 0) also succeeds while only zombies are left, and a container whose PID 1 never reaps orphans keeps
 * them forever. So on Linux, look for a member that is not a zombie.
 */
function hasRunningMember(groupId: number): boolean {
  let names: string[];
  try {
    names = fs.readdirSync("/proc");
  } catch {
    return true;
  }
  // Members were started after the leader, so the newest pids (listed last) are the likeliest hits.
  for (let i = names.length - 1; i >= 0; i--) {
    const stat = readProcessStat(names[i]);
    if (stat !== undefined && stat.groupId === groupId && stat.state !== "Z" && stat.state !== "X") return true;
  }
  return false;
}

function readProcessStat(name: string): { state: string; groupId: number } | undefined {
  if (!/^\d+$/.test(name)) return undefined;
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${name}/stat`, "latin1");
  } catch {
    return undefined; // exited while we looked
  }
  // "pid (comm) state ppid pgrp ...": comm may contain spaces and parentheses, so split after the last ")".
  const [state, , groupId] = text.slice(text.lastIndexOf(")") + 2).split(" ", 3);
  return { state, groupId: Number(groupId) };
}
