// A window reload while the CLI streams, in a real VS Code: what the chat had shown is still there after the reload,
// the turn says Stopped (the run ended with the old extension host), and no process of the CLI is left.
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { eventually } from "../helpers/eventually";
import { isRunning } from "./processes";
import { ask, newSession, openChat, RESULTS, runCommand, turnOf, useWorkbenchWithSlowCli } from "./workbench";

describe("a window reload while the CLI streams", function () {
  this.timeout(240_000);
  const { workbench, pids: cliPids, forgetPids } = useWorkbenchWithSlowCli("reload-mid-turn");

  it("keeps what the turn had said, says Stopped, and leaves no process of the CLI", async () => {
    const page = workbench.page;
    const prompt = "Count for me, slowly";
    await newSession(page);
    forgetPids();
    let chat = await ask(page, prompt);
    // The fake CLI ticks every 20 ms: a hundred ticks on screen are two seconds of answer, more than the interval at
    // which a running turn is saved, so a save of it has been made, whenever the reload comes.
    await turnOf(chat, prompt).getByText("tick ".repeat(100).trim(), { exact: false }).waitFor({ timeout: 60_000 });
    const pids = cliPids();
    assert.deepEqual(pids.filter(isRunning), pids, "the CLI and its child run before the reload");

    await runCommand(page, "Developer: Reload Window");
    await page.waitForEvent("load", { timeout: 60_000 });
    await page.waitForSelector(".monaco-workbench", { timeout: 60_000 });
    await eventually(`no process of ${pids.join(", ")} runs`, () => !pids.some(isRunning), 30_000);

    chat = await openChat(page);
    const turn = turnOf(chat, prompt);
    await turn.locator(".turn-footer", { hasText: "Stopped" }).waitFor({ timeout: 30_000 });
    const answer = (await turn.locator(".answer .blocks").innerText()).trim();
    assert.match(answer, /^tick( tick)*$/, `the answer so far is kept, as it was streamed:\n${answer}`);
    await page.screenshot({ path: path.join(RESULTS, "e2e-reload-mid-turn.png") });
  });
});
