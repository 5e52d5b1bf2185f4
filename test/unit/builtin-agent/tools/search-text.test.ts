import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { listFiles, type ListedFile } from "../../../../src/builtin-agent/tools/list-files";
import { searchText, type SearchOptions, type SearchResults } from "../../../../src/builtin-agent/tools/search-text";

describe("SearchText", () => {
  let root: string;
  let files: ListedFile[];

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-search-"));
    fs.writeFileSync(path.join(root, "a.txt"), "needle one\nhay\nNEEDLE two\n");
    fs.writeFileSync(path.join(root, "b.txt"), "more hay\nneedle three\n");
    fs.writeFileSync(path.join(root, "c.bin"), Buffer.from("needle\0binary"));
    fs.writeFileSync(path.join(root, "d.txt"), "needle " + "x".repeat(2000));
    fs.symlinkSync("missing.txt", path.join(root, "e.txt"));
    const listed = await listFiles(root);
    assert.ok(listed.ok);
    files = listed.value.files;
  });

  after(() => fs.rmSync(root, { recursive: true, force: true }));

  async function search(pattern: RegExp, options: SearchOptions = {}): Promise<SearchResults> {
    const result = await searchText(root, files, pattern, { maxFileBytes: 1000, ...options });
    assert.ok(result.ok);
    return result.value;
  }

  it("finds matching lines in file then line order, with 1-based line numbers", async () => {
    const results = await search(/needle/i);
    assert.deepEqual(results.matches, [
      { path: "a.txt", line: 1, text: "needle one" },
      { path: "a.txt", line: 3, text: "NEEDLE two" },
      { path: "b.txt", line: 2, text: "needle three" },
    ]);
  });

  it("skips binary and oversized files and names the unreadable ones", async () => {
    const results = await search(/needle/);
    assert.equal(results.skippedBinary, 1);
    assert.deepEqual(results.skippedLarge, ["d.txt"]);
    assert.deepEqual(results.unreadable, [{ path: "e.txt", error: "e.txt is a broken symbolic link: its target missing.txt does not exist" }]);
  });

  it("keeps the first matches and counts them all", async () => {
    const results = await search(/needle/i, { maxMatches: 1 });
    assert.equal(results.matches.length, 1);
    assert.equal(results.totalMatches, 3);
  });

  it("stops at the byte budget and says so", async () => {
    const results = await search(/needle/i, { maxTotalBytes: 30 });
    assert.deepEqual(results.matches.map((m) => m.path), ["a.txt", "a.txt"]);
    assert.equal(results.budgetExhausted, true);
  });

  it("gives the same answer for a global regex as for a plain one", async () => {
    assert.deepEqual(await search(/needle/gi), await search(/needle/i));
  });
});
