// The composer in a real VS Code (code-server), driven as a user drives it: @ picks a workspace file that the real
// host walked and matched, the agent receives it with the prompt, a path in the answer opens that file at its line, ↑
// brings the prompt back, and Escape stops a running turn. The agent is the fake Locus CLI (it echoes the prompt it
// got, so the test sees what reached it); the mechanisms under test are the extension's own. An answer's aligned table
// renders aligned with no Content Security Policy error in the webview's console.
import * as assert from "node:assert/strict";
import * as path from "node:path";
import type { ConsoleMessage } from "playwright-core";
import { eventually } from "../helpers/eventually";
import { fakeCli, repoRoot } from "../helpers/repo";
import { chatFrame, mentionFile, openChat, RESULTS, statusItem, turnOf, useWorkbench, useWorkbenchWithSlowCli } from "./workbench";

describe("composer in a real VS Code", function () {
  this.timeout(240_000);
  this.retries(1);
  const workbench = useWorkbench(
    { "agentStream.cli.path": fakeCli("fake-locus.js"), "agentStream.cli.env": { FAKE_SCENARIO: "answer" } },
    path.join(repoRoot, "examples", "sample-workspace"),
  );

  it("attaches a file picked with @, and a path in the answer opens that file at its line; ↑ brings the prompt back", async () => {
    const page = workbench.page;
    const chat = await openChat(page);
    const composer = await mentionFile(chat, "Explain @readm", "README.md");
    assert.equal(await composer.inputValue(), "Explain ");
    await composer.pressSequentially("README.md:3 please");
    await composer.press("Enter");

    const prompt = "Explain README.md:3 please";
    const turn = turnOf(chat, prompt);
    await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 60_000 });
    assert.equal(await turn.locator(".prompt-context").innerText(), "With README.md");
    // The fake CLI echoes what it received: the attachment reached the agent with the prompt.
    assert.equal(await turn.locator(".answer-text li", { hasText: "@README.md" }).isVisible(), true, "the agent was told of the attached file");

    const link = turn.locator(".answer-text .path-link", { hasText: "README.md:3" });
    await link.waitFor({ timeout: 30_000 });
    await page.screenshot({ path: path.join(RESULTS, "e2e-composer-path-link.png") });
    await link.click();
    await page.locator(".tabs-container .tab.active", { hasText: "README.md" }).waitFor({ timeout: 30_000 });
    await page.locator(".statusbar .statusbar-item", { hasText: /Ln 3, Col 1/ }).waitFor({ timeout: 30_000 });

    const again = chatFrame(page).locator("textarea").first();
    await again.click();
    await again.press("ArrowUp");
    assert.equal(await again.inputValue(), prompt);
    await again.fill("");
  });

  it("renders an answer's aligned table with its columns aligned, and the webview logs no Content Security Policy error", async () => {
    const page = workbench.page;
    const chat = await openChat(page);
    const console: string[] = [];
    const listen = (message: ConsoleMessage) => console.push(message.text());
    page.on("console", listen);
    try {
      // The fake CLI answers with the prompt: an answer holding this table.
      const prompt = ["Count the fruit:", "", "| Fruit | Count |", "| :--- | ---: |", "| apples | 3 |", "| pears | 12 |"].join("\n");
      const composer = chat.locator("textarea").first();
      await composer.fill(prompt);
      await composer.press("Enter");
      const turn = chat.locator("article.turn").last();
      await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 60_000 });
      const count = turn.locator(".answer-text table td", { hasText: "12" });
      assert.equal(await count.evaluate((cell) => cell.ownerDocument.defaultView?.getComputedStyle(cell).textAlign), "right");
      assert.equal(await turn.locator(".answer-text table [style]").count(), 0, "no inline style");
      await page.screenshot({ path: path.join(RESULTS, "e2e-composer-table.png") });
      assert.deepEqual(console.filter((text) => text.includes("Content Security Policy")), []);

      // The same collector does see a violation in the webview: an inline style set on purpose.
      await chat.locator("body").evaluate((body) => {
        const mark = body.ownerDocument.createElement("i");
        mark.setAttribute("style", "color: red");
        body.append(mark);
      });
      await eventually("the webview's deliberate CSP violation in the console", () => console.some((text) => text.includes("Content Security Policy")), 30_000);
    } finally {
      page.off("console", listen);
    }
  });
});

describe("Escape in a real VS Code", function () {
  this.timeout(240_000);
  this.retries(1);
  const { workbench } = useWorkbenchWithSlowCli("escape");

  it("stops the running turn with Escape in the composer", async () => {
    const page = workbench.page;
    const chat = await openChat(page);
    const composer = chat.locator("textarea").first();
    await composer.fill("keep going");
    await composer.press("Enter");
    const turn = turnOf(chat, "keep going");
    await turn.getByText("tick tick").waitFor({ timeout: 60_000 });
    await composer.press("Escape");
    await turn.locator(".turn-footer", { hasText: "Stopped" }).waitFor({ timeout: 60_000 });
    await statusItem(page, /Agent Stream: stopped/).waitFor({ timeout: 30_000 });
  });
});
