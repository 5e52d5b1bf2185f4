// The race a hostile agent runs against the client's file checks: a workspace folder swapped for a symlink to a folder
// outside between the check of a path and its use. First at every point between the calls a read or write makes
// (deterministic: the swap is made by the file system calls themselves), then for real, against a process swapping as
// fast as it can.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { nodeFileSystem, type FileSystemCalls } from "../../../src/acp/confined-file";
import { NodeWorkspaceFiles } from "../../../src/acp/workspace-files";
import { fakeCli } from "../../helpers/repo";

const SECRET = "OUTSIDE\n";
const WRITTEN = "written by the agent\n";

/** A workspace with `dir/secret.txt` inside, and a folder outside with a secret of its own. */
interface Scene {
  root: string;
  folder: string;
  outside: string;
}

function makeScene(): Scene {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-race-root-")));
  const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-race-out-")));
  const folder = path.join(root, "dir");
  fs.mkdirSync(folder);
  fs.writeFileSync(path.join(folder, "secret.txt"), "inside\n");
  fs.writeFileSync(path.join(outside, "secret.txt"), SECRET);
  return { root, folder, outside };
}

function removeScene(scene: Scene): void {
  fs.rmSync(scene.root, { recursive: true, force: true });
  fs.rmSync(scene.outside, { recursive: true, force: true });
}

/** Swaps `folder` for a symlink to `to`; the function returned swaps it back. */
function swapFolder(folder: string, to: string): () => void {
  fs.renameSync(folder, `${folder}.moved`);
  fs.symlinkSync(to, folder);
  return () => {
    fs.unlinkSync(folder);
    fs.renameSync(`${folder}.moved`, folder);
  };
}

/** `base`, but just before its `at`-th call (counting every call) the folder is swapped; back just after with `undo`. */
function swappingAt(base: FileSystemCalls, at: number, swap: () => () => void, undo: boolean): { calls: FileSystemCalls; made(): number } {
  let made = 0;
  const around =
    <A extends unknown[], T>(call: (...args: A) => Promise<T>) =>
    async (...args: A): Promise<T> => {
      if (++made !== at) return call(...args);
      const restore = swap();
      try {
        return await call(...args);
      } finally {
        if (undo) restore();
      }
    };
  const calls: FileSystemCalls = {
    ...base,
    realpath: around(base.realpath),
    lstat: around(base.lstat),
    stat: around(base.stat),
    readlink: around(base.readlink),
    open: around(base.open),
    mkdir: around(base.mkdir),
    rmdir: around(base.rmdir),
    unlink: around(base.unlink),
  };
  return { calls, made: () => made };
}

/** Every file under `folder`, with its text (folders end in a slash). */
function contentsOf(folder: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of fs.readdirSync(folder, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath ?? entry.path, entry.name);
    const name = path.relative(folder, full);
    if (entry.isSymbolicLink()) found[name] = `-> ${fs.readlinkSync(full)}`;
    else if (entry.isDirectory()) found[`${name}/`] = "";
    else found[name] = fs.readFileSync(full, "utf8");
  }
  return found;
}

const SCENARIOS: { name: string; run(files: NodeWorkspaceFiles, scene: Scene): Promise<unknown>; writes: boolean }[] = [
  { name: "a read", run: (files, { folder }) => files.read(path.join(folder, "secret.txt")), writes: false },
  { name: "a write to an existing file", run: (files, { folder }) => files.write(path.join(folder, "secret.txt"), WRITTEN), writes: true },
  { name: "a write of a new file", run: (files, { folder }) => files.write(path.join(folder, "new.txt"), WRITTEN), writes: true },
  { name: "a write of a new file in new folders", run: (files, { folder }) => files.write(path.join(folder, "sub", "deeper", "new.txt"), WRITTEN), writes: true },
];

const byIdentity: FileSystemCalls = { ...nodeFileSystem, linkOfDescriptor: undefined };
const CHECKS: { how: string; calls: FileSystemCalls; exact: boolean }[] = [
  ...(process.platform === "linux" ? [{ how: "through descriptors (Linux)", calls: nodeFileSystem, exact: true }] : []),
  { how: "by identity against the path resolved afresh (elsewhere)", calls: byIdentity, exact: false },
];

