import * as assert from "node:assert/strict";
import { IgnoreRules, IgnoreStack } from "../../../src/workspace/gitignore";
import { assertQuickOn } from "../../helpers/hostile-text";

function ignores(rules: string, path: string, isDirectory = false): boolean {
  return IgnoreStack.empty.with("", IgnoreRules.parse(rules)).ignores(path, isDirectory);
}

describe("gitignore matching", () => {
  it("matches a name without a slash at any depth", () => {
    assert.equal(ignores("*.log", "debug.log"), true);
    assert.equal(ignores("*.log", "a/b/debug.log"), true);
    assert.equal(ignores("*.log", "debug.log.txt"), false);
  });

  it("keeps * and ? inside one path segment", () => {
    assert.equal(ignores("src/*.js", "src/a.js"), true);
    assert.equal(ignores("src/*.js", "src/deep/a.js"), false);
    assert.equal(ignores("file?.txt", "file1.txt"), true);
    assert.equal(ignores("file?.txt", "file10.txt"), false);
  });

  it("anchors a pattern with a leading or middle slash to the .gitignore's folder", () => {
    assert.equal(ignores("/build", "build", true), true);
    assert.equal(ignores("/build", "src/build", true), false);
    assert.equal(ignores("doc/frotz", "doc/frotz", true), true);
    assert.equal(ignores("doc/frotz", "a/doc/frotz", true), false);
  });

  it("applies a trailing slash to folders only", () => {
    assert.equal(ignores("build/", "build", true), true);
    assert.equal(ignores("build/", "build", false), false);
    assert.equal(ignores("build/", "src/build", true), true);
  });

  it("understands leading, trailing and middle **", () => {
    assert.equal(ignores("**/logs", "a/b/logs", true), true);
    assert.equal(ignores("**/logs/debug.log", "logs/debug.log"), true);
    assert.equal(ignores("abc/**", "abc/x/y.txt"), true);
    assert.equal(ignores("abc/**", "abc", true), false);
    assert.equal(ignores("a/**/b", "a/b"), true);
    assert.equal(ignores("a/**/b", "a/x/y/b"), true);
    assert.equal(ignores("a/**/b", "x/a/b"), false);
  });

  it("re-includes with ! and lets the last matching rule win", () => {
    assert.equal(ignores("*.log\n!keep.log", "keep.log"), false);
    assert.equal(ignores("*.log\n!keep.log", "drop.log"), true);
    assert.equal(ignores("!keep.log\n*.log", "keep.log"), true);
  });

  it("skips comments and blank lines, and honours escaped # and !", () => {
    assert.equal(ignores("# notes.txt\n\n", "# notes.txt"), false);
    assert.equal(ignores("\\#notes.txt", "#notes.txt"), true);
    assert.equal(ignores("\\!important", "!important"), true);
  });

  it("matches character classes, negated ones never matching a slash", () => {
    assert.equal(ignores("file[0-9].txt", "file7.txt"), true);
    assert.equal(ignores("file[0-9].txt", "fileA.txt"), false);
    assert.equal(ignores("file[!0-9].txt", "fileA.txt"), true);
    assert.equal(ignores("a[!x]b", "a/b"), false);
  });

  it("treats regex characters in a pattern literally", () => {
    assert.equal(ignores("a+b(1).txt", "a+b(1).txt"), true);
    assert.equal(ignores("a.txt", "abtxt"), false);
  });

  it("ignores trailing spaces unless escaped", () => {
    assert.equal(ignores("notes.txt   ", "notes.txt"), true);
    assert.equal(ignores("space\\ ", "space "), true);
  });

  it("matches a pattern of many stars against a long name in well under a second", () => {
    const pattern = "*a*a*a*a*a*a*a*a*b";
    assert.equal(assertQuickOn("8 stars, 255 a's", () => ignores(pattern, "a".repeat(255))), false);
    assert.equal(assertQuickOn("8 stars, 254 a's and b", () => ignores(pattern, `${"a".repeat(254)}b`)), true);
  });

  it("matches a pattern of many ** against a deep path in well under a second", () => {
    const pattern = "**/a/**/a/**/a/**/a/**/a/**/b";
    assert.equal(assertQuickOn("6 **, 2,000 folders", () => ignores(pattern, `${"a/".repeat(2000)}a`)), false);
    assert.equal(assertQuickOn("6 **, 2,000 folders and b", () => ignores(pattern, `${"a/".repeat(2000)}b`)), true);
  });

  it("reads a reversed range as matching nothing, and keeps the rules after it", () => {
    assert.equal(ignores("[z-a]", "m"), false);
    assert.equal(ignores("[z-a]\n*.log", "debug.log"), true);
  });

  it("lets a deeper .gitignore override its parent's, for paths relative to its own folder", () => {
    const stack = IgnoreStack.empty.with("", IgnoreRules.parse("*.gen.ts")).with("src/keep", IgnoreRules.parse("!*.gen.ts\n/local.txt"));
    assert.equal(stack.ignores("src/a.gen.ts", false), true);
    assert.equal(stack.ignores("src/keep/a.gen.ts", false), false);
    assert.equal(stack.ignores("src/keep/local.txt", false), true);
    assert.equal(stack.ignores("src/keep/deeper/local.txt", false), false);
  });
});
