// A live session with a CLI that reads its prompt on stdin: its input ends when its stream says the run is over,
// and Stop asks it in band first. Real child processes (test/fake-clis/stdin-locus.js).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createAdapter } from "../../../src/dialects/registry";
import type { SessionChange } from "../../../src/protocol/messages";
import { LiveSession } from "../../../src/session/live-session";
import { fakeCli } from "../../helpers/repo";

const isDone = (value: unknown) => typeof value === "object" && value !== null && (value as { type?: unknown }).type === "done";

function startStdinLocus(options: { deltas?: number; isRunOver?: (value: unknown) => boolean; onChange?: (change: SessionChange) => void; signalLog?: string }): LiveSession {
  return LiveSession.start({
    adapter: createAdapter("locus"),
    process: {
      command: fakeCli("stdin-locus.js"),
      args: [],
      cwd: os.tmpdir(),
      env: { ...process.env, FAKE_DELTAS: String(options.deltas ?? 5), FAKE_SIGNAL_LOG: options.signalLog ?? "" },
      input: { initial: `${JSON.stringify({ prompt: "hello" })}\n`, interrupt: { line: `${JSON.stringify({ interrupt: true })}\n`, graceMs: 10_000 } },
      inactivityTimeoutMs: 0,
    },
    isRunOver: options.isRunOver ?? isDone,
    onChange: options.onChange ?? (() => {}),
  });
}

describe("LiveSession with the prompt on stdin", function () {
  this.timeout(20_000);
  const signalLog = path.join(os.tmpdir(), `agent-stream-signals-${process.pid}`);
  afterEach(() => fs.rmSync(signalLog, { force: true }));

  it("closes the CLI's stdin once its stream says the run is over, so the CLI exits and the session completes", async () => {
    const transcript = await startStdinLocus({}).finished;
    assert.equal(transcript.status, "completed");
    assert.deepEqual(transcript.blocks, [{ kind: "text", text: "hello hello hello hello hello " }]);
    assert.equal(transcript.done.synthesized, false);
    assert.deepEqual(transcript.problems, []);
  });

  it("asks the CLI to stop on its stdin, and it ends canceled without a single signal", async () => {
    let live: LiveSession | undefined;
    let stopped: Promise<unknown> | undefined;
    live = startStdinLocus({
      deltas: 1000,
      signalLog,
      onChange: (change) => {
        if (change.kind === "text-appended" && stopped === undefined) stopped = live?.stop();
      },
    });
    const transcript = await live.finished;
    await stopped;
    assert.equal(transcript.status, "canceled");
    assert.ok(transcript.blocks.length === 1 && transcript.blocks[0]?.kind === "text");
    assert.equal(transcript.done.synthesized, false, "the CLI wrote its own done");
    assert.equal(fs.existsSync(signalLog) ? fs.readFileSync(signalLog, "utf8") : "", "", "no signal was needed");
  });
});
