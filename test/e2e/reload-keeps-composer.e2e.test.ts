// A window reload in a real VS Code keeps what the user had typed and not yet had answered: a message queued while the
// CLI streamed is still queued after the reload, held (the turn it waited for ended with the old extension host) until
// the user says Send queued, which sends it as the next turn; the half-typed draft is back in the message box.
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { eventually } from "../helpers/eventually";
import { isRunning } from "./processes";
import { ask, newSession, openChat, RESULTS, runCommand, turnOf, useWorkbenchWithSlowCli } from "./workbench";

describe("a window reload with a queued message and a draft", function () {
  this.timeout(240_000);
  const { workbench, pids: cliPids, forgetPids } = useWorkbenchWithSlowCli("reload-keeps-composer");

  it("keeps the queued message, held until Send queued sends it as the next turn, and the draft in the message box", async () => {
    const page = workbench.page;
    const prompt = "Count for me, slowly";
    const queued = "Then count backwards";
    const draft = "A half-typed thought";
    await newSession(page);
    forgetPids();
    let chat = await ask(page, prompt);
    await turnOf(chat, prompt).getByText("tick tick", { exact: false }).waitFor({ timeout: 60_000 });
    const composer = chat.locator("textarea").first();
    await composer.fill(queued);
    await composer.press("Enter");
    const waiting = chat.getByRole("list", { name: "Queued messages" }).getByRole("listitem");
    await waiting.first().waitFor({ timeout: 30_000 });
    await composer.pressSequentially(draft);
    const pids = cliPids();

    await runCommand(page, "Developer: Reload Window");
    await page.waitForEvent("load", { timeout: 60_000 });
    await page.waitForSelector(".monaco-workbench", { timeout: 60_000 });
    await eventually(`no process of ${pids.join(", ")} runs`, () => !pids.some(isRunning), 30_000);

    chat = await openChat(page);
    await turnOf(chat, prompt).locator(".turn-footer", { hasText: "Stopped" }).waitFor({ timeout: 30_000 });
    const again = chat.locator("textarea").first();
    await eventually("the draft back in the message box", async () => (await again.inputValue()) === draft, 30_000);
    const restored = chat.getByRole("list", { name: "Queued messages" }).getByRole("listitem");
    await restored.first().waitFor({ timeout: 30_000 });
    assert.deepEqual(await restored.locator(".queued-text").allInnerTexts(), [queued]);
    const held = chat.locator(".queue-held");
    await held.waitFor({ timeout: 30_000 });
    assert.equal(await turnOf(chat, queued).count(), 0, "the queued message did not go by itself");
    await page.screenshot({ path: path.join(RESULTS, "e2e-reload-queue-held.png") });

    await held.getByRole("button", { name: "Send queued messages" }).click();
    const next = turnOf(chat, queued);
    await next.getByText("tick tick", { exact: false }).waitFor({ timeout: 60_000 });
    await restored.first().waitFor({ state: "detached", timeout: 30_000 });
    await chat.getByRole("button", { name: "Stop" }).click();
    await next.locator(".turn-footer", { hasText: "Stopped" }).waitFor({ timeout: 60_000 });
  });
});
