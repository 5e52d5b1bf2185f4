// Where the real-CLI suites install agent CLIs: CI points AGENT_STREAM_CACHE at an empty temporary cache, and the
// installs must land under it, not in the runner's home.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { repoRoot } from "../../../helpers/repo";

const MODULE = path.join(repoRoot, "out", "scripts", "recording", "agent-cli-cache.js");

/** AGENT_CLI_CACHE as a fresh process with `env` computes it (the module reads the environment when loaded). */
function cacheWith(env: NodeJS.ProcessEnv): string {
  const script = `process.stdout.write(require(${JSON.stringify(MODULE)}).AGENT_CLI_CACHE)`;
  return execFileSync(process.execPath, ["-e", script], { env, encoding: "utf8" });
}

describe("agent-cli-cache: where agent CLIs are installed", () => {
  it("installs under AGENT_STREAM_CACHE when it is set", () => {
    assert.equal(cacheWith({ PATH: process.env.PATH, HOME: "/home/someone", AGENT_STREAM_CACHE: "/tmp/ci-cache" }), "/tmp/ci-cache/agent-clis");
  });

  it("installs under ~/.cache/agent-stream otherwise", () => {
    assert.equal(cacheWith({ PATH: process.env.PATH, HOME: "/home/someone" }), "/home/someone/.cache/agent-stream/agent-clis");
  });
});
