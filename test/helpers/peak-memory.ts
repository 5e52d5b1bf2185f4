// Runs `agent-stream` as a real process and measures it: its peak resident memory, its exit code, and the end of what
// it printed (the whole of it can be gigabytes, so only a tail is kept).
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Stream } from "node:stream";
import { AGENT_STREAM_CLI } from "./agent-stream-cli";

/** The bound the README promises for `agent-stream`, whatever its input. */
export const AGENT_STREAM_MEMORY_BOUND = 200 * 1024 * 1024;


export interface MeasuredRun {
  code: number | null;
  /** Peak resident memory in bytes, as the kernel counted it. */
  peakRss: number;
  stdoutBytes: number;
  /** The last `keepChars` characters of stdout (all of it when shorter). */
  stdoutTail: string;
  stderr: string;
}

/**
 * Runs `agent-stream <args>` with `stdin` (a file descriptor or a stream with one, e.g. a generator's stdout, or
 * "ignore") and resolves once it has exited.
 */
export async function measureAgentStream(
  args: readonly string[],
  stdin: "ignore" | number | Stream = "ignore",
  keepChars = 64 * 1024,
): Promise<MeasuredRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-rss-"));
  const rssFile = path.join(dir, "peak-rss");
  try {
    const child = spawn(process.execPath, ["--require", path.join(__dirname, "report-peak-rss.js"), AGENT_STREAM_CLI, ...args], {
      env: { ...process.env, NO_COLOR: "1", PEAK_RSS_FILE: rssFile },
      stdio: [stdin, "pipe", "pipe"],
    });
    const output = collectTail(child, keepChars);
    const [code] = (await once(child, "close")) as [number | null];
    if (!fs.existsSync(rssFile)) throw new Error(`agent-stream died without exiting (code ${code}); stderr: ${output.stderr.slice(-2000)}`);
    return { code, peakRss: Number(fs.readFileSync(rssFile, "utf8")), ...output };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function collectTail(child: ChildProcess, keepChars: number): { stdoutBytes: number; stdoutTail: string; stderr: string } {
  const result = { stdoutBytes: 0, stdoutTail: "", stderr: "" };
  child.stdout!.setEncoding("utf8").on("data", (text: string) => {
    result.stdoutBytes += Buffer.byteLength(text);
    result.stdoutTail = (result.stdoutTail + text).slice(-keepChars);
  });
  child.stderr!.setEncoding("utf8").on("data", (text: string) => (result.stderr = (result.stderr + text).slice(-64 * 1024)));
  return result;
}

export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(0)} MB`;
}
