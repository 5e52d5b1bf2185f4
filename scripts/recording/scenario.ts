// What a recording scenario and an agent CLI are to the recorder.
import type { CliRun } from "./cli-run";
import type { MockReply, SideRequest } from "./mock-model-server";

/** The throwaway places one run gets. */
export interface RunPlaces {
  readonly home: string;
  readonly workspace: string;
  readonly port: number;
  /** The CLI's executable in the cache, where the run knows it (Codex's bundled bwrap sits in its package). */
  readonly executable?: string;
}

export interface RecordedScenario {
  readonly name: string;
  /** One sentence for the meta file and the fixtures' README. */
  readonly description: string;
  /** Arguments after the CLI's own common ones (the prompt included). */
  readonly args: (places: RunPlaces) => readonly string[];
  /** Common arguments this scenario leaves out, to record how the CLI refuses a bad command line. */
  readonly omitCommonArgs?: readonly string[];
  /** The model's replies, in order; `otherwise` answers every request after them. */
  readonly replies: (places: RunPlaces) => readonly MockReply[];
  readonly otherwise?: MockReply;
  readonly env?: Readonly<Record<string, string>>;
  /** Files to put in the workspace before the run, by relative path (bytes for a binary file such as an image). */
  readonly workspaceFiles?: Readonly<Record<string, string | Uint8Array>>;
  /** "pipe" when `drive` writes to the CLI's stdin. */
  readonly stdin?: "pipe";
  /** Plays the user's part while the CLI runs: waits for lines, writes input, sends signals. */
  readonly drive?: (run: CliRun, log: DriveLog) => Promise<void>;
  readonly timeoutMs?: number;
}

/** A scenario this CLI cannot play, and why: kept in the summary and the fixtures' README. */
export interface UnsupportedScenario {
  readonly name: string;
  readonly unsupported: string;
}

export type Scenario = RecordedScenario | UnsupportedScenario;

/** What the driver did to the CLI, kept in the meta file so a reader knows what produced the stream. */
export interface DriveLog {
  stdin(line: unknown): void;
  /** `to: "group"` when the whole process group got it. */
  signal(signal: NodeJS.Signals, to?: "group"): void;
  note(text: string): void;
}

export interface AgentCli {
  /** The fixtures folder is test/fixtures/<name>-recorded/. */
  readonly name: string;
  readonly packageName: string;
  /** The executable inside the package's install folder. */
  readonly binary: string;
  /** Flags for `npm install` beyond the usual (Claude Code's newer versions need --engine-strict=false on node 20). */
  readonly installFlags: readonly string[];
  readonly commonArgs: readonly string[];
  /** The environment for a run: only what the CLI needs, so nothing of ours (CLAUDECODE, keys) leaks in. */
  env(places: RunPlaces): Record<string, string>;
  /** Requests besides the conversation's, answered without taking a scenario's scripted reply. */
  readonly sideRequests?: readonly SideRequest[];
  /** Writes the CLI's own configuration under the throwaway HOME. */
  prepareHome(places: RunPlaces, scenario: RecordedScenario): void;
  readonly scenarios: readonly Scenario[];
}

export function isUnsupported(scenario: Scenario): scenario is UnsupportedScenario {
  return "unsupported" in scenario;
}

/** Waits for the first stdout line that `matches` (the first text delta, say), then signals the CLI's process group. */
export async function signalGroupAfter(run: CliRun, log: DriveLog, matches: (line: unknown) => boolean, signal: NodeJS.Signals): Promise<void> {
  await run.waitForLine(matches);
  log.signal(signal, "group");
  run.signalGroup(signal);
}

/** A CLI may keep running after what should have stopped it; after `graceMs` it gets `signal` (to its group), and that is noted. */
export async function signalIfStillRunning(run: CliRun, log: DriveLog, graceMs: number, signal: NodeJS.Signals, why: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const stillRunning = await Promise.race([
    run.exited.then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), graceMs);
    }),
  ]);
  clearTimeout(timer);
  if (!stillRunning) return;
  log.note(`still running ${graceMs / 1000} s after ${why}`);
  log.signal(signal, "group");
  run.signalGroup(signal);
}

export interface SignalScenarioOptions {
  readonly args: RecordedScenario["args"];
  readonly replies: RecordedScenario["replies"];
  readonly otherwise?: MockReply;
  /** The stdout line after which the signal goes, and those words for the description. */
  readonly after: (line: unknown) => boolean;
  readonly when: string;
}

/** `sigint` and `sigterm`: the same run, stopped at the same moment by each signal to the CLI's process group. */
export function signalScenarios(options: SignalScenarioOptions): RecordedScenario[] {
  return (["SIGINT", "SIGTERM"] as const).map((signal) => ({
    name: signal.toLowerCase(),
    description: `${signal} to the CLI's process group ${options.when}.`,
    args: options.args,
    replies: options.replies,
    otherwise: options.otherwise,
    drive: (run, log) => signalGroupAfter(run, log, options.after, signal),
  }));
}
