// The identity a permission request's "same request" rests on: equal for the same call however its keys are ordered,
// different for any other, whatever the agent puts in its strings.
import * as assert from "node:assert/strict";
import { canonicalDigest } from "../../../../src/dialects/acp/canonical-digest";

describe("canonicalDigest", () => {
  it("is the same whatever order an object's keys come in", () => {
    assert.equal(canonicalDigest({ command: "npm test", cwd: "/w", env: { A: "1", B: "2" } }), canonicalDigest({ env: { B: "2", A: "1" }, cwd: "/w", command: "npm test" }));
  });

  it("tells apart values that would run together without their lengths or brackets", () => {
    const values = [["ab", "c"], ["a", "bc"], ["abc"], "abc", { ab: "c" }, { a: "bc" }, [["a"], "bc"], ["a", ["bc"]], 1, "1", null, "null", [], {}, [null], [""]];
    const digests = values.map(canonicalDigest);
    assert.equal(new Set(digests).size, values.length, JSON.stringify(values));
  });

  it("tells apart strings that differ only in a lone surrogate, which UTF-8 would make the same character", () => {
    assert.notEqual(canonicalDigest("x\ud800y"), canonicalDigest("x\ud801y"));
    assert.notEqual(canonicalDigest({ "\ud800": 1 }), canonicalDigest({ "\udfff": 1 }));
  });

  it("tells apart long texts that differ only past the first piece it hashes at a time", () => {
    const long = "a".repeat(200 * 1024);
    assert.notEqual(canonicalDigest(long + "b"), canonicalDigest(long + "c"));
    assert.equal(canonicalDigest(long + "b"), canonicalDigest("a".repeat(200 * 1024) + "b"));
  });

  it("digests a value nested 100,000 deep without running out of stack", () => {
    let value: unknown = "leaf";
    for (let i = 0; i < 100_000; i++) value = { a: [value] };
    assert.match(canonicalDigest(value), /^[0-9a-f]{64}$/);
  });
});
