import * as assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import { processTreeOf } from "../../../src/process/process-tree";

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
