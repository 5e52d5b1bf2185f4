// `agent-stream run` leaves nothing behind however it ends: a stop by signal, or its own death by SIGKILL (then the
// watchdog ends the CLI). The CLI here starts a detached child and a double-forked daemon, both outside its group.
import * as assert from "node:assert/strict";
import { once } from "node:events";
import { CliStreamEventSchema } from "../../../src/protocol/events";
import { finishAgentStream, startAgentStream } from "../../helpers/agent-stream-cli";
import { escapeePids, escapeesPidFile, linuxCleanupHooks, STARTS_ESCAPEES, survivorsAfter, waitForEscapees } from "../../helpers/escapees";

/** The guarantee the README gives. */
const CLEANUP_DEADLINE_MS = 5000;

describe("agent-stream run: process cleanup", function () {
  this.timeout(30_000);
  const leftovers = linuxCleanupHooks();

  async function startRun() {
    const pidFile = escapeesPidFile();
    const child = startAgentStream(["run", "--json", "--", STARTS_ESCAPEES, `--pid-file=${pidFile}`]);
    let closed = false;
    child.once("close", () => (closed = true));
    const escapees = await waitForEscapees(pidFile, () => (closed ? "agent-stream exited" : undefined));
    leftovers.push(...escapeePids(escapees));
    return { child, pids: escapeePids(escapees) };
  }

  for (const signal of ["SIGINT", "SIGHUP", "SIGTERM"] as const) {
    it(`leaves no process of the CLI alive after ${signal}, and exits with the code of its done`, async () => {
      const { child, pids } = await startRun();
      const result = finishAgentStream(child);
      child.kill(signal);
      const r = await result;
      const events = r.stdout.trimEnd().split("\n").map((line) => CliStreamEventSchema.parse(JSON.parse(line)));
      const done = events.at(-1);
      assert.ok(done?.type === "done", `ends with done: ${r.stdout}${r.stderr}`);
      assert.equal(r.code, done.payload.exitCode);
      assert.deepEqual(await survivorsAfter(pids, CLEANUP_DEADLINE_MS), []);
    });
  }

  it("leaves no process of the CLI alive when agent-stream itself is killed with SIGKILL", async () => {
    const { child, pids } = await startRun();
    child.kill("SIGKILL");
    await once(child, "close");
    assert.deepEqual(await survivorsAfter(pids, CLEANUP_DEADLINE_MS), []);
  });
});
