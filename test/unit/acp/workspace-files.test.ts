import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { nodeFileSystem, type FileSystemCalls } from "../../../src/acp/confined-file";
import type { DocumentLines } from "../../../src/acp/line-range";
import { confineToWorkspace, NodeWorkspaceFiles, outsideWorkspace, type OpenDocuments } from "../../../src/acp/workspace-files";
import { countReads } from "../../helpers/counting-reads";

/** The editor as the files see it: documents open with unsaved text, and a save that writes by path as VS Code's does. */
class FakeEditor implements OpenDocuments {
  readonly unsaved = new Map<string, string>();
  readonly saved: string[] = [];
  /** Run inside `replace`, after the edit and before the check that comes before the save, and during the save. */
  duringEdit: () => void = () => {};
  duringSave: () => void = () => {};

  find(realPath: string): DocumentLines | undefined {
    const text = this.unsaved.get(realPath);
    if (text === undefined) return undefined;
    const lines = text.split("\n");
    return { lineCount: lines.length, lineAt: (index) => lines[index]!, eol: "\n" };
  }

  async replace(realPath: string, content: string, beforeSave: () => Promise<void>): Promise<void> {
    this.unsaved.set(realPath, content);
    this.duringEdit();
    await beforeSave();
    this.duringSave();
    fs.writeFileSync(realPath, content);
    this.unsaved.delete(realPath);
    this.saved.push(realPath);
  }
}

