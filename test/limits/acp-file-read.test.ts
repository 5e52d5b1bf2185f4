// An agent's read of a huge file costs `agent-stream ask` only what it asks for: the first line of a 300 MB file is read
// with memory flat, and the whole of it is refused with how to read it in parts. Real processes, peak RSS as the kernel
// counts it.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { AGENT_STREAM_MEMORY_BOUND, measureAgentStream, megabytes, type MeasuredRun } from "../helpers/peak-memory";
import { fakeCli } from "../helpers/repo";

const HUGE_BYTES = 300 * 1000 * 1000;
/** What reading a small file may cost beside reading a huge file's first line: noise, not the file. */
const FLAT_MARGIN = 48 * 1024 * 1024;

/** `ask` in `workspace` with the fake agent making `requests` (its answers, one JSON line each, end its stdout). */
async function measuredAsk(workspace: string, requests: object[]): Promise<MeasuredRun> {
  const previous = process.env.FAKE_ACP_FS;
  process.env.FAKE_ACP_FS = JSON.stringify(requests);
  try {
    return await measureAgentStream(["ask", "--profile", "acp", "--cli", process.execPath, `--arg=${fakeCli("fake-acp-fs-agent.mjs")}`, "--cwd", workspace, "--", "go"]);
  } finally {
    if (previous === undefined) delete process.env.FAKE_ACP_FS;
    else process.env.FAKE_ACP_FS = previous;
  }
}

function answersOf(run: MeasuredRun): { ok: boolean; head?: string; message?: string }[] {
  return run.stdoutTail.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as { ok: boolean; head?: string; message?: string });
}

describe("an agent's read of a huge file in bounded memory", function () {
  this.timeout(120_000);
  let workspace: string;

  before(() => {
    workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-huge-")));
    fs.writeFileSync(path.join(workspace, "small.txt"), "the first line\n");
    const huge = path.join(workspace, "huge.log");
    fs.writeFileSync(huge, "the first line\n");
    fs.truncateSync(huge, HUGE_BYTES);
  });

  after(() => fs.rmSync(workspace, { recursive: true, force: true }));

  it("reads line 1 of a 300 MB file with memory as flat as a small file's, and refuses the whole file, saying how to read it in parts", async () => {
    const small = await measuredAsk(workspace, [{ read: path.join(workspace, "small.txt"), line: 1, limit: 1 }]);
    const huge = await measuredAsk(workspace, [
      { read: path.join(workspace, "huge.log"), line: 1, limit: 1 },
      { read: path.join(workspace, "huge.log") },
    ]);
    assert.equal(huge.code, 0, huge.stderr);
    const [first, whole] = answersOf(huge);
    assert.deepEqual(first, { ok: true, chars: 14, head: "the first line" });
    assert.match(whole?.message ?? "", /huge\.log is 286\.2 MiB, more than the 4 MiB one read returns: read it in parts with line and limit/);
    assert.ok(huge.peakRss < AGENT_STREAM_MEMORY_BOUND, `peak RSS ${megabytes(huge.peakRss)} is over ${megabytes(AGENT_STREAM_MEMORY_BOUND)}`);
    assert.ok(huge.peakRss < small.peakRss + FLAT_MARGIN, `peak RSS ${megabytes(huge.peakRss)} against ${megabytes(small.peakRss)} for a small file`);
  });
});
