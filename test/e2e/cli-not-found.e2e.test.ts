// A CLI path that points at nothing, in a real VS Code: the notification says so and its button leads to the setting.
import * as assert from "node:assert/strict";
import * as os from "node:os";
import * as path from "node:path";
import { ask, newSession, openNotificationCenter, RESULTS, runCommand, statusItem, turnOf, useWorkbench } from "./workbench";

describe("a CLI that cannot be found, in a real VS Code", function () {
  this.timeout(240_000);
  this.retries(1);
  const missingCli = path.join(os.tmpdir(), "agent-stream-e2e-no-such-folder", "locus");
  const workbench = useWorkbench({ "agentStream.cli.path": missingCli });

  it("notifies CLI_NOT_FOUND with its actions, and Set CLI Path opens the setting", async () => {
    const page = workbench.page;
    // A failed attempt may have left the Settings editor open: it must be this click that opens it.
    await runCommand(page, "View: Close All Editors");
    await newSession(page);
    const chat = await ask(page, "Are you there?");

    const failed = statusItem(page, "Agent Stream: failed");
    await failed.waitFor({ timeout: 60_000 });
    assert.match((await failed.getAttribute("class")) ?? "", /\berror-kind\b/, "painted in the error colours");
    await turnOf(chat, "Are you there?").locator(".turn-footer", { hasText: "Failed" }).waitFor();
    await page.locator("#status\\.notifications .codicon-bell-dot").waitFor();
    const center = await openNotificationCenter(page);
    const notification = center.locator(".notification-list-item", { hasText: "The agent CLI could not be found" }).first();
    await notification.waitFor();
    // The agent by its display name, as the chat's header names it, not by the file's name.
    assert.match(await notification.locator(".notification-list-item-message").innerText(), /^Locus: The agent CLI could not be found\. Could not start '.*locus'/);
    assert.equal(await notification.locator(".notification-list-item-source").innerText(), "Source: Agent Stream");
    assert.deepEqual(await notification.locator(".notification-list-item-buttons-container .monaco-button").allInnerTexts(), [
      "Set CLI Path",
      "Use Built-in Agent",
      "Show Log",
    ]);
    await page.screenshot({ path: path.join(RESULTS, "e2e-cli-not-found.png") });

    await notification.getByRole("button", { name: "Set CLI Path" }).click();
    const settings = page.locator(".settings-editor");
    await settings.waitFor();
    assert.equal(await settings.locator(".settings-header .suggest-input-container .view-lines").innerText(), "agentStream.cli.path");
    // The setting is machine-scoped, and this window is remote (code-server): VS Code lists it under the Remote
    // tab only, so that is the tab the action opens, with the setting in view.
    await settings.locator(".setting-item-title", { hasText: "Agent Stream › Cli: Path" }).waitFor();
    assert.match(await settings.locator(".settings-tabs-widget .checked").innerText(), /Remote/);
  });
});
