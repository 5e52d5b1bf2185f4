// Where a user finds Add Selection to Chat (issue 25: "editor context menu, a keybinding, and a composer button"): the
// first two are package.json's, checked here; the composer's button is test/webview/file-mentions.test.ts's.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../helpers/repo";

interface Manifest {
  contributes: {
    commands: { command: string; title: string; icon?: string }[];
    keybindings: { command: string; key: string; mac?: string; when?: string }[];
    menus: Record<string, { command: string; when?: string; group?: string }[]>;
  };
}

const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as Manifest;
const COMMAND = "agentStream.addSelectionToChat";

describe("package.json: Add Selection to Chat", () => {
  it("is a command titled as the issue names it", () => {
    assert.equal(manifest.contributes.commands.find((command) => command.command === COMMAND)?.title, "Add Selection to Chat");
  });

  it("is in the editor's context menu when text is selected", () => {
    const items = manifest.contributes.menus["editor/context"].filter((item) => item.command === COMMAND);
    assert.deepEqual(items.map((item) => item.when), ["editorHasSelection"]);
  });

  it("has a keybinding, Cmd on a Mac, while an editor with a selection has the focus", () => {
    const bindings = manifest.contributes.keybindings.filter((binding) => binding.command === COMMAND);
    assert.deepEqual(bindings.map((binding) => [binding.key, binding.mac, binding.when]), [["ctrl+alt+k", "cmd+alt+k", "editorTextFocus && editorHasSelection"]]);
  });
});
