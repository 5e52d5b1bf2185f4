import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readFile } from "../../../../src/builtin-agent/tools/read-file";

describe("ReadFile", () => {
  let parent: string;
  let root: string;

  before(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-read-"));
    root = path.join(parent, "ws");
    fs.mkdirSync(path.join(root, "folder"), { recursive: true });
    fs.writeFileSync(path.join(root, "hello.txt"), "héllo\nworld\n");
    fs.writeFileSync(path.join(root, "image.bin"), Buffer.from([0x89, 0x50, 0x00, 0x47]));
    fs.writeFileSync(path.join(parent, "outside.txt"), "secret");
    fs.symlinkSync("../outside.txt", path.join(root, "escape.txt"));
    fs.symlinkSync("gone.txt", path.join(root, "dangling.txt"));
  });

  after(() => fs.rmSync(parent, { recursive: true, force: true }));

  it("reads a text file as UTF-8 with its size", async () => {
    assert.deepEqual(await readFile(root, "hello.txt"), { ok: true, value: { path: "hello.txt", text: "héllo\nworld\n", size: 13, truncated: false, binary: false } });
  });

  it("reads at most the byte limit and says it was truncated", async () => {
    const result = await readFile(root, "hello.txt", 5);
    assert.ok(result.ok);
    assert.equal(result.value.text, "héll");
    assert.equal(result.value.truncated, true);
  });

  it("flags a binary file instead of returning its bytes as text", async () => {
    const result = await readFile(root, "image.bin");
    assert.ok(result.ok);
    assert.equal(result.value.binary, true);
    assert.equal(result.value.text, "");
  });

  it("refuses a path outside the workspace", async () => {
    assert.deepEqual(await readFile(root, "../outside.txt"), { ok: false, error: "../outside.txt is outside the workspace" });
  });

  it("refuses a symlink that leads outside the workspace", async () => {
    assert.deepEqual(await readFile(root, "escape.txt"), { ok: false, error: "escape.txt leads outside the workspace" });
  });

  it("says a missing file does not exist", async () => {
    assert.deepEqual(await readFile(root, "nope.txt"), { ok: false, error: "nope.txt does not exist" });
  });

  it("says a broken symlink is one, naming its target", async () => {
    assert.deepEqual(await readFile(root, "dangling.txt"), { ok: false, error: "dangling.txt is a broken symbolic link: its target gone.txt does not exist" });
  });

  it("says a folder is not a file", async () => {
    assert.deepEqual(await readFile(root, "folder"), { ok: false, error: "folder is a folder, not a file" });
  });
});
