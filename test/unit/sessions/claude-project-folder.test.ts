import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { claudeProjectFolderName } from "../../../src/sessions/claude-project-folder";
import { repoRoot } from "../../helpers/repo";

const RECORDED = path.join(repoRoot, "test", "fixtures", "claude-recorded", "2.1.330", "sessions");

/** Each folder Claude Code made, and the `cwd` its sessions' lines say they ran in. */
function recordedFolders(): { folder: string; cwd: string }[] {
  return fs
    .readdirSync(RECORDED, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const file = fs.readdirSync(path.join(RECORDED, entry.name)).find((name) => name.endsWith(".jsonl"))!;
      const lines = fs.readFileSync(path.join(RECORDED, entry.name, file), "utf8").split("\n");
      const cwd = lines.map((line) => (line ? (JSON.parse(line) as { cwd?: string }).cwd : undefined)).find((value) => value !== undefined)!;
      return { folder: entry.name, cwd };
    });
}

describe("the folder Claude Code keeps a workspace's sessions in", () => {
  it("is named as Claude Code 2.1.330 named it, for a path with a dot, an underscore and a space and for a 258-character path", () => {
    const folders = recordedFolders();
    assert.equal(folders.length, 2);
    for (const { folder, cwd } of folders) assert.equal(claudeProjectFolderName(cwd), folder);
  });

  it("keeps 200 characters of a long path and tells long paths apart by a hash", () => {
    const long = `/work/${"x".repeat(300)}`;
    const name = claudeProjectFolderName(long);
    assert.match(name, /^-work-x{194}-[0-9a-z]+$/);
    assert.notEqual(claudeProjectFolderName(`${long}y`), name);
  });

  it("makes a path with .. segments, slashes or non-ASCII letters a plain name that cannot lead out of the projects folder", () => {
    assert.equal(claudeProjectFolderName("/../../etc"), "-------etc");
    assert.equal(claudeProjectFolderName("/home/zoë/🙂"), "-home-zo----");
  });
});
