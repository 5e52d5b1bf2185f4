import * as assert from "node:assert/strict";
import { ByteTail } from "../../../src/process/byte-tail";

function tailOf(limitBytes: number, ...chunks: string[]): string {
  const tail = new ByteTail(limitBytes);
  for (const chunk of chunks) tail.push(Buffer.from(chunk));
  return tail.text();
}

describe("ByteTail", () => {
  it("keeps everything while under the limit", () => {
    assert.equal(tailOf(10, "ab", "cd"), "abcd");
  });

  it("keeps the last bytes of many small chunks", () => {
    assert.equal(tailOf(5, "abc", "def", "ghi"), "efghi");
  });

  it("keeps the last bytes of one chunk larger than the limit", () => {
    assert.equal(tailOf(4, "abcdefgh"), "efgh");
  });

  it("drops a character cut in half by the limit, in one chunk", () => {
    // "€" is three bytes; the last 4 bytes of "€€" start inside the first one.
    assert.equal(tailOf(4, "€€"), "€");
  });

  it("drops a character cut in half by the limit, across chunks", () => {
    assert.equal(tailOf(5, "x€", "é", "y"), "éy");
  });

  it("keeps a stream that itself starts with a stray continuation byte when nothing was cut", () => {
    const tail = new ByteTail(10);
    tail.push(Buffer.from([0x80, 0x61]));
    assert.equal(tail.text(), "\uFFFDa");
  });

  it("keeps nothing when the limit is 0", () => {
    assert.equal(tailOf(0, "abc"), "");
  });
});