describe("an agent's file used race-free", function () {
  before(function () {
    if (process.platform === "win32") this.skip();
  });

  for (const check of CHECKS) {
    describe(`checked ${check.how}`, () => {
      for (const scenario of SCENARIOS) {
        it(`${scenario.name} never reads or writes outside, wherever between its calls a folder is swapped for a symlink out, and back`, async () => {
          const calm = makeScene();
          const counted = swappingAt(check.calls, 0, () => () => {}, false);
          await scenario.run(new NodeWorkspaceFiles([calm.root], { fileSystem: counted.calls }), calm);
          removeScene(calm);
          const points = counted.made();
          assert.ok(points >= 3, `${points} calls`);
          for (let at = 1; at <= points; at++) {
            for (const undo of [false, true]) {
              const scene = makeScene();
              const where = `swapped at call ${at} of ${points}${undo ? " and back" : ""}`;
              try {
                const swapping = swappingAt(check.calls, at, () => swapFolder(scene.folder, scene.outside), undo);
                const files = new NodeWorkspaceFiles([scene.root], { fileSystem: swapping.calls });
                const outcome = await scenario.run(files, scene).then(
                  (result) => ({ result }),
                  (error: unknown) => ({ error: String(error) }),
                );
                if ("error" in outcome) assert.match(outcome.error, /outside the workspace folders|after it was checked/, `${where}: ${outcome.error}`);
                else if (scenario.writes) assert.ok(Object.values(contentsOf(scene.root)).includes(WRITTEN), `${where}: the write said done but is not inside`);
                else assert.equal(outcome.result, "inside\n", where);
                const left = contentsOf(scene.outside);
                if (check.exact || !undo) assert.deepEqual(left, { "secret.txt": SECRET }, where);
                // Where no descriptor says where a new file or folder went, one made outside while the folder was
                // swapped, and found swapped back, cannot be found to be removed: it stays, empty.
                else assert.deepEqual(Object.entries(left).filter(([name, text]) => name !== "secret.txt" && text !== ""), [], where);
                assert.equal(left["secret.txt"], SECRET, where);
              } finally {
                removeScene(scene);
              }
            }
          }
        });
      }
    });
  }

  it("races 2,000 real swaps of a folder for a symlink out, and never reads or writes a byte outside", async function () {
    this.timeout(120_000);
    const scene = makeScene();
    try {
      const files = new NodeWorkspaceFiles([scene.root]);
      const swapper = spawn(process.execPath, [fakeCli("folder-swapper.js"), scene.folder, scene.outside, "2000"], { stdio: ["ignore", "pipe", "inherit"] });
      const exited = once(swapper, "exit");
      let swapping = true;
      void exited.then(() => (swapping = false));
      await once(swapper.stdout, "data");
      const seen = { read: 0, written: 0, refused: 0 };
      const attempt = async (run: () => Promise<unknown>) => {
        let result: unknown;
        try {
          result = await run();
        } catch {
          seen.refused++;
          return;
        }
        if (typeof result !== "string") seen.written++;
        else if (result === SECRET) assert.fail("a read returned the file outside");
        else seen.read++;
      };
      for (let i = 0; swapping; i++) {
        await Promise.all([
          attempt(() => files.read(path.join(scene.folder, "secret.txt"))),
          attempt(() => files.write(path.join(scene.folder, "secret.txt"), "inside\n")),
          attempt(() => files.write(path.join(scene.folder, `new-${i}.txt`), WRITTEN)),
          attempt(() => files.write(path.join(scene.folder, `sub-${i}`, "new.txt"), WRITTEN)),
        ]);
      }
      const [code] = (await exited) as [number | null];
      assert.equal(code, 0, "the swapper ran all its swaps");
      const left = contentsOf(scene.outside);
      assert.deepEqual(left, { "secret.txt": SECRET }, `after ${JSON.stringify(seen)}`);
      assert.ok(seen.read + seen.written > 0, `nothing got through at all: ${JSON.stringify(seen)}`);
    } finally {
      removeScene(scene);
    }
  });
});
