// Which processes a CLI started are still alive 5 s after each kind of stop (issue 12). The CLI
// (test/fake-clis/starts-escapees.js) leaves a detached child and a double-forked daemon outside its group.
// Linux only (it looks in /proc). Run: node esbuild.mjs && npx tsc -p . && node out/bench/process-cleanup.bench.js
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import * as os from "node:os";
import * as path from "node:path";
import { CliProcess } from "../src/process/cli-process";
import { AGENT_STREAM_CLI } from "../test/helpers/agent-stream-cli";
import { escapeesPidFile, killLeftovers, processesMentioning, removeEscapeesDirs, STARTS_ESCAPEES, survivorsAfter, waitForEscapees, whenEmpty, type Escapees } from "../test/helpers/escapees";

const DEADLINE_MS = 5000;
const HOST = path.join(__dirname, "..", "test", "helpers", "live-session-host.js");

interface Started {
  escapees: Escapees;
  /** Does the stop and resolves once the stopped process (CliProcess or agent-stream) has finished. */
  stop(): Promise<void>;
}

async function viaCliProcess(how: "stop" | "kill" | "exit"): Promise<Started> {
  const pidFile = escapeesPidFile();
  let exited: () => void = () => {};
  const exit = new Promise<void>((resolve) => (exited = resolve));
  const cli = CliProcess.start(
    { command: STARTS_ESCAPEES, args: [`--pid-file=${pidFile}`, ...(how === "exit" ? ["--then=exit"] : [])], cwd: os.tmpdir() },
    { onStdout: () => {}, onExit: () => exited() },
  );
  const escapees = await waitForEscapees(pidFile);
  return {
    escapees,
    stop: async () => {
      if (how === "stop") void cli.stop();
      if (how === "kill") cli.kill();
      await exit;
    },
  };
}

async function viaProcess(start: (pidFile: string) => ChildProcess, signal: NodeJS.Signals): Promise<Started> {
  const pidFile = escapeesPidFile();
  const child = start(pidFile);
  const escapees = await waitForEscapees(pidFile);
  return {
    escapees,
    stop: async () => {
      const closed = once(child, "close");
      child.kill(signal);
      await closed;
    },
  };
}

const agentStreamRun = (pidFile: string) =>
  spawn(process.execPath, [AGENT_STREAM_CLI, "run", "--json", "--", STARTS_ESCAPEES, `--pid-file=${pidFile}`], { stdio: "ignore" });
const liveSessionHost = (pidFile: string) => spawn(process.execPath, [HOST, STARTS_ESCAPEES, `--pid-file=${pidFile}`], { stdio: "ignore" });

const KINDS: [string, () => Promise<Started>][] = [
  ["CliProcess.stop() (Stop button)", () => viaCliProcess("stop")],
  ["CliProcess.kill() (window closes)", () => viaCliProcess("kill")],
  ["CLI exits by itself", () => viaCliProcess("exit")],
  ["agent-stream run, SIGINT (Ctrl-C)", () => viaProcess(agentStreamRun, "SIGINT")],
  ["agent-stream run, SIGHUP (terminal closed)", () => viaProcess(agentStreamRun, "SIGHUP")],
  ["agent-stream run, SIGTERM", () => viaProcess(agentStreamRun, "SIGTERM")],
  ["agent-stream run, SIGKILL", () => viaProcess(agentStreamRun, "SIGKILL")],
  ["host running LiveSession, SIGKILL (crashed extension host)", () => viaProcess(liveSessionHost, "SIGKILL")],
];

async function survivorsOf(kind: () => Promise<Started>): Promise<string> {
  const { escapees, stop } = await kind();
  const roles = { cli: escapees.cli, detached: escapees.detached, daemon: escapees.daemon };
  const stopped = Date.now();
  await stop();
  const alive = await survivorsAfter(Object.values(roles), DEADLINE_MS - (Date.now() - stopped));
  // The watchdog (it has the cookie in its arguments) gets the same deadline: at work until then is not surviving.
  const cookie = escapees.cookie;
  const watchdogs = cookie === null ? [] : await whenEmpty(() => processesMentioning(cookie), DEADLINE_MS - (Date.now() - stopped));
  killLeftovers([...alive, ...watchdogs]);
  const names = Object.entries(roles)
    .filter(([, pid]) => alive.includes(pid))
    .map(([role]) => role);
  if (watchdogs.length > 0) names.push("watchdog");
  return names.length === 0 ? "none" : names.join(", ");
}

async function main(): Promise<void> {
  if (process.platform !== "linux") throw new Error("Linux only: survivors are found in /proc");
  console.log(`| kind of stop | alive ${DEADLINE_MS / 1000} s later |\n|---|---|`);
  for (const [name, kind] of KINDS) console.log(`| ${name} | ${await survivorsOf(kind)} |`);
  removeEscapeesDirs();
}

void main();
