// `agent-stream run` and `ask` into a pipe whose reader stops reading for a while: what the reader has not taken must
// not pile up in agent-stream's memory. The CLI or agent is held back instead (it stops being read, and blocks on its
// own full pipe) until the reader goes on; then everything arrives, in bounded memory.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { AGENT_STREAM_CLI } from "../helpers/agent-stream-cli";
import { AGENT_STREAM_MEMORY_BOUND, megabytes } from "../helpers/peak-memory";
import { fakeCli, repoRoot } from "../helpers/repo";

/** How long the reader stops reading: long enough for an agent-stream that buffers to hold hundreds of megabytes. */
const STALL_MS = 5000;
const FLOOD_BYTES = 256 * 1024 * 1024;

interface StalledRun {
  code: number | null;
  peakRss: number;
  stdoutBytes: number;
  stdoutTail: string;
  stderr: string;
  /** Whether `gaveUp` held when the reader went on reading. */
  gaveUpEarly: boolean;
}

/**
 * Runs `agent-stream <args>` with a stdout pipe nobody reads for STALL_MS, or until `gaveUp` holds (the source wrote
 * everything: agent-stream took it all in), then reads it to the end.
 */
async function withStalledReader(args: readonly string[], env: NodeJS.ProcessEnv, gaveUp: () => boolean): Promise<StalledRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-stalled-"));
  const rssFile = path.join(dir, "peak-rss");
  try {
    const child = spawn(process.execPath, ["--require", path.join(repoRoot, "out", "test", "helpers", "report-peak-rss.js"), AGENT_STREAM_CLI, ...args], {
      env: { ...process.env, ...env, NO_COLOR: "1", PEAK_RSS_FILE: rssFile },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr = (stderr + text).slice(-16 * 1024)));
    // The reader stalls: nothing takes stdout from the pipe until the stall is over.
    child.stdout!.pause();
    const stallEnds = Date.now() + STALL_MS;
    let gaveUpEarly = false;
    while (Date.now() < stallEnds && !(gaveUpEarly = gaveUp())) await new Promise((resolve) => setTimeout(resolve, 50));
    let stdoutBytes = 0;
    let stdoutTail = "";
    child.stdout!.setEncoding("utf8").on("data", (text: string) => {
      stdoutBytes += Buffer.byteLength(text);
      stdoutTail = (stdoutTail + text).slice(-64 * 1024);
    });
    child.stdout!.resume();
    const [code] = (await once(child, "close")) as [number | null];
    if (!fs.existsSync(rssFile)) throw new Error(`agent-stream died without exiting (code ${code}); stderr: ${stderr}`);
    return { code, peakRss: Number(fs.readFileSync(rssFile, "utf8")), stdoutBytes, stdoutTail, stderr, gaveUpEarly };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function assertBounded(run: StalledRun): void {
  assert.ok(run.peakRss < AGENT_STREAM_MEMORY_BOUND, `peak RSS ${megabytes(run.peakRss)} is over ${megabytes(AGENT_STREAM_MEMORY_BOUND)}`);
}

describe("agent-stream with a reader that stalls", function () {
  this.timeout(240_000);

  it("ask --json holds the ACP agent back while the reader stalls, then prints all it said, in bounded memory", async () => {
    const record = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-stalled-record-")), "record.ndjson");
    const flooded = () => fs.existsSync(record) && fs.readFileSync(record, "utf8").includes('"flooded"');
    const args = ["ask", "--json", "--profile", "acp", "--cli", process.execPath, `--arg=${fakeCli("fake-acp-agent.mjs")}`, "--arg=flood-text", "--", "go"];
    const run = await withStalledReader(args, { FAKE_ACP_RECORD: record, FAKE_ACP_FLOOD_BYTES: String(FLOOD_BYTES) }, flooded);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.gaveUpEarly, false, "the agent wrote its whole answer while nobody read ours: agent-stream took it all in");
    assert.ok(run.stdoutBytes > FLOOD_BYTES, `printed only ${run.stdoutBytes} bytes`);
    assert.match(run.stdoutTail, /"type":"done"/);
    assertBounded(run);
  });

  it("run --json holds the CLI back while the reader stalls, then prints all it said, in bounded memory", async () => {
    const args = ["run", "--json", "--", process.execPath, fakeCli("long-stream.js"), "text", String(FLOOD_BYTES)];
    const run = await withStalledReader(args, {}, () => false);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdoutBytes > FLOOD_BYTES, `printed only ${run.stdoutBytes} bytes`);
    assert.match(run.stdoutTail, /"type":"done"/);
    assertBounded(run);
  });
});
