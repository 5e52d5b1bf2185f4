// Claude Code's edit tools as diffs, on the shapes the recordings show (2.1.330) and the documented MultiEdit.
import * as assert from "node:assert/strict";
import { madeDiffs, proposedDiffs } from "../../../src/dialects/claude-tool-changes";
import { MAX_DIFF_CHARS } from "../../../src/dialects/kit/file-edits";
import { TRANSCRIPT_LIMITS } from "../../../src/session/transcript-builder";

describe("Claude Code's edit tools as diffs", () => {
  it("proposes an Edit as its old and new strings, an excerpt", () => {
    assert.deepEqual(proposedDiffs("Edit", { file_path: "/w/a.ts", old_string: "x = 1", new_string: "x = 2", replace_all: true }), [
      { path: "/w/a.ts", oldText: "x = 1", newText: "x = 2", excerpt: true },
    ]);
  });

  it("proposes a MultiEdit as one excerpt per edit", () => {
    const input = { file_path: "/w/a.ts", edits: [{ old_string: "a", new_string: "b" }, { old_string: "c", new_string: "d", replace_all: true }] };
    assert.deepEqual(
      proposedDiffs("MultiEdit", input)?.map((diff) => [diff.oldText, diff.newText, diff.excerpt]),
      [
        ["a", "b", true],
        ["c", "d", true],
      ],
    );
  });

  it("proposes nothing for a tool that changes no file, or input of another shape", () => {
    assert.equal(proposedDiffs("Bash", { command: "ls" }), undefined);
    assert.equal(proposedDiffs("constructor", { file_path: "/w/a.ts", content: "x" }), undefined);
    assert.equal(madeDiffs("toString", { filePath: "/w/a.ts", content: "x", originalFile: null }), undefined);
    assert.equal(proposedDiffs("Edit", { file_path: "/w/a.ts" }), undefined);
    assert.equal(proposedDiffs("NotebookEdit", { notebook_path: "/w/n.ipynb", new_source: "x" }), undefined);
  });

  it("shows a finished Edit with replace_all as the whole file, every occurrence replaced", () => {
    const result = { filePath: "/w/a.ts", oldString: "red", newString: "blue", originalFile: "red\nred\ngreen\n", replaceAll: true, structuredPatch: [] };
    assert.deepEqual(madeDiffs("Edit", result), [{ path: "/w/a.ts", oldText: "red\nred\ngreen\n", newText: "blue\nblue\ngreen\n" }]);
  });

  it("shows a finished MultiEdit as the whole file, its edits made in order", () => {
    const result = { filePath: "/w/a.ts", edits: [{ old_string: "one", new_string: "two" }, { old_string: "two three", new_string: "done" }], originalFile: "one three\n" };
    assert.deepEqual(madeDiffs("MultiEdit", result), [{ path: "/w/a.ts", oldText: "one three\n", newText: "done\n" }]);
  });

  it("shows a Write over a file as the file before and after, and a new one as new", () => {
    assert.deepEqual(madeDiffs("Write", { type: "update", filePath: "/w/a", content: "new\n", originalFile: "old\n" }), [{ path: "/w/a", oldText: "old\n", newText: "new\n" }]);
    assert.deepEqual(madeDiffs("Write", { type: "create", filePath: "/w/b", content: "x\n", originalFile: null }), [{ path: "/w/b", oldText: null, newText: "x\n" }]);
  });

  it("keeps the proposed excerpt when the whole file is larger than the transcript keeps of a diff", () => {
    const originalFile = "x".repeat(TRANSCRIPT_LIMITS.blockChars / 2) + "\nred\n";
    assert.equal(madeDiffs("Edit", { filePath: "/w/big.log", oldString: "red", newString: "blue", originalFile }), undefined);
    assert.equal(MAX_DIFF_CHARS, TRANSCRIPT_LIMITS.blockChars, "the dialects' bound is the transcript's");
  });

  it("keeps the proposed change when the result does not add up or says nothing", () => {
    const mismatched = { filePath: "/w/a.ts", oldString: "absent", newString: "x", originalFile: "present\n" };
    assert.equal(madeDiffs("Edit", mismatched), undefined);
    assert.equal(madeDiffs("Edit", undefined), undefined);
    assert.equal(madeDiffs("Edit", "Error: the file was modified"), undefined);
  });
});
