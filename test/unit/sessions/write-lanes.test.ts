import * as assert from "node:assert/strict";
import { WriteLanes } from "../../../src/sessions/write-lanes";

/** A write the test finishes by hand, recording when it began. */
function controlled(log: string[], name: string): { write: () => Promise<string>; finish: () => void } {
  let finish = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    write: async () => {
      log.push(`begin ${name}`);
      await done;
      log.push(`end ${name}`);
      return name;
    },
    finish: () => finish(),
  };
}

describe("write lanes", () => {
  it("runs one write of a key at a time, and only the newest of those asked for meanwhile", async () => {
    const lanes = new WriteLanes<string>();
    const log: string[] = [];
    const [first, second, third] = [controlled(log, "1"), controlled(log, "2"), controlled(log, "3")];
    const results = [lanes.run("a", first.write), lanes.run("a", second.write), lanes.run("a", third.write)];
    first.finish();
    third.finish();
    assert.deepEqual(await Promise.all(results), ["1", "3", "3"]);
    assert.deepEqual(log, ["begin 1", "end 1", "begin 3", "end 3"]);
  });

  it("runs the writes of different keys side by side", async () => {
    const lanes = new WriteLanes<string>();
    const log: string[] = [];
    const [a, b] = [controlled(log, "a"), controlled(log, "b")];
    const results = [lanes.run("a", a.write), lanes.run("b", b.write)];
    assert.deepEqual(log, ["begin a", "begin b"]);
    b.finish();
    a.finish();
    assert.deepEqual(await Promise.all(results), ["a", "b"]);
  });

  it("settles once every write is done, including one asked for while it waited", async () => {
    const lanes = new WriteLanes<string>();
    const log: string[] = [];
    const [first, later] = [controlled(log, "1"), controlled(log, "later")];
    void lanes.run("a", first.write);
    let settled = false;
    const settling = lanes.settled().then(() => (settled = true));
    first.finish();
    await Promise.resolve();
    void lanes.run("b", later.write);
    later.finish();
    await settling;
    assert.equal(settled, true);
    assert.deepEqual(log.slice(-1), ["end later"]);
  });
});
