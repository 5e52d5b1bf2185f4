import * as assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import { randomUUID } from "node:crypto";
import { processGroupTree, processTreeOf, RUN_COOKIE_VARIABLE } from "../../../src/process/process-tree";
import { isGone } from "../../helpers/escapees";
import { eventually } from "../../helpers/eventually";

function processState(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return undefined;
  }
}

function startGroupLeader(script: string): { child: ChildProcess; pid: number } {
  const child = spawn(process.execPath, ["-e", script], { detached: true, stdio: "ignore" });
  if (child.pid === undefined) throw new Error("could not start node");
  return { child, pid: child.pid };
}

describe("processTreeOf (POSIX process group)", () => {
  before(function () {
    if (process.platform !== "linux") this.skip();
  });

  it("reports a group with a running member as alive", async () => {
    const { child, pid } = startGroupLeader("setInterval(() => {}, 60000)");
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      assert.equal(processTreeOf(child, pid).isAlive(), true);
    } finally {
      process.kill(-pid, "SIGKILL");
      await exited;
    }
  });

  it("reports a group that is gone as not alive", async () => {
    const { child, pid } = startGroupLeader("");
    await new Promise((resolve) => child.once("exit", resolve));
    assert.equal(processTreeOf(child, pid).isAlive(), false);
  });

  it("reports a group left with only a zombie as not alive", async () => {
    const { child, pid } = startGroupLeader("");
    const exited = new Promise((resolve) => child.once("exit", resolve));
    // Node reaps its children from the event loop, so while this loop holds it, the exited child stays a zombie:
    // just what an orphan becomes under a PID 1 that never reaps.
    const deadline = Date.now() + 10_000;
    while (processState(pid) !== "Z" && Date.now() < deadline) {
      // wait for the child to exit
    }
    assert.equal(processState(pid), "Z");
    assert.doesNotThrow(() => process.kill(-pid, 0), "kill(-group, 0) still finds the zombie");
    assert.equal(processTreeOf(child, pid).isAlive(), false);
    await exited;
  });
});

describe("processGroupTree with a run cookie (Linux)", () => {
  before(function () {
    if (process.platform !== "linux") this.skip();
  });

  /** A process in a session of its own, with `cookie` in its environment; and a group that is already gone. */
  async function startEscapee(cookie: string): Promise<{ pid: number; goneGroup: number }> {
    const { child: leader, pid: goneGroup } = startGroupLeader("");
    await new Promise((resolve) => leader.once("exit", resolve));
    const escapee = spawn(process.execPath, ["-e", "setInterval(() => {}, 60000)"], {
      detached: true,
      stdio: "ignore",
      env: { ...process.env, [RUN_COOKIE_VARIABLE]: `outer-run ${cookie}` },
    });
    if (escapee.pid === undefined) throw new Error("could not start node");
    escapee.unref();
    return { pid: escapee.pid, goneGroup };
  }

  it("counts a process outside the group that carries the cookie as alive, and signals it", async () => {
    const cookie = randomUUID();
    const { pid, goneGroup } = await startEscapee(cookie);
    const tree = processGroupTree(goneGroup, cookie);
    assert.equal(tree.isAlive(), true);
    tree.signal("SIGKILL");
    await eventually("the escapee to be gone", () => isGone(pid), 5000);
    assert.equal(tree.isAlive(), false);
  });

  it("leaves alone a process that carries another run's cookie", async () => {
    const { pid, goneGroup } = await startEscapee(randomUUID());
    try {
      const tree = processGroupTree(goneGroup, randomUUID());
      assert.equal(tree.isAlive(), false);
      tree.signal("SIGKILL");
      assert.equal(isGone(pid), false);
    } finally {
      process.kill(pid, "SIGKILL");
    }
  });
});
