// Which paths written in an answer are workspace files: relative to a folder or absolute, regular files only, and
// never one that a symlink takes out of the workspace.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { workspaceFileOf, workspaceFilesAmong } from "../../../src/acp/written-paths";

describe("paths written in answers, placed in the workspace", () => {
  let root: string;
  let workspace: string;
  let outside: string;

  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "written-paths-"));
    workspace = path.join(root, "app");
    outside = path.join(root, "secret.txt");
    fs.mkdirSync(path.join(workspace, "src"), { recursive: true });
    fs.writeFileSync(path.join(workspace, "src", "auth.ts"), "export {}\n");
    fs.writeFileSync(outside, "no\n");
    fs.symlinkSync(outside, path.join(workspace, "src", "escape.txt"));
  });

  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it("finds a file written relative to the workspace folder, or absolute inside it", async () => {
    assert.equal(await workspaceFileOf("src/auth.ts", [workspace]), fs.realpathSync(path.join(workspace, "src", "auth.ts")));
    assert.equal(await workspaceFileOf(path.join(workspace, "src", "auth.ts"), [workspace]), fs.realpathSync(path.join(workspace, "src", "auth.ts")));
  });

  it("refuses a folder, a missing file, a file outside, a way out through .. or a symlink, and a NUL", async () => {
    const refused = ["src", "src/missing.ts", outside, "../secret.txt", "src/escape.txt", "src/auth.ts\0"];
    assert.deepEqual(await workspaceFilesAmong(refused, [workspace]), []);
  });

  it("keeps the order and the spelling of those it found", async () => {
    assert.deepEqual(await workspaceFilesAmong(["nope.md", "src/auth.ts", "./src/auth.ts"], [workspace]), ["src/auth.ts", "./src/auth.ts"]);
  });

  it("finds nothing with no workspace folder open", async () => {
    assert.equal(await workspaceFileOf("src/auth.ts", []), undefined);
  });
});
