// `agent-stream` in bounded memory whatever it reads: answers longer than a JavaScript string can hold, gigabyte
// recordings, gzip bombs, JSON nested 100,000 deep. Real processes; the big inputs are generated on the fly.
import * as assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { CliStreamEventSchema } from "../../../src/protocol/events";
import { TranscriptSchema, type Transcript } from "../../../src/protocol/transcript";
import { TRANSCRIPT_LIMITS } from "../../../src/session/transcript-builder";
import { AGENT_STREAM_MEMORY_BOUND, measureAgentStream, megabytes, type MeasuredRun } from "../../helpers/peak-memory";
import { fakeCli } from "../../helpers/repo";

const LONG_STREAM = fakeCli("long-stream.js");
/** More characters than one JavaScript string can hold (2^29 - 24). */
const LONGER_THAN_A_STRING = 600 * 1024 * 1024;
const GIBIBYTE = 1024 * 1024 * 1024;
/** A whole transcript: its blocks are bounded, so it is (the cap as JSON, and some). */
const TRANSCRIPT_CHARS = 2 * TRANSCRIPT_LIMITS.sessionChars;

/** The generator's stdout, to be an agent-stream's stdin. */
function generated(...args: string[]): ChildProcess {
  return spawn(process.execPath, [LONG_STREAM, ...args], { stdio: ["ignore", "pipe", "inherit"] });
}

function assertBounded(run: MeasuredRun): void {
  assert.ok(run.peakRss < AGENT_STREAM_MEMORY_BOUND, `peak RSS ${megabytes(run.peakRss)} is over ${megabytes(AGENT_STREAM_MEMORY_BOUND)}`);
}

function transcriptOf(run: MeasuredRun): Transcript {
  return TranscriptSchema.parse(JSON.parse(run.stdoutTail));
}

function lastEvent(run: MeasuredRun) {
  const lines = run.stdoutTail.trimEnd().split("\n");
  return CliStreamEventSchema.parse(JSON.parse(lines[lines.length - 1]));
}

