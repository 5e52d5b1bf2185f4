import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { confineToWorkspace, NodeWorkspaceFiles, outsideWorkspace, selectLines } from "../../../src/acp/workspace-files";

describe("workspace files (ACP fs requests)", () => {
  let root: string;
  let outside: string;

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-root-")));
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-out-")));
    fs.mkdirSync(path.join(root, "src"));
    fs.writeFileSync(path.join(root, "src", "a.ts"), "one\ntwo\nthree\n");
    fs.writeFileSync(path.join(outside, "secret.txt"), "secret\n");
  });

  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it("accepts an existing file inside by its absolute path", async () => {
    assert.deepEqual(await confineToWorkspace(path.join(root, "src/a.ts"), [root]), { ok: true, path: path.join(root, "src/a.ts") });
  });

  it("accepts a file that does not exist yet inside, under folders that do not exist either", async () => {
    assert.deepEqual(await confineToWorkspace(path.join(root, "new/deep/b.ts"), [root]), { ok: true, path: path.join(root, "new/deep/b.ts") });
  });

  it("refuses an absolute path outside and a .. escape", async () => {
    assert.equal((await confineToWorkspace(path.join(outside, "secret.txt"), [root])).ok, false);
    assert.equal((await confineToWorkspace(`${root}/src/../../${path.basename(outside)}/secret.txt`, [root])).ok, false);
    assert.equal((await confineToWorkspace(`${root}/../${path.basename(outside)}/new.txt`, [root])).ok, false);
  });

  it("refuses a symlink inside that points out, for existing and new files behind it", async () => {
    fs.symlinkSync(outside, path.join(root, "link"));
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "secret-link.txt"));
    assert.equal((await confineToWorkspace(path.join(root, "link/secret.txt"), [root])).ok, false);
    assert.equal((await confineToWorkspace(path.join(root, "link/new/planted.txt"), [root])).ok, false);
    assert.equal((await confineToWorkspace(path.join(root, "secret-link.txt"), [root])).ok, false);
  });

  it("refuses a dangling symlink, which a write would follow out of the workspace", async () => {
    fs.symlinkSync(path.join(outside, "not-yet.txt"), path.join(root, "dangling.txt"));
    const confined = await confineToWorkspace(path.join(root, "dangling.txt"), [root]);
    assert.equal(confined.ok, false);
  });

  it("accepts a symlink that stays inside, as the file it points to", async () => {
    fs.symlinkSync(path.join(root, "src"), path.join(root, "alias"));
    assert.deepEqual(await confineToWorkspace(path.join(root, "alias/a.ts"), [root]), { ok: true, path: path.join(root, "src/a.ts") });
  });

  it("accepts paths in any of several workspace folders", async () => {
    assert.deepEqual(await confineToWorkspace(path.join(outside, "secret.txt"), [root, outside]), { ok: true, path: path.join(outside, "secret.txt") });
    assert.deepEqual(await confineToWorkspace(path.join(root, "src/a.ts"), [root, outside]), { ok: true, path: path.join(root, "src/a.ts") });
  });

  it("refuses everything when no folder is open", async () => {
    assert.equal((await confineToWorkspace("/tmp/x", [])).ok, false);
  });

  it("refuses a path it cannot place (relative, ~/.bashrc, a file: URI) and counts it as outside, even one naming a file inside", async () => {
    const unplaceable = ["src/a.ts", "./src/a.ts", "~/.bashrc", "file:///etc/passwd", `file://${path.join(root, "src/a.ts")}`, ""];
    for (const requested of unplaceable) {
      const confined = await confineToWorkspace(requested, [root]);
      assert.deepEqual(confined, { ok: false, reason: `${requested} is not an absolute path, so it cannot be placed: it counts as outside the workspace folders` });
    }
    assert.deepEqual(await outsideWorkspace([...unplaceable, path.join(root, "src/a.ts")], [root]), unplaceable);
  });

  it("selects lines from a 1-based line, at most limit of them", () => {
    assert.equal(selectLines("a\nb\nc\nd", 2, 2), "b\nc");
    assert.equal(selectLines("a\nb\nc\nd", 3), "c\nd");
    assert.equal(selectLines("a\nb\nc\nd", null, 1), "a");
    assert.equal(selectLines("a\nb", undefined, undefined), "a\nb");
  });

  it("the plain-Node files read and write inside and refuse outside", async () => {
    const files = new NodeWorkspaceFiles([root]);
    assert.equal(await files.read(path.join(root, "src/a.ts"), 2, 1), "two");
    await files.write(path.join(root, "made/here.txt"), "hello");
    assert.equal(fs.readFileSync(path.join(root, "made/here.txt"), "utf8"), "hello");
    await assert.rejects(files.read(path.join(outside, "secret.txt")), /outside the workspace/);
    await assert.rejects(files.write(path.join(outside, "planted.txt"), "x"), /outside the workspace/);
    assert.deepEqual(fs.readdirSync(outside), ["secret.txt"]);
  });

  it("the plain-Node files refuse to read or write a path they cannot place, and write nothing", async () => {
    const files = new NodeWorkspaceFiles([root]);
    await assert.rejects(files.read("src/a.ts"), /src\/a\.ts is not an absolute path/);
    await assert.rejects(files.read("~/.bashrc"), /not an absolute path/);
    await assert.rejects(files.read("file:///etc/passwd"), /not an absolute path/);
    await assert.rejects(files.write("notes.txt", "planted"), /not an absolute path/);
    await assert.rejects(files.write("~/.bashrc", "planted"), /not an absolute path/);
    assert.deepEqual(fs.readdirSync(root).sort(), ["src"]);
  });
});
