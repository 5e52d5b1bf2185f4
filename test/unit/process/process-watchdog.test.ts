// The watchdog program (out/src/process/process-watchdog.js, the compiled twin of dist/process-watchdog.js), run by
// the test as its parent: the test's end of the pipe closing stands for the parent's death.
import * as assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { RUN_COOKIE_VARIABLE } from "../../../src/process/process-tree";
import { DEFAULT_WATCHDOG_SCRIPT, WATCHDOG_DONE } from "../../../src/process/watchdog";
import { isGone, linuxCleanupHooks } from "../../helpers/escapees";

describe("process watchdog", function () {
  this.timeout(20_000);
  const leftovers = linuxCleanupHooks();

  /** A sleeping Node process; `detached` makes it the leader of a group (and session) of its own. */
  function startSleeper(env: NodeJS.ProcessEnv = process.env): number {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 60000)"], { detached: true, stdio: "ignore", env });
    if (child.pid === undefined) throw new Error("could not start node");
    child.unref();
    leftovers.push(child.pid);
    return child.pid;
  }

  function startWatchdogFor(groupId: number, cookie: string): ChildProcess {
    return spawn(process.execPath, [DEFAULT_WATCHDOG_SCRIPT, String(groupId), cookie], { stdio: ["pipe", "ignore", "inherit"] });
  }

  it("exits and touches nothing when its parent says done", async () => {
    const cookie = randomUUID();
    const group = startSleeper();
    const escapee = startSleeper({ ...process.env, [RUN_COOKIE_VARIABLE]: cookie });
    const watchdog = startWatchdogFor(group, cookie);
    watchdog.stdin?.end(WATCHDOG_DONE);
    const [code] = await once(watchdog, "exit");
    assert.equal(code, 0);
    assert.equal(isGone(group), false);
    assert.equal(isGone(escapee), false);
  });

  it("ends the group and every holder of the cookie before it exits, when its parent's pipe closes without done", async () => {
    const cookie = randomUUID();
    const group = startSleeper();
    const escapee = startSleeper({ ...process.env, [RUN_COOKIE_VARIABLE]: cookie });
    const watchdog = startWatchdogFor(group, cookie);
    watchdog.stdin?.end();
    const [code] = await once(watchdog, "exit");
    assert.equal(code, 0);
    assert.equal(isGone(group), true);
    assert.equal(isGone(escapee), true);
  });

  it("refuses a process group id that would signal every process it may (0, 1, negative)", async () => {
    for (const group of ["0", "1", "-1", "x"]) {
      const watchdog = spawn(process.execPath, [DEFAULT_WATCHDOG_SCRIPT, group, randomUUID()], { stdio: ["pipe", "ignore", "inherit"] });
      watchdog.stdin?.end();
      const [code] = await once(watchdog, "exit");
      assert.equal(code, 2, `group ${group}`);
    }
  });
});
