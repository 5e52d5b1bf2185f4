// Stop in a real VS Code while the CLI streams: the turn says Stopped, nothing is reported as an error, and the
// CLI's whole process tree is gone.
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { eventually } from "../helpers/eventually";
import {
  ask,
  closeNotificationCenter,
  newSession,
  openNotificationCenter,
  RESULTS,
  statusItem,
  turnOf,
  useWorkbenchWithSlowCli,
} from "./workbench";
import { isRunning } from "./processes";

describe("Stop in a real VS Code", function () {
  this.timeout(240_000);
  this.retries(1);
  const { workbench, pids: cliPids, forgetPids } = useWorkbenchWithSlowCli("stop");

  it("stops a streaming CLI and its child, says Stopped, and reports no error", async () => {
    const page = workbench.page;
    const prompt = "Count for me, slowly";
    await newSession(page);
    forgetPids();
    const chat = await ask(page, prompt);
    const turn = turnOf(chat, prompt);
    await turn.getByText("tick tick tick", { exact: false }).waitFor({ timeout: 60_000 });
    await statusItem(page, "Agent Stream: streaming").waitFor();
    const pids = cliPids();
    assert.equal(pids.length, 2, `the CLI and its child: ${pids.join(", ")}`);
    assert.deepEqual(pids.filter(isRunning), pids, "both run before Stop");

    await chat.getByRole("button", { name: "Stop" }).click();
    await turn.locator(".turn-footer", { hasText: "Stopped" }).waitFor({ timeout: 30_000 });
    await statusItem(page, "Agent Stream: stopped").waitFor({ timeout: 30_000 });
    // SIGINT, then SIGTERM after 3 s, SIGKILL 2 s later: all of it fits well within this.
    await eventually(`no process of ${pids.join(", ")} runs`, () => !pids.some(isRunning), 15_000);
    await page.screenshot({ path: path.join(RESULTS, "e2e-stop.png") });

    const center = await openNotificationCenter(page);
    assert.deepEqual(await center.locator(".notification-list-item", { hasText: "Source: Agent Stream" }).allInnerTexts(), [], "no notification from Agent Stream");
    await closeNotificationCenter(page);
  });
});
