import * as assert from "node:assert/strict";
import { applyReplacements, excerptDiffs, inputDiffs } from "../../../../src/dialects/kit/file-edits";

describe("file edits worked out from a tool's stream", () => {
  it("replaces the first occurrence only, unless told every one", () => {
    assert.equal(applyReplacements("a b a", [{ oldText: "a", newText: "x" }]), "x b a");
    assert.equal(applyReplacements("a b a", [{ oldText: "a", newText: "x", all: true }]), "x b x");
  });

  it("makes the replacements one after the other, as an edit of several parts does", () => {
    assert.equal(
      applyReplacements("one two", [
        { oldText: "one", newText: "three" },
        { oldText: "three two", newText: "done" },
      ]),
      "done",
    );
  });

  it("writes a replacement's dollar signs as text, not as a pattern", () => {
    assert.equal(applyReplacements("price", [{ oldText: "price", newText: "$& costs $1" }]), "$& costs $1");
  });

  it("says nothing when an edit does not apply to the text it is given", () => {
    assert.equal(applyReplacements("green", [{ oldText: "red", newText: "blue" }]), undefined);
    assert.equal(applyReplacements("not empty", [{ oldText: "", newText: "new file" }]), undefined);
    assert.equal(applyReplacements("", [{ oldText: "", newText: "new file" }]), "new file");
  });

  it("marks a change known only by its replaced part as an excerpt, one per part", () => {
    assert.deepEqual(excerptDiffs("a.txt", [{ oldText: "x", newText: "y" }, { oldText: "p", newText: "q" }]), [
      { path: "a.txt", oldText: "x", newText: "y", excerpt: true },
      { path: "a.txt", oldText: "p", newText: "q", excerpt: true },
    ]);
  });

  it("reads Gemini CLI's replace and write_file inputs, and nothing of another shape", () => {
    assert.deepEqual(inputDiffs("edit", { file_path: "/w/a.txt", old_string: "x", new_string: "y", instruction: "why" }), [{ path: "/w/a.txt", oldText: "x", newText: "y", excerpt: true }]);
    assert.deepEqual(inputDiffs("write", { file_path: "/w/b.txt", content: "hello\n" }), [{ path: "/w/b.txt", oldText: null, newText: "hello\n" }]);
    assert.equal(inputDiffs("edit", { path: "/w/a.txt", old_string: "x" }), undefined);
    assert.equal(inputDiffs("write", undefined), undefined);
  });
});
