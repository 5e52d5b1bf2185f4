// The walk the @ picker lists: folders as entries when asked, .gitignore honoured for both, breadth first and bounded.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { walkWorkspace } from "../../../src/workspace/workspace-tree";

describe("the workspace's tree", () => {
  let root: string;
  const read = (relative: string) => fs.promises.readFile(path.join(root, relative), "utf8").catch(() => "");

  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "workspace-tree-"));
    for (const file of ["README.md", "src/auth/middleware.ts", "build/out.js", "node_modules/x/index.js", "src/generated/a.ts"]) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), "x\n");
    }
    fs.writeFileSync(path.join(root, ".gitignore"), "build/\n");
    fs.writeFileSync(path.join(root, "src", ".gitignore"), "generated\n");
  });

  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it("lists files and, when asked, folders, top of the tree first, leaving out what .gitignore and the always-skipped name", async () => {
    const walked = await walkWorkspace(root, { maxEntries: 100, maxDepth: 8, folders: true, readIgnoreFile: read });
    assert.ok(walked.ok);
    assert.deepEqual(
      walked.tree.entries.map((entry) => `${entry.kind} ${entry.path}`),
      ["file .gitignore", "file README.md", "folder src", "file src/.gitignore", "folder src/auth", "file src/auth/middleware.ts"],
    );
    assert.equal(walked.tree.ignoredEntries, 2);
  });

  it("stops at the entry limit and says so", async () => {
    const walked = await walkWorkspace(root, { maxEntries: 2, maxDepth: 8, folders: true, readIgnoreFile: read });
    assert.ok(walked.ok);
    assert.equal(walked.tree.entries.length, 2);
    assert.equal(walked.tree.truncated, true);
  });
});
