import * as assert from "node:assert/strict";
import { wholeFileOfExcerpt } from "../../../src/vscode/excerpt-file";

describe("the whole file of an edit known only by the part it replaced", () => {
  it("rebuilds the file before the edit from the file after it", () => {
    assert.deepEqual(wholeFileOfExcerpt("a\nthe build is red.\nb\n", { oldText: "the build is green.", newText: "the build is red." }), {
      before: "a\nthe build is green.\nb\n",
      after: "a\nthe build is red.\nb\n",
    });
  });

  it("cannot say when the written part is gone or appears twice (the file changed since)", () => {
    assert.equal(wholeFileOfExcerpt("nothing here", { oldText: "x", newText: "y" }), undefined);
    assert.equal(wholeFileOfExcerpt("y and y", { oldText: "x", newText: "y" }), undefined);
  });

  it("cannot say where an edit that wrote nothing was", () => {
    assert.equal(wholeFileOfExcerpt("abc", { oldText: "removed", newText: "" }), undefined);
  });
});
