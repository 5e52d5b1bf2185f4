import * as assert from "node:assert/strict";
import { diffLines, diffPreview } from "../../../src/common/line-diff";

describe("line diff: what an edit changes", () => {
  it("counts the lines added and removed in the middle of a file, not the unchanged ones around them", () => {
    const before = "one\ntwo\nthree\nfour\nfive\n";
    const after = "one\ntwo\nTHREE\n3.5\nfour\nfive\n";
    const diff = diffLines(before, after);
    assert.deepEqual([diff.added, diff.removed], [2, 1]);
  });

  it("finds the lines two versions share even when the changes are scattered", () => {
    const diff = diffLines("a\nb\nc\nd\ne\n", "a\nX\nc\nd\nY\ne\n");
    assert.deepEqual([diff.added, diff.removed], [2, 1]);
    assert.deepEqual(diff.lines.map((l) => l.change[0]).join(""), "srassas");
  });

  it("counts every line of a new file as added", () => {
    const diff = diffLines(null, "x\ny\nz");
    assert.deepEqual([diff.added, diff.removed], [3, 0]);
  });

  it("counts nothing for a file written back unchanged", () => {
    const diff = diffLines("same\n", "same\n");
    assert.deepEqual([diff.added, diff.removed], [0, 0]);
  });

  it("previews the changed lines with two lines of context and folds the unchanged rest", () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\n");
    const after = before.replace("line 10", "line ten");
    const { text, cutChars } = diffPreview(diffLines(before, after), 10_000);
    assert.equal(text, ["⋯ 8 unchanged lines", "  line 8", "  line 9", "- line 10", "+ line ten", "  line 11", "  line 12", "⋯ 7 unchanged lines"].join("\n"));
    assert.equal(cutChars, 0);
  });

  it("cuts a long preview at its bound and says how much more there was", () => {
    const { text, cutChars } = diffPreview(diffLines(null, "x".repeat(500)), 100);
    assert.equal(text.length, 100);
    assert.equal(cutChars, 402);
  });

  it("counts a rewrite too large to compare line by line as all removed and all added, without hanging", () => {
    const before = Array.from({ length: 3000 }, (_, i) => `old ${i}`).join("\n");
    const after = Array.from({ length: 3000 }, (_, i) => `new ${i}`).join("\n");
    const diff = diffLines(before, after);
    assert.deepEqual([diff.added, diff.removed], [3000, 3000]);
  });
});
