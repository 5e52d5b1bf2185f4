// What Claude Code's Write, Edit and MultiEdit would leave in a file, computed from their input and the file's text
// now: the diff a permission card shows before the user answers.
import * as assert from "node:assert/strict";
import { proposedEditsOf } from "../../../src/dialects/claude-proposed-edit";

const after = (tool: string, input: unknown, oldText: string | null) => proposedEditsOf(tool, input)[0]?.newTextOf(oldText);

describe("Claude Code's proposed edits", () => {
  it("writes Write's content whole, over the file or where there was none", () => {
    assert.equal(after("Write", { file_path: "/w/a.txt", content: "new\n" }, null), "new\n");
    assert.equal(after("Write", { file_path: "/w/a.txt", content: "new\n" }, "old\n"), "new\n");
    assert.equal(proposedEditsOf("Write", { file_path: "/w/a.txt", content: "x" })[0]?.path, "/w/a.txt");
  });

  it("replaces the first match of Edit's old_string, or every one with replace_all", () => {
    assert.equal(after("Edit", { file_path: "/w/a", old_string: "a", new_string: "b" }, "a a a"), "b a a");
    assert.equal(after("Edit", { file_path: "/w/a", old_string: "a", new_string: "b", replace_all: true }, "a a a"), "b b b");
  });

  it("takes the new text literally: `$&` and `$1` are not patterns", () => {
    assert.equal(after("Edit", { file_path: "/w/a", old_string: "x", new_string: "$&$1$$" }, "<x>"), "<$&$1$$>");
  });

  it("applies MultiEdit's edits in order, each to the text the one before left", () => {
    const input = { file_path: "/w/a", edits: [{ old_string: "one", new_string: "two" }, { old_string: "two two", new_string: "three" }] };
    assert.equal(after("MultiEdit", input, "one two"), "three");
  });

  it("has no new text for an edit that would not apply: nothing to replace, or no file to edit", () => {
    assert.equal(after("Edit", { file_path: "/w/a", old_string: "absent", new_string: "b" }, "text"), undefined);
    assert.equal(after("Edit", { file_path: "/w/a", old_string: "a", new_string: "b" }, null), undefined);
  });

  it("creates a missing file from an Edit whose old_string is empty, as Claude does", () => {
    assert.equal(after("Edit", { file_path: "/w/a", old_string: "", new_string: "made" }, null), "made");
  });

  it("proposes nothing for other tools or an input of another shape", () => {
    assert.deepEqual(proposedEditsOf("Bash", { command: "ls" }), []);
    assert.deepEqual(proposedEditsOf("Write", { file_path: "/w/a" }), []);
  });
});
