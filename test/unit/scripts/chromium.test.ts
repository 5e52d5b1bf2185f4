// A Chromium that cannot start (scripts/chromium.ts through the webview harness): `npm test` must fail with the
// reason and exit, rather than print its summary and hang.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../helpers/repo";
import { finish } from "./fake-tools";

const MOCHA = require.resolve("mocha/bin/mocha.js");
const WEBVIEW_SUITES = ["composer.test.js", "streaming.test.js"].map((name) => path.join(repoRoot, "out", "test", "webview", name));
/** Far beyond a failing run's few seconds: only a run that never exits reaches it. */
const KILL_AFTER_MS = 120_000;

describe("the webview suites when Chromium cannot start", function () {
  this.timeout(KILL_AFTER_MS + 30_000);

  it("fail with the reason and the test run exits non-zero", async () => {
    for (const suite of WEBVIEW_SUITES) assert.ok(fs.existsSync(suite), `${suite} is not built (tsc -p test/webview)`);
    const mocha = spawn(
      process.execPath,
      [MOCHA, "--no-config", "--require", path.join(repoRoot, "out", "test", "helpers", "browser-hooks.js"), "--timeout", "30000", ...WEBVIEW_SUITES],
      { cwd: repoRoot, env: { ...process.env, AGENT_STREAM_CHROMIUM: "/nonexistent/chromium" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    const killer = setTimeout(() => mocha.kill("SIGKILL"), KILL_AFTER_MS);
    const result = await finish(mocha).finally(() => clearTimeout(killer));
    assert.equal(result.signal, null, `mocha did not exit by itself; it printed:\n${result.stdout}`);
    assert.notEqual(result.code, 0);
    assert.match(result.stdout, /Chromium not found at \/nonexistent\/chromium/);
  });
});
