// Replaying a client's log of ACP traffic (`agent-stream transcript`, Replay Stream File) whose requests are never
// answered: memory stays bounded and time linear, however many. Real processes; the logs are generated on the fly.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { TranscriptSchema } from "../../../../src/protocol/transcript";
import { AGENT_STREAM_MEMORY_BOUND, measureAgentStream, megabytes } from "../../../helpers/peak-memory";
import { fakeCli } from "../../../helpers/repo";

/** The generator's stdout: a log of that many megabytes, each turn leaving a request of `characters` unanswered. */
function unansweredLog(megabytesLong: number, characters: number) {
  return spawn(process.execPath, [fakeCli("unanswered-acp-log.js"), String(megabytesLong), String(characters)], { stdio: ["ignore", "pipe", "inherit"] }).stdout!;
}

describe("replaying an ACP log whose requests are never answered", function () {
  this.timeout(240_000);

  it("stays under 200 MB for a 150 MB log that leaves an 8 KB request unanswered each turn", async () => {
    const run = await measureAgentStream(["transcript", "--dialect", "acp", "-"], unansweredLog(150, 8 * 1024), 4 * 1024 * 1024);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(TranscriptSchema.parse(JSON.parse(run.stdoutTail)).status, "completed");
    assert.ok(run.peakRss < AGENT_STREAM_MEMORY_BOUND, `peak RSS ${megabytes(run.peakRss)} is over ${megabytes(AGENT_STREAM_MEMORY_BOUND)}`);
  });

  it("reads a 60 MB log that leaves a request unanswered each turn in well under 20 seconds (it took three minutes)", async () => {
    const started = performance.now();
    const run = await measureAgentStream(["transcript", "--dialect", "acp", "-"], unansweredLog(60, 0), 4 * 1024 * 1024);
    const seconds = (performance.now() - started) / 1000;
    assert.equal(run.code, 0, run.stderr);
    assert.ok(seconds < 20, `took ${seconds.toFixed(1)} s`);
  });
});
