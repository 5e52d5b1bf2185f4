import * as assert from "node:assert/strict";
import fc from "fast-check";
import { diffLines, diffPreview, MAX_EDIT_LINES, type LineChange } from "../../../src/common/line-diff";

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
    assert.equal(diffPreview(diff, 10_000).text, ["  a", "- b", "+ X", "  c", "  d", "+ Y", "  e"].join("\n"));
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

  it("works out a small change in a large file exactly", () => {
    const before = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join("\n");
    const after = before.replace("line 100\n", "line hundred\n").replace("line 15000\n", "");
    const diff = diffLines(before, after);
    assert.deepEqual([diff.added, diff.removed], [1, 2]);
  });

  it("counts every line between the common start and end as changed once an edit is past its bound", () => {
    const changed = (prefix: string) => Array.from({ length: MAX_EDIT_LINES }, (_, i) => `${prefix} ${i}`);
    const before = ["head", ...changed("old"), "tail"].join("\n");
    const after = ["head", ...changed("new"), "tail"].join("\n");
    const diff = diffLines(before, after);
    assert.deepEqual([diff.added, diff.removed], [MAX_EDIT_LINES, MAX_EDIT_LINES]);
    assert.match(diffPreview(diff, 100_000).text, /^  head\n- old 0\n[^]*\n\+ new 199\n  tail$/);
  });

  it("previews a file written back unchanged as nothing", () => {
    assert.deepEqual(diffPreview(diffLines("a\nb\nc\nd\ne\nf\n", "a\nb\nc\nd\ne\nf\n"), 1_000), { text: "", cutChars: 0 });
  });

  it("keeps every unchanged line between two changes close together", () => {
    const diff = diffLines("1\n2\n3\n4\n5\n6\n", "one\n2\n3\n4\n5\nsix\n");
    assert.equal(diffPreview(diff, 1_000).text, ["- 1", "+ one", "  2", "  3", "  4", "  5", "- 6", "+ six"].join("\n"));
  });

  it("reads a missing newline at the end as no change", () => {
    const diff = diffLines("a\nb", "a\nb\n");
    assert.deepEqual([diff.added, diff.removed], [0, 0]);
  });

  it("counts every line of a middle too large to compare as changed, and keeps the lines shared around it", () => {
    const middle = (prefix: string) => Array.from({ length: 40_000 }, (_, i) => `${prefix} line ${i}`).join("\n");
    const diff = diffLines(`first\n${middle("old")}\nlast\n`, `first\n${middle("new")}\nlast`);
    assert.deepEqual([diff.added, diff.removed], [40_000, 40_000]);
    const { text } = diffPreview(diff, 100);
    assert.ok(text.startsWith("  first\n- old line 0\n"), text);
  });

  it("counts a rewrite too large to compare line by line as all removed and all added, without hanging", () => {
    const before = Array.from({ length: 3000 }, (_, i) => `old ${i}`).join("\n");
    const after = Array.from({ length: 3000 }, (_, i) => `new ${i}`).join("\n");
    const diff = diffLines(before, after);
    assert.deepEqual([diff.added, diff.removed], [3000, 3000]);
  });

  describe("on any two texts", () => {
    /** Texts of a few lines from a small set, so that they share lines, with or without a newline at the end. */
    const text = fc
      .tuple(fc.array(fc.constantFrom("a", "b", "c", "", "d e"), { maxLength: 12 }), fc.boolean())
      .map(([lines, newlineAtEnd]) => (lines.length === 0 ? "" : lines.join("\n") + (newlineAtEnd ? "\n" : "")));
    const linesOf = (value: string) => (value === "" ? [] : value.replace(/\n$/, "").split("\n"));
    /** The fewest lines added and removed that turn one list into the other: what exact counts must be. */
    function fewestChanges(before: readonly string[], after: readonly string[]): [number, number] {
      const common = before.map(() => after.map(() => 0));
      const at = (i: number, j: number) => (i < before.length && j < after.length ? common[i]![j]! : 0);
      for (let i = before.length - 1; i >= 0; i--) {
        for (let j = after.length - 1; j >= 0; j--) common[i]![j] = before[i] === after[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
      }
      return [after.length - at(0, 0), before.length - at(0, 0)];
    }

    it("counts the fewest lines added and removed", () => {
      fc.assert(
        fc.property(text, text, (before, after) => {
          const diff = diffLines(before, after);
          assert.deepEqual([diff.added, diff.removed], fewestChanges(linesOf(before), linesOf(after)));
        }),
      );
    });

    it("has runs that spell the old text (unchanged and removed) and the new one (unchanged and added)", () => {
      fc.assert(
        fc.property(text, text, (before, after) => {
          const { runs } = diffLines(before, after);
          const spelled = (side: LineChange) => linesOf(runs.filter((r) => r.change !== side).map((r) => (r.text.endsWith("\n") ? r.text : r.text + "\n")).join(""));
          assert.deepEqual(spelled("added"), linesOf(before));
          assert.deepEqual(spelled("removed"), linesOf(after));
        }),
      );
    });
  });
});
