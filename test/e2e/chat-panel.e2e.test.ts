// The chat panel in a real VS Code (code-server), driven as a user drives it: palette, composer, editor, status bar.
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { fakeCli, repoRoot } from "../helpers/repo";
import { ask, chatFrame, IDLE_STATUS, newSession, quickOpen, RESULTS, runCommand, statusItem, turnOf, useWorkbench } from "./workbench";

describe("chat panel in a real VS Code", function () {
  this.timeout(240_000);
  // Seen once in a fresh-clone CI run: the first answer never appeared (not reproduced since). One retry keeps
  // CI honest about real failures; the failed attempt's screenshot stays in test-results/ for diagnosis.
  this.retries(1);
  const workbench = useWorkbench({ "agentStream.cli.path": fakeCli("fake-locus.js"), "agentStream.cli.env": { FAKE_SCENARIO: "answer" } });

  it("opens from the command palette and streams an answer with its tool card", async () => {
    const chat = await ask(workbench.page, "What is in this workspace?");
    await chat.getByText("You asked: What is in this workspace?").waitFor({ timeout: 60_000 });
    await chat.getByText("Completed").first().waitFor({ timeout: 30_000 });
    assert.equal(await chat.getByText("README.md").first().isVisible(), true, "the Read tool card names its file");
    await workbench.page.screenshot({ path: path.join(RESULTS, "e2e-chat-panel.png") });
  });

  it("asks about the workspace from F1 with the open file and its selection, and says so in the status bar", async () => {
    const page = workbench.page;
    const prompt = "What does this heading say?";
    await newSession(page);
    await quickOpen(page, "README.md");
    await page.locator(".part.editor .monaco-editor .view-lines").first().click();
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("Shift+End");
    await page.locator(".statusbar .statusbar-item", { hasText: "(18 selected)" }).waitFor();

    await runCommand(page, "Agent Stream: Ask about Workspace");
    // With text selected, the question is about the selection: the input box says so.
    const inputBox = page.locator(".quick-input-widget", { hasText: "Agent Stream: Ask about the Selection" });
    const context = `workspace ${path.basename(workbench.workspace)} · README.md · selection (line 1)`;
    await inputBox.getByText(`Sent with ${context}.`).waitFor();
    await inputBox.locator("input").fill(prompt);
    // Watched from before Enter: "completed" shows for 5 s only, then the item says idle again.
    const completedInStatusBar = statusItem(page, /Agent Stream: completed in \d/).waitFor({ timeout: 60_000 });
    completedInStatusBar.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
    await page.keyboard.press("Enter");

    const turn = turnOf(chatFrame(page), prompt);
    await turn.getByText(`You asked: ${prompt}`).waitFor({ timeout: 60_000 });
    await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 30_000 });
    await completedInStatusBar;
    assert.equal(await turn.locator(".prompt-context").innerText(), `With ${context}`);
    // The CLI echoes the prompt it was given: the editor context reached it, selection included.
    assert.equal(await turn.getByText("Active file: README.md (markdown)").isVisible(), true, "the CLI got the active file");
    assert.equal(await turn.locator("pre", { hasText: "# Sample workspace" }).isVisible(), true, "the CLI got the selected text");
    assert.equal(await turn.locator(".tool-card", { hasText: "Read" }).isVisible(), true, "the Read tool card is shown");
    await page.screenshot({ path: path.join(RESULTS, "e2e-ask-about-workspace.png") });

    // Another view takes the side bar; the status bar item brings the chat back.
    await runCommand(page, "View: Show Explorer");
    await turn.waitFor({ state: "hidden" });
    await statusItem(page, /Agent Stream/).click();
    await turnOf(chatFrame(page), prompt).getByText(`You asked: ${prompt}`).waitFor();
    // "completed" is news for 5 s, then the item is back to idle.
    await statusItem(page, IDLE_STATUS).waitFor({ timeout: 10_000 });
  });
});

describe("built-in agent in a real VS Code", function () {
  this.timeout(240_000);
  this.retries(1);
  const workbench = useWorkbench({ "agentStream.useBuiltinAgent": true }, path.join(repoRoot, "examples", "sample-workspace"));

  it("summarises the workspace with real tool calls, no CLI and no API key", async () => {
    const chat = await ask(workbench.page, "summarise this workspace");
    await chat.getByText("Languages by file count").waitFor({ timeout: 60_000 });
    await chat.getByText("Completed").first().waitFor({ timeout: 60_000 });
    assert.equal(await chat.getByText("ListFiles").first().isVisible(), true, "the ListFiles tool card is shown");
    assert.equal(await chat.getByText("A small project to try Agent Stream on", { exact: false }).first().isVisible(), true, "the README's first paragraph is quoted");
    await workbench.page.screenshot({ path: path.join(RESULTS, "e2e-builtin-agent.png") });
  });
});
