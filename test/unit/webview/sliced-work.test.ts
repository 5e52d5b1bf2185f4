// Work done in slices of the main thread: what fits in this task's slice runs at once, the rest in later tasks, one
// slice each, in order.
import { strict as assert } from "node:assert";
import { SlicedWork } from "../../../src/webview/sliced-work";

/** A clock each job moves on by what it costs, and later tasks the test runs by hand. */
function scripted() {
  let now = 0;
  const tasks: (() => void)[] = [];
  const work = new SlicedWork(
    () => now,
    (run) => tasks.push(run),
  );
  const done: string[] = [];
  const job = (name: string, costMs: number) => () => {
    now += costMs;
    done.push(name);
  };
  const nextTask = () => tasks.shift()!();
  return { work, tasks, done, job, nextTask, wait: (ms: number) => (now += ms) };
}

describe("sliced work", () => {
  it("runs jobs at once while this task's slice has time, and the rest in a later task, in order", () => {
    const { work, done, job, nextTask } = scripted();
    for (const name of ["a", "b", "c", "d", "e"]) work.add(job(name, 3));
    assert.deepEqual(done, ["a", "b", "c"]);
    nextTask();
    assert.deepEqual(done, ["a", "b", "c", "d", "e"]);
  });

  it("gives each later task one slice", () => {
    const { work, done, job, nextTask } = scripted();
    for (const name of ["a", "b", "c", "d", "e", "f"]) work.add(job(name, 5));
    assert.deepEqual(done, ["a", "b"]);
    nextTask();
    assert.deepEqual(done, ["a", "b", "c", "d"]);
    nextTask();
    assert.deepEqual(done, ["a", "b", "c", "d", "e", "f"]);
  });

  it("holds work that comes after this task's slice ran out, even once the queue was empty, for a later task", () => {
    const { work, done, job, nextTask, wait } = scripted();
    work.add(job("a", 10));
    wait(100);
    work.add(job("b", 1));
    assert.deepEqual(done, ["a"]);
    nextTask();
    assert.deepEqual(done, ["a", "b"]);
  });

  it("stops asking for later tasks once there is nothing left, and starts again with the next job", () => {
    const { work, tasks, done, job, nextTask } = scripted();
    work.add(job("a", 1));
    nextTask();
    assert.equal(tasks.length, 0);
    work.add(job("b", 1));
    assert.deepEqual(done, ["a", "b"]);
  });

  it("runs a job that a running job added after it returns, not inside it, so a long chain of jobs does not nest", () => {
    const { work, done } = scripted();
    let depth = 0;
    let deepest = 0;
    const chain = (left: number) => () => {
      depth++;
      deepest = Math.max(deepest, depth);
      done.push(`chain ${left}`);
      if (left > 1) work.add(chain(left - 1));
      depth--;
    };
    work.add(chain(3));
    assert.deepEqual(done, ["chain 3", "chain 2", "chain 1"]);
    assert.equal(deepest, 1);
  });

  it("runs a job added first before the jobs still queued, after the one running", () => {
    const { work, done, job, nextTask } = scripted();
    for (const name of ["a", "b", "c"]) work.add(job(name, 5));
    work.addFirst(job("first", 1));
    work.addFirst(job("before first", 1));
    assert.deepEqual(done, ["a", "b"]);
    nextTask();
    assert.deepEqual(done, ["a", "b", "before first", "first", "c"]);
  });
});
