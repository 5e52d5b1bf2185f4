import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { agentsOnPath } from "../../../src/profiles/agents-on-path";
import { PROFILES } from "../../../src/profiles/profile-registry";

describe("the agents on the PATH (New Session with Agent…)", () => {
  let bin: string;
  beforeEach(() => (bin = fs.mkdtempSync(path.join(os.tmpdir(), "agents-on-path-"))));
  afterEach(() => fs.rmSync(bin, { recursive: true, force: true }));

  function install(...commands: string[]): void {
    for (const command of commands) fs.writeFileSync(path.join(bin, command), "#!/bin/sh\n", { mode: 0o755 });
  }

  it("lists a CLI that two profiles share once, run by the profile auto picks for it", function () {
    if (process.platform === "win32") this.skip();
    install("gemini", "qwen", "opencode", "claude");
    const shared = ["gemini", "qwen", "opencode"].filter((command) => PROFILES.filter((profile) => profile.command === command).length > 1);
    assert.deepEqual(shared, ["gemini", "qwen", "opencode"], "the profiles still share these commands");
    const found = agentsOnPath({ PATH: bin }, "linux");
    assert.deepEqual(
      found.map((agent) => [agent.profile.command, agent.profile.name, agent.file]),
      [
        ["claude", "claude", path.join(bin, "claude")],
        ["gemini", "gemini", path.join(bin, "gemini")],
        ["qwen", "qwen", path.join(bin, "qwen")],
        ["opencode", "opencode", path.join(bin, "opencode")],
      ],
    );
  });

  it("lists nothing found only in a relative PATH entry", function () {
    if (process.platform === "win32") this.skip();
    install("claude");
    assert.deepEqual(agentsOnPath({ PATH: path.relative(process.cwd(), bin) }, "linux"), []);
  });
});