const isPosix = process.platform !== "win32";

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

  const inRoot = (...parts: string[]) => path.join(root, ...parts);

  describe("which paths are inside", () => {
    it("accepts an existing file inside by its absolute path", async () => {
      assert.deepEqual(await confineToWorkspace(inRoot("src/a.ts"), [root]), { ok: true, path: inRoot("src/a.ts") });
    });

    it("accepts a file that does not exist yet inside, under folders that do not exist either", async () => {
      assert.deepEqual(await confineToWorkspace(inRoot("new/deep/b.ts"), [root]), { ok: true, path: inRoot("new/deep/b.ts") });
    });

    it("refuses an absolute path outside and a .. escape", async () => {
      assert.equal((await confineToWorkspace(path.join(outside, "secret.txt"), [root])).ok, false);
      assert.equal((await confineToWorkspace(`${root}/src/../../${path.basename(outside)}/secret.txt`, [root])).ok, false);
      assert.equal((await confineToWorkspace(`${root}/../${path.basename(outside)}/new.txt`, [root])).ok, false);
    });

    it("refuses a symlink inside that points out, for existing and new files behind it", async () => {
      fs.symlinkSync(outside, inRoot("link"));
      fs.symlinkSync(path.join(outside, "secret.txt"), inRoot("secret-link.txt"));
      assert.equal((await confineToWorkspace(inRoot("link/secret.txt"), [root])).ok, false);
      assert.equal((await confineToWorkspace(inRoot("link/new/planted.txt"), [root])).ok, false);
      assert.equal((await confineToWorkspace(inRoot("secret-link.txt"), [root])).ok, false);
    });

    it("refuses a dangling symlink, which a write would follow out of the workspace", async () => {
      fs.symlinkSync(path.join(outside, "not-yet.txt"), inRoot("dangling.txt"));
      assert.equal((await confineToWorkspace(inRoot("dangling.txt"), [root])).ok, false);
    });

    it("accepts a symlink that stays inside, as the file it points to", async () => {
      fs.symlinkSync(inRoot("src"), inRoot("alias"));
      assert.deepEqual(await confineToWorkspace(inRoot("alias/a.ts"), [root]), { ok: true, path: inRoot("src/a.ts") });
    });

    it("accepts paths in any of several workspace folders", async () => {
      assert.deepEqual(await confineToWorkspace(path.join(outside, "secret.txt"), [root, outside]), { ok: true, path: path.join(outside, "secret.txt") });
      assert.deepEqual(await confineToWorkspace(inRoot("src/a.ts"), [root, outside]), { ok: true, path: inRoot("src/a.ts") });
    });

    it("refuses everything when no folder is open", async () => {
      assert.equal((await confineToWorkspace("/tmp/x", [])).ok, false);
    });

    it("refuses a path it cannot place (relative, ~/.bashrc, a file: URI) and counts it as outside, even one naming a file inside", async () => {
      const unplaceable = ["src/a.ts", "./src/a.ts", "~/.bashrc", "file:///etc/passwd", `file://${inRoot("src/a.ts")}`, ""];
      for (const requested of unplaceable) {
        const confined = await confineToWorkspace(requested, [root]);
        assert.deepEqual(confined, { ok: false, reason: `${requested} is not an absolute path, so it cannot be placed: it counts as outside the workspace folders` });
      }
      assert.deepEqual(await outsideWorkspace([...unplaceable, inRoot("src/a.ts")], [root]), unplaceable);
    });
  });

  describe("reads and writes on disk", () => {
    it("reads (line and limit) and writes inside, creating folders, and refuses outside", async () => {
      const files = new NodeWorkspaceFiles([root]);
      assert.equal(await files.read(inRoot("src/a.ts"), 2, 1), "two");
      await files.write(inRoot("made/here.txt"), "hello");
      assert.equal(fs.readFileSync(inRoot("made/here.txt"), "utf8"), "hello");
      await assert.rejects(files.read(path.join(outside, "secret.txt")), /outside the workspace/);
      await assert.rejects(files.write(path.join(outside, "planted.txt"), "x"), /outside the workspace/);
      assert.deepEqual(fs.readdirSync(outside), ["secret.txt"]);
    });

    it("overwrites an existing file whole, keeping it the same file", async () => {
      const files = new NodeWorkspaceFiles([root]);
      const before = fs.statSync(inRoot("src/a.ts")).ino;
      await files.write(inRoot("src/a.ts"), "short");
      assert.equal(fs.readFileSync(inRoot("src/a.ts"), "utf8"), "short");
      assert.equal(fs.statSync(inRoot("src/a.ts")).ino, before);
    });

    it("refuses to read or write a path it cannot place, and writes nothing", async () => {
      const files = new NodeWorkspaceFiles([root]);
      await assert.rejects(files.read("src/a.ts"), /src\/a\.ts is not an absolute path/);
      await assert.rejects(files.read("~/.bashrc"), /not an absolute path/);
      await assert.rejects(files.read("file:///etc/passwd"), /not an absolute path/);
      await assert.rejects(files.write("notes.txt", "planted"), /not an absolute path/);
      await assert.rejects(files.write("~/.bashrc", "planted"), /not an absolute path/);
      assert.deepEqual(fs.readdirSync(root).sort(), ["src"]);
    });

    it("tells a missing file by its ENOENT, which the agent is told as not found", async () => {
      await assert.rejects(new NodeWorkspaceFiles([root]).read(inRoot("missing.txt")), { code: "ENOENT" });
    });

    it("refuses a folder and a device, which are not regular files", async () => {
      const files = new NodeWorkspaceFiles([root]);
      await assert.rejects(files.read(inRoot("src")), /src is a folder, not a regular file/);
      await assert.rejects(files.write(inRoot("src"), "x"), /is a folder, not a regular file/);
      if (!isPosix) return;
      const devices = new NodeWorkspaceFiles(["/dev"]);
      await assert.rejects(devices.read("/dev/null"), /\/dev\/null is a device, not a regular file/);
      await assert.rejects(devices.write("/dev/null", "x"), /\/dev\/null is a device, not a regular file/);
    });

    describe("a FIFO inside the workspace", function () {
      let fifo: string;

      beforeEach(function () {
        if (!isPosix) this.skip();
        fifo = inRoot("pipe");
        execFileSync("mkfifo", [fifo]);
      });

      // Should a read ever wait on the FIFO again, a writer's open lets it go, so one failure does not hang the run.
      afterEach(() => {
        try {
          fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
        } catch {
          // ENXIO: no reader waits on it.
        }
      });

      it("refuses a read at once, and still serves reads after five of them (more than the thread pool's four)", async () => {
        const files = new NodeWorkspaceFiles([root], { deadlineMs: 5000 });
        for (let i = 0; i < 5; i++) await assert.rejects(files.read(fifo, 1, 1), /pipe is a FIFO \(named pipe\), not a regular file/);
        await assert.rejects(Promise.all(Array.from({ length: 5 }, () => files.read(fifo))), /FIFO/);
        assert.equal(await files.read(inRoot("src/a.ts"), 1, 1), "one");
      });

      it("refuses a write without waiting for a reader", async () => {
        await assert.rejects(new NodeWorkspaceFiles([root], { deadlineMs: 5000 }).write(fifo, "x"), /pipe is a FIFO or socket, not a regular file/);
      });
    });

    it("reads the first line of a 300 MB sparse file without reading the rest, and refuses it whole, saying how to read it in parts", async () => {
      const big = inRoot("big.log");
      fs.writeFileSync(big, "the first line\nthe second line\n");
      fs.truncateSync(big, 300 * 1000 * 1000);
      let bytesRead = 0;
      const counting: FileSystemCalls = {
        ...nodeFileSystem,
        open: async (target, flags, mode) => countReads(await nodeFileSystem.open(target, flags, mode), (bytes) => (bytesRead += bytes)),
      };
      const files = new NodeWorkspaceFiles([root], { fileSystem: counting });
      assert.equal(await files.read(big, 1, 1), "the first line");
      assert.equal(await files.read(big, 2, 1), "the second line");
      await assert.rejects(files.read(big), new RegExp(`${big.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is 286.2 MiB, more than the 4 MiB one read returns: read it in parts with line and limit`));
      assert.ok(bytesRead <= 2 * 64 * 1024, `${bytesRead} bytes read`);
    });

    it("ends a read the file system never answers by its deadline, saying so, and serves the next one", async () => {
      let opens = 0;
      const hangsOnce: FileSystemCalls = { ...nodeFileSystem, open: (target, flags, mode) => (++opens === 1 ? new Promise(() => {}) : nodeFileSystem.open(target, flags, mode)) };
      const files = new NodeWorkspaceFiles([root], { deadlineMs: 50, fileSystem: hangsOnce });
      await assert.rejects(files.read(inRoot("src/a.ts")), new RegExp(`the read of ${inRoot("src/a.ts")} took longer than 50 ms and was abandoned`));
      assert.equal(await files.read(inRoot("src/a.ts"), 3, 1), "three");
    });
  });

  describe("with the editor's open documents", () => {
    it("reads an open document's unsaved text, by line and limit, instead of the file on disk", async () => {
      const editor = new FakeEditor();
      editor.unsaved.set(inRoot("src/a.ts"), "edited\nnot saved\n");
      const files = new NodeWorkspaceFiles([root], { documents: editor });
      assert.equal(await files.read(inRoot("src/a.ts"), 2, 1), "not saved");
      assert.equal(await files.read(inRoot("src/a.ts")), "edited\nnot saved\n");
    });

    it("writes an existing file through the editor's edit, and creates a new one on disk with its folders", async () => {
      const editor = new FakeEditor();
      const files = new NodeWorkspaceFiles([root], { documents: editor });
      await files.write(inRoot("src/a.ts"), "by the editor\n");
      await files.write(inRoot("new/deep/b.ts"), "created\n");
      assert.deepEqual(editor.saved, [inRoot("src/a.ts")]);
      assert.equal(fs.readFileSync(inRoot("src/a.ts"), "utf8"), "by the editor\n");
      assert.equal(fs.readFileSync(inRoot("new/deep/b.ts"), "utf8"), "created\n");
    });

    it("refuses outside and unplaceable paths before the editor sees them", async () => {
      const editor = new FakeEditor();
      const files = new NodeWorkspaceFiles([root], { documents: editor });
      await assert.rejects(files.write(path.join(outside, "secret.txt"), "x"), /outside the workspace/);
      await assert.rejects(files.write("src/a.ts", "x"), /not an absolute path/);
      assert.deepEqual(editor.saved, []);
      assert.equal(fs.readFileSync(path.join(outside, "secret.txt"), "utf8"), "secret\n");
    });

    it("leaves the edit unsaved when a folder on the way is swapped for a symlink out between the edit and the save", async function () {
      if (!isPosix) this.skip();
      const editor = new FakeEditor();
      editor.duringEdit = () => swapForSymlink(inRoot("src"), outside);
      fs.writeFileSync(path.join(outside, "a.ts"), "outside\n");
      const files = new NodeWorkspaceFiles([root], { documents: editor });
      await assert.rejects(files.write(inRoot("src/a.ts"), "planted\n"), /src\/a\.ts (was replaced while the editor edited it; the edit is left unsaved|led outside the workspace folders)/);
      assert.deepEqual(editor.saved, []);
      assert.equal(fs.readFileSync(path.join(outside, "a.ts"), "utf8"), "outside\n");
    });

    it("tells the agent when a folder swapped during the editor's own save may have carried it outside", async function () {
      // The editor saves by path: a swap in the moment between the last check and its write is the window VS Code's
      // API leaves open. It cannot be prevented from here, only found out and said.
      if (!isPosix) this.skip();
      const editor = new FakeEditor();
      editor.duringSave = () => swapForSymlink(inRoot("src"), outside);
      const files = new NodeWorkspaceFiles([root], { documents: editor });
      await assert.rejects(files.write(inRoot("src/a.ts"), "planted\n"), /src\/a\.ts changed while the editor saved it, so the save may have gone elsewhere/);
    });

    it("ends a write the editor never saves by its deadline, saying so", async () => {
      const stuck: OpenDocuments = { find: () => undefined, replace: () => new Promise(() => {}) };
      const files = new NodeWorkspaceFiles([root], { documents: stuck, deadlineMs: 50 });
      await assert.rejects(files.write(inRoot("src/a.ts"), "x"), new RegExp(`the write of ${inRoot("src/a.ts")} took longer than 50 ms and was abandoned`));
    });
  });
});

/** Moves `folder` aside and puts a symlink to `to` in its place, as a hostile agent racing the checks would. */
function swapForSymlink(folder: string, to: string): void {
  fs.renameSync(folder, `${folder}.moved`);
  fs.symlinkSync(to, folder);
}
