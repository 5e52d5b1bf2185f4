import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { droppedFiles } from "../../../src/launch/dropped-files";

describe("files and folders dropped from the explorer", () => {
  let workspace: string;
  let outside: string;
  const uri = (target: string) => pathToFileURL(target).href;

  beforeEach(() => {
    workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dropped-workspace-")));
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dropped-outside-")));
    fs.mkdirSync(path.join(workspace, "src"));
    fs.writeFileSync(path.join(workspace, "src", "a b.ts"), "export const a = 1;\n");
    fs.writeFileSync(path.join(outside, "secret.txt"), "secret");
  });

  afterEach(() => {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it("makes chips of a workspace file and folder, written as the @ picker writes them", async () => {
    const dropped = await droppedFiles([uri(path.join(workspace, "src", "a b.ts")), uri(path.join(workspace, "src"))], [workspace]);
    assert.deepEqual(dropped, {
      attachments: [
        { kind: "file", path: "src/a b.ts" },
        { kind: "folder", path: "src" },
      ],
      refused: [],
    });
  });

  it("refuses a file outside the workspace, a link inside that leads outside, and one that does not exist", async () => {
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(workspace, "link.txt"));
    const refused = [uri(path.join(outside, "secret.txt")), uri(path.join(workspace, "link.txt")), uri(path.join(workspace, "missing.ts")), `${uri(workspace)}/src/../../${path.basename(outside)}/secret.txt`];
    assert.deepEqual(await droppedFiles(refused, [workspace]), { attachments: [], refused });
  });

  it("refuses what is not a file URI unless the editor places it in a workspace folder", async () => {
    const remote = "vscode-remote://ssh-remote+box/work/src/a.ts";
    assert.deepEqual(await droppedFiles([remote, "not a uri", "https://example.com/a.ts"], [workspace]), { attachments: [], refused: [remote, "not a uri", "https://example.com/a.ts"] });
    const placed = await droppedFiles([remote], [workspace], (each) => (each === remote ? path.join(workspace, "src", "a b.ts") : undefined));
    assert.deepEqual(placed.attachments, [{ kind: "file", path: "src/a b.ts" }]);
  });

  it("writes a path absolute in a workspace of several folders, so that it names one file", async () => {
    const file = path.join(workspace, "src", "a b.ts");
    assert.deepEqual((await droppedFiles([uri(file)], [workspace, outside])).attachments, [{ kind: "file", path: file }]);
  });
});
