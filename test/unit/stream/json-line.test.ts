import * as assert from "node:assert/strict";
import { MAX_JSON_DEPTH, parseJsonLine, RefusedLine } from "../../../src/stream/json-line";

const nested = (levels: number) => "[".repeat(levels) + "]".repeat(levels);

describe("one line of an agent's stdout as JSON", () => {
  it("reads a line that begins with a byte order mark as the value after it", () => {
    assert.deepEqual(parseJsonLine('\ufeff{"a":1}'), { a: 1 });
  });

  it("refuses a line that is not JSON, quoting its start with every control character escaped", () => {
    const start = "\x1b]52;c;aGk=\x07 \u202e";
    const refused = parseJsonLine(start + "x".repeat(100));
    assert.ok(refused instanceof RefusedLine);
    // The first 60 characters, then an ellipsis.
    assert.equal(refused.message, `not JSON: "\\u001b]52;c;aGk=\\u0007 \\u202e${"x".repeat(60 - start.length)}…"`);
  });

  it(`refuses a value nested deeper than ${MAX_JSON_DEPTH} levels, and keeps it for its top level only`, () => {
    assert.deepEqual(parseJsonLine(nested(MAX_JSON_DEPTH)), JSON.parse(nested(MAX_JSON_DEPTH)));
    const refused = parseJsonLine(`{"id":1,"params":${nested(5000)}}`);
    assert.ok(refused instanceof RefusedLine);
    assert.equal(refused.message, `nested deeper than ${MAX_JSON_DEPTH} levels; skipped`);
    assert.equal((refused.value as { id: number }).id, 1);
  });
});
