// What a user reads about the extension: every setting and command in package.json is described there and in the
// README, with the exact names people script against.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../helpers/repo";

interface Manifest {
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    configuration: { properties: Record<string, { markdownDescription?: string; description?: string; scope?: string }> };
  };
}

const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as Manifest;
const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
const settings = Object.entries(manifest.contributes.configuration.properties);

describe("package.json and README", () => {
  it("describes every setting in package.json and lists it in the README", () => {
    assert.ok(settings.length >= 10);
    const undescribed = settings.filter(([, s]) => (s.markdownDescription ?? s.description ?? "").trim().length < 20).map(([key]) => key);
    assert.deepEqual(undescribed, []);
    const unlisted = settings.map(([key]) => key).filter((key) => !readme.includes(`\`${key}\``));
    assert.deepEqual(unlisted, []);
  });

  it("keeps what runs out of a workspace's reach: the CLI's path, arguments, environment and profile are machine settings", () => {
    for (const key of ["agentStream.cli.path", "agentStream.cli.args", "agentStream.cli.env", "agentStream.cli.profile"]) {
      assert.equal(manifest.contributes.configuration.properties[key]?.scope, "machine", key);
    }
  });

  it("puts every command under Agent Stream: in the palette, with the titles the README uses", () => {
    const titles = manifest.contributes.commands.map((c) => `${c.category}: ${c.title}`);
    assert.ok(titles.includes("Agent Stream: Ask about Workspace"));
    assert.ok(titles.includes("Agent Stream: Replay Stream File…"));
    for (const command of manifest.contributes.commands) {
      assert.equal(command.category, "Agent Stream", command.command);
      assert.ok(readme.includes(command.title), `the README does not mention "${command.title}"`);
    }
  });
});
