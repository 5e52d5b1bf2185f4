// The @ picker's ranking: the letters typed in order, the file's own name and word starts first, open files first.
import * as assert from "node:assert/strict";
import { MAX_QUERY_CHARS, matchScore, pickEntries } from "../../../src/workspace/fuzzy-match";
import type { TreeEntry } from "../../../src/workspace/workspace-tree";

const file = (path: string): TreeEntry => ({ path, kind: "file" });
const ENTRIES = [
  file("docs/readme-images/a.png"),
  file("README.md"),
  file("src/auth/middleware.ts"),
  file("src/auth/token-cache.ts"),
  file("src/main.ts"),
  { path: "src/auth", kind: "folder" } satisfies TreeEntry,
  file("test/auth.test.ts"),
];

describe("the @ picker's fuzzy match", () => {
  it("finds the letters typed in order anywhere in the path, and nothing that lacks one", () => {
    assert.notEqual(matchScore("authmw", file("src/auth/middleware.ts")), null);
    assert.equal(matchScore("mwauth", file("src/auth/middleware.ts")), null);
  });

  it("ranks the file's own name, and its start, before a match spread over folders", () => {
    assert.deepEqual(pickEntries(ENTRIES, new Set(), "readme", 2).map((entry) => entry.path), ["README.md", "docs/readme-images/a.png"]);
    assert.equal(pickEntries(ENTRIES, new Set(), "tc", 1)[0]?.path, "src/auth/token-cache.ts");
  });

  it("offers open files first when nothing is typed yet, then files by the top of the tree", () => {
    const picked = pickEntries(ENTRIES, new Set(["src/main.ts"]), "", 3);
    assert.deepEqual(picked.map((entry) => [entry.path, entry.open]), [["src/main.ts", true], ["docs/readme-images/a.png", false], ["README.md", false]]);
  });

  it("ignores case and spaces, and stops at the limit", () => {
    assert.deepEqual(pickEntries(ENTRIES, new Set(), "AUTH test", 5).map((entry) => entry.path), ["test/auth.test.ts"]);
    assert.equal(pickEntries(ENTRIES, new Set(), "a", 2).length, 2);
  });

  it(`matches only the first ${MAX_QUERY_CHARS} characters typed: a longer query costs no more`, () => {
    const deep = file(`${"a/".repeat(MAX_QUERY_CHARS)}end.ts`);
    const typed = `${"a".repeat(MAX_QUERY_CHARS)}zzz`;
    assert.deepEqual(pickEntries([deep, file("README.md")], new Set(), typed, 5).map((entry) => entry.path), [deep.path]);
  });
});
