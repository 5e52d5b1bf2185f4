// When the process that runs a LiveSession dies (a crashed or killed extension host), nothing the CLI started
// survives it: the watchdog ends the CLI, its group, and the processes that left the group.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import * as path from "node:path";
import { escapeePids, escapeesPidFile, linuxCleanupHooks, STARTS_ESCAPEES, survivorsAfter, waitForEscapees } from "../../helpers/escapees";

/** A Node process that runs one CLI through LiveSession, as the extension host does (compiled next to this test). */
const HOST = path.join(__dirname, "..", "..", "helpers", "live-session-host.js");

describe("LiveSession: the death of its host process", function () {
  this.timeout(30_000);
  const leftovers = linuxCleanupHooks();

  it("leaves no process of the CLI alive 5 s after the host is killed with SIGKILL", async () => {
    const pidFile = escapeesPidFile();
    const host = spawn(process.execPath, [HOST, STARTS_ESCAPEES, `--pid-file=${pidFile}`], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    host.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    let exited = false;
    host.once("exit", () => (exited = true));
    const escapees = await waitForEscapees(pidFile, () => (exited ? `the host exited: ${stderr}` : undefined));
    const pids = escapeePids(escapees);
    leftovers.push(...pids);
    host.kill("SIGKILL");
    await once(host, "close");
    assert.deepEqual(await survivorsAfter(pids, 5000), []);
  });
});