describe("agent-stream in bounded memory", function () {
  this.timeout(240_000);

  describe("an answer longer than a JavaScript string can hold", () => {
    it("transcript keeps its first characters, counts the rest, ends with its done and stays under 200 MB", async () => {
      const run = await measureAgentStream(["transcript", "-"], generated("text", String(LONGER_THAN_A_STRING)).stdout!, TRANSCRIPT_CHARS);
      assert.equal(run.code, 0, run.stderr);
      const transcript = transcriptOf(run);
      assert.equal(transcript.status, "completed");
      assert.equal(transcript.blocks.length, 1);
      const block = transcript.blocks[0];
      assert.ok(block.kind === "text");
      assert.equal(block.text.length, TRANSCRIPT_LIMITS.blockChars);
      assert.equal(block.text.length + (block.truncatedChars ?? 0), LONGER_THAN_A_STRING);
      assertBounded(run);
    });

    it("run --json streams every event, exits with the done's code and stays under 200 MB", async () => {
      const run = await measureAgentStream(["run", "--json", "--", process.execPath, LONG_STREAM, "text", String(LONGER_THAN_A_STRING)]);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(run.stdoutBytes > LONGER_THAN_A_STRING, `printed only ${run.stdoutBytes} bytes`);
      const done = lastEvent(run);
      assert.equal(done.type, "done");
      assertBounded(run);
    });

    it("run prints the whole answer and its done line and stays under 200 MB", async () => {
      const run = await measureAgentStream(["run", "--", process.execPath, LONG_STREAM, "text", String(LONGER_THAN_A_STRING)]);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(run.stdoutBytes > LONGER_THAN_A_STRING, `printed only ${run.stdoutBytes} bytes`);
      assert.match(run.stdoutTail, /■ completed · exit 0/);
      assertBounded(run);
    });
  });

  describe("a stream of millions of tiny blocks", () => {
    it("transcript keeps its block limit, the last counting the rest, and stays under 200 MB", async () => {
      const BLOCKS = 3_000_000;
      const run = await measureAgentStream(["transcript", "-"], generated("blocks", String(BLOCKS)).stdout!, TRANSCRIPT_CHARS);
      assert.equal(run.code, 0, run.stderr);
      const transcript = transcriptOf(run);
      assert.equal(transcript.status, "completed");
      assert.equal(transcript.blocks.length, TRANSCRIPT_LIMITS.blocks);
      const note = transcript.blocks.at(-1);
      assert.ok(note?.kind === "status");
      assert.match(note.message ?? "", new RegExp(`${(BLOCKS - TRANSCRIPT_LIMITS.blocks + 1).toLocaleString("en-US")} more were not kept`));
      assert.ok(transcript.done.toolsUsed.length <= 1000, `${transcript.done.toolsUsed.length} tool names listed`);
      assertBounded(run);
    });
  });

  describe("a recorded stream replayed by transcript", () => {
    it("reads a 1 GiB stream in under 200 MB", async () => {
      const run = await measureAgentStream(["transcript", "-"], generated("text", String(GIBIBYTE), "thinking").stdout!, TRANSCRIPT_CHARS);
      assert.equal(run.code, 0, run.stderr);
      const [block] = transcriptOf(run).blocks;
      assert.ok(block.kind === "thinking");
      assert.equal(block.text.length + (block.truncatedChars ?? 0), GIBIBYTE);
      assertBounded(run);
    });

    it("reads a gzip bomb (a few MB that inflate to 1 GiB) in under 200 MB", async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-bomb-"));
      try {
        const file = path.join(dir, "bomb.ndjson.gz");
        writeGzipBomb(file, GIBIBYTE);
        assert.ok(fs.statSync(file).size < 16 * 1024 * 1024);
        const run = await measureAgentStream(["transcript", file], "ignore", TRANSCRIPT_CHARS);
        assert.equal(run.code, 0, run.stderr);
        const transcript = transcriptOf(run);
        assert.equal(transcript.status, "completed");
        assertBounded(run);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe("JSON nested 100,000 levels deep", () => {
    for (const where of ["deep-parameters", "deep-usage"]) {
      it(`run --json ends with a done when ${where === "deep-parameters" ? "a tool's parameters are" : "the done's usage is"} that deep`, async () => {
        const run = await measureAgentStream(["run", "--json", "--", process.execPath, LONG_STREAM, where]);
        const done = lastEvent(run);
        assert.equal(done.type, "done");
        assert.equal(run.code, done.type === "done" ? done.payload.exitCode : -1, run.stderr);
        assert.match(run.stdoutTail, /nested deeper than 64 levels/);
      });

      it(`transcript and check report the line of ${where} instead of failing`, async () => {
        const transcript = await measureAgentStream(["transcript", "-"], generated(where).stdout!);
        assert.ok(transcript.code === 0, `exit ${transcript.code}: ${transcript.stderr}`);
        const problems = transcriptOf(transcript).problems;
        assert.deepEqual(
          problems.filter((p) => p.code === "MALFORMED_EVENT").map((p) => p.message),
          ["nested deeper than 64 levels; skipped"],
        );
        const check = await measureAgentStream(["check", "-"], generated(where).stdout!);
        assert.equal(check.code, 1);
        assert.match(check.stdoutTail, /^line \d: MALFORMED_EVENT nested deeper than 64 levels; skipped$/m);
      });
    }
  });
});

/**
 * A small .gz file that inflates to `bytes` of one answer: gzip members inflate to the concatenation of their
 * contents, so one compressed block of deltas is written again and again.
 */
function writeGzipBomb(file: string, bytes: number): void {
  const line = (type: string, payload: object) => JSON.stringify({ protocol: 1, type, sessionId: "bomb", timestamp: 1, payload }) + "\n";
  const deltas = line("text_delta", { content: "boom ".repeat(12_000) }).repeat(64);
  const block = zlib.gzipSync(deltas, { level: 9 });
  const fd = fs.openSync(file, "w");
  try {
    fs.writeSync(fd, zlib.gzipSync(line("start", { command: "exec" })));
    for (let written = 0; written < bytes; written += deltas.length) fs.writeSync(fd, block);
    fs.writeSync(fd, zlib.gzipSync(line("done", { exitCode: 0, duration: 1, success: true })));
  } finally {
    fs.closeSync(fd);
  }
}
