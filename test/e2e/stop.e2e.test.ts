// Stop in a real VS Code while the CLI streams: the turn says Stopped, nothing is reported as an error, and the
// CLI's whole process tree is gone.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fakeCli } from "../helpers/repo";
import {
  ask,
  closeNotificationCenter,
  newSession,
  openNotificationCenter,
  RESULTS,
  statusItem,
  turnOf,
  useWorkbench,
  waitUntil,
} from "./workbench";
import { isRunning } from "./processes";

describe("Stop in a real VS Code", function () {
  this.timeout(240_000);
  this.retries(1);
  // The fake CLI writes its pid and its child's here: it runs under the extension host, out of this test's sight.
  const pidFile = path.join(os.tmpdir(), `agent-stream-e2e-stop-${process.pid}.pids`);
  const workbench = useWorkbench({
    "agentStream.cli.path": fakeCli("fake-locus.js"),
    "agentStream.cli.env": { FAKE_SCENARIO: "slow", FAKE_CHILD: "1", FAKE_PID_FILE: pidFile },
  });
  after(() => fs.rmSync(pidFile, { force: true }));

  it("stops a streaming CLI and its child, says Stopped, and reports no error", async () => {
    const page = workbench.page;
    const prompt = "Count for me, slowly";
    await newSession(page);
    fs.rmSync(pidFile, { force: true });
    const chat = await ask(page, prompt);
    const turn = turnOf(chat, prompt);
    await turn.getByText("tick tick tick", { exact: false }).waitFor({ timeout: 60_000 });
    await statusItem(page, "Agent Stream: streaming").waitFor();
    const pids = fs.readFileSync(pidFile, "utf8").trim().split("\n").map(Number);
    assert.equal(pids.length, 2, `the CLI and its child: ${pids.join(", ")}`);
    assert.deepEqual(pids.filter(isRunning), pids, "both run before Stop");

    await chat.getByRole("button", { name: "Stop" }).click();
    await turn.locator(".turn-footer", { hasText: "Stopped" }).waitFor({ timeout: 30_000 });
    await statusItem(page, "Agent Stream: stopped").waitFor({ timeout: 30_000 });
    // SIGINT, then SIGTERM after 3 s, SIGKILL 2 s later: all of it fits well within this.
    await waitUntil(`no process of ${pids.join(", ")} runs`, () => !pids.some(isRunning), 15_000);
    await page.screenshot({ path: path.join(RESULTS, "e2e-stop.png") });

    const center = await openNotificationCenter(page);
    assert.deepEqual(await center.locator(".notification-list-item", { hasText: "Source: Agent Stream" }).allInnerTexts(), [], "no notification from Agent Stream");
    await closeNotificationCenter(page);
  });
});
