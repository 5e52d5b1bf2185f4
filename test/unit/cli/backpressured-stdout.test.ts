// The one stdout of `run` and `ask`: a reader that is behind holds back whatever the output comes from, until it
// catches up. A real stream whose reader the test holds back.
import * as assert from "node:assert/strict";
import { Writable } from "node:stream";
import { BackpressuredStdout, type OutputSource } from "../../../src/cli/backpressured-stdout";

/** A reader that takes nothing until `goOn()`, with room for 16 bytes. */
function slowReader() {
  const taken: string[] = [];
  let stalled = true;
  const held: (() => void)[] = [];
  const out = new Writable({
    highWaterMark: 16,
    write(chunk: Buffer, _encoding, done) {
      taken.push(chunk.toString());
      if (stalled) held.push(done);
      else done();
    },
  });
  const goOn = () => {
    stalled = false;
    for (const done of held.splice(0)) done();
  };
  return { out, taken, goOn };
}

/** A source that says whether it is held back now. */
function source(): OutputSource & { paused: boolean } {
  return {
    paused: false,
    pause() {
      this.paused = true;
    },
    resume() {
      this.paused = false;
    },
  };
}

describe("BackpressuredStdout", () => {
  it("holds the source back once the reader is behind, and lets it go on once the reader catches up", async () => {
    const reader = slowReader();
    const stdout = new BackpressuredStdout(reader.out);
    const cli = source();
    stdout.attach(cli);
    stdout.write("a short line\n");
    assert.equal(cli.paused, false, "the reader has room");
    stdout.write("a line longer than the reader's room\n");
    assert.equal(cli.paused, true);
    const flushed = stdout.flushed();
    reader.goOn();
    await flushed;
    assert.equal(cli.paused, false);
    assert.deepEqual(reader.taken, ["a short line\n", "a line longer than the reader's room\n"]);
  });

  it("holds back the next turn's source at once while the reader is still behind, and lets both go on", async () => {
    const reader = slowReader();
    const stdout = new BackpressuredStdout(reader.out);
    const first = source();
    stdout.attach(first);
    stdout.write("the first turn says more than the reader takes\n");
    const second = source();
    stdout.attach(second);
    assert.deepEqual([first.paused, second.paused], [true, true]);
    const flushed = stdout.flushed();
    reader.goOn();
    await flushed;
    assert.deepEqual([first.paused, second.paused], [false, false]);
  });
});
