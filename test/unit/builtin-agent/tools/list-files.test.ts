import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { listFiles, type FileListing } from "../../../../src/builtin-agent/tools/list-files";

describe("ListFiles", () => {
  let root: string;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-list-"));
  });

  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  function write(files: Record<string, string>): void {
    for (const [relative, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
      fs.writeFileSync(path.join(root, relative), content);
    }
  }

  async function list(options: { maxFiles?: number; maxDepth?: number } = {}): Promise<FileListing> {
    const result = await listFiles(root, options);
    assert.ok(result.ok, result.ok ? "" : result.error);
    return result.value;
  }

  it("lists files sorted by path with their sizes", async () => {
    write({ "b.txt": "bb", "a/c.txt": "c" });
    assert.deepEqual((await list()).files, [
      { path: "a/c.txt", size: 1 },
      { path: "b.txt", size: 2 },
    ]);
  });

  it("honours .gitignore files at every level, the deeper one winning", async () => {
    write({
      ".gitignore": "*.gen.ts\nout/\n",
      "src/a.gen.ts": "",
      "src/a.ts": "",
      "out/x.js": "",
      "keep/.gitignore": "!*.gen.ts\n",
      "keep/b.gen.ts": "",
    });
    const listing = await list();
    assert.deepEqual(listing.files.map((f) => f.path), [".gitignore", "keep/.gitignore", "keep/b.gen.ts", "src/a.ts"]);
    assert.equal(listing.ignoredEntries, 2);
  });

  it("honours .git/info/exclude and never lists .git or node_modules", async () => {
    write({ ".git/info/exclude": "secret.txt\n", ".git/HEAD": "ref", "node_modules/x/index.js": "", "secret.txt": "", "kept.txt": "" });
    assert.deepEqual((await list()).files.map((f) => f.path), ["kept.txt"]);
  });

  it("stops at the file limit and says the listing is truncated", async () => {
    write({ "a.txt": "", "b.txt": "", "c.txt": "", "sub/d.txt": "" });
    const listing = await list({ maxFiles: 2 });
    assert.equal(listing.files.length, 2);
    assert.equal(listing.truncated, true);
  });

  it("does not descend past the depth limit, and says so", async () => {
    write({ "top.txt": "", "one/two/deep.txt": "" });
    const listing = await list({ maxDepth: 1 });
    assert.deepEqual(listing.files.map((f) => f.path), ["top.txt"]);
    assert.equal(listing.depthLimited, true);
  });

  it("lists a symlinked file but does not follow a symlinked folder", async () => {
    write({ "real/file.txt": "x" });
    fs.symlinkSync("real/file.txt", path.join(root, "link.txt"));
    fs.symlinkSync("real", path.join(root, "loop"));
    assert.deepEqual((await list()).files.map((f) => f.path), ["link.txt", "real/file.txt"]);
  });

  it("fails with a reason when the workspace itself cannot be listed", async () => {
    const result = await listFiles(path.join(root, "missing"));
    assert.deepEqual(result, { ok: false, error: "cannot list the workspace: ENOENT" });
  });

  it("stops when interrupted", async () => {
    write({ "a.txt": "" });
    const abort = new AbortController();
    abort.abort();
    assert.deepEqual(await listFiles(root, { signal: abort.signal }), { ok: false, error: "interrupted" });
  });
});
