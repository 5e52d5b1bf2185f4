// An ACP agent in the chat of a real VS Code: its edit waits on a permission card, the user's answer reaches the
// agent, an allowed write goes through the editor (a WorkspaceEdit, saved), a rejected one never happens, Stop
// answers a waiting card cancelled, and Open Diff shows the change. The agent is the project's fake ACP agent,
// built with the SDK's agent side; the test API stands in for the clicks on the card. (The file's name sorts it
// after activation.itest.ts, which needs an extension nobody has activated yet.)
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { AgentStreamTestApi } from "../../src/extension";
import type { ConversationView } from "../../src/panel/conversation";
import type { Turn } from "../../src/protocol/messages";
import type { PermissionBlock } from "../../src/protocol/transcript";
import { eventually } from "../helpers/eventually";

const EXTENSION_ID = "agent-stream.agent-stream";
const config = () => vscode.workspace.getConfiguration("agentStream");
/** The intents' sender: the card's clicks need no view to answer them. */
const view: ConversationView = { post: () => undefined };

function fakeAgent(): string {
  const root = process.env["AGENT_STREAM_REPO"];
  assert.ok(root, "the runner passes AGENT_STREAM_REPO");
  return path.join(root, "test", "fake-clis", "fake-acp-agent.mjs");
}

async function useAgent(scenario: string, env: Record<string, string>): Promise<void> {
  // The extension host's own Node runs the fake agent: an absolute path, as the PATH rule wants.
  await config().update("cli.path", process.execPath, vscode.ConfigurationTarget.Global);
  await config().update("cli.args", [fakeAgent(), scenario], vscode.ConfigurationTarget.Global);
  await config().update("cli.profile", "acp", vscode.ConfigurationTarget.Global);
  await config().update("cli.env", env, vscode.ConfigurationTarget.Global);
}

async function waitingCard(turn: () => Turn | undefined): Promise<{ turn: Turn; index: number; card: PermissionBlock }> {
  return eventually("a permission card", () => {
    const current = turn();
    const index = current?.blocks.findIndex((b) => b.kind === "permission" && b.decision === null) ?? -1;
    const card = current?.blocks[index];
    return current !== undefined && card?.kind === "permission" ? { turn: current, index, card } : undefined;
  });
}

describe("an ACP agent in the chat", function () {
  let api: AgentStreamTestApi;
  let workspace: string;
  let notes: string;
  let record: string;

  before(async function () {
    const extension = vscode.extensions.getExtension<AgentStreamTestApi | undefined>(EXTENSION_ID);
    api = (await extension?.activate()) ?? assert.fail("the test API is on");
    workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? assert.fail("the suite opens a workspace folder");
  });

  beforeEach(async function () {
    notes = path.join(workspace, "acp-notes.txt");
    record = path.join(workspace, "..", `acp-record-${process.pid}-${Date.now()}.ndjson`);
    fs.writeFileSync(notes, "old line\n");
    await useAgent("permission-edit", { FAKE_ACP_EDIT: notes, FAKE_ACP_RECORD: record });
  });

  afterEach(async function () {
    await api.conversation.stop();
    api.sessions.create();
    for (const key of ["cli.path", "cli.args", "cli.profile", "cli.env", "acp.autoApprove"]) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    fs.rmSync(notes, { force: true });
    fs.rmSync(record, { force: true });
  });

  /** Our notifications while the intercept lasts, each waiting until `click` answers it with a button's caption. */
  function interceptPermissionNotices() {
    const asked: { message: string; actions: string[] }[] = [];
    let answer: (caption: string | undefined) => void = () => undefined;
    const intercept = api.interceptNotifications((notice) => {
      if (!notice.message.startsWith("Agent Stream: ")) return Promise.resolve(undefined);
      asked.push(notice);
      return new Promise((resolve) => (answer = resolve));
    });
    return { asked, click: (caption: string | undefined) => answer(caption), intercept };
  }

  it("shows the edit's card with its diff, and writes the file through the editor once allowed", async function () {
    assert.ok(api.conversation.send("Edit the notes"));
    const { turn, index, card } = await waitingCard(() => api.conversation.lastTurn);
    assert.deepEqual(card.options.map((o) => o.kind), ["allow_always", "allow_once", "reject_once"]);
    const tool = turn.blocks.find((b) => b.kind === "tool");
    assert.ok(tool?.kind === "tool" && tool.diffs.length === 1, "the tool card carries the diff before the answer");
    assert.equal(fs.readFileSync(notes, "utf8"), "old line\n", "nothing is written before the answer");

    api.conversation.handleIntent(view, { type: "answerPermission", turnId: turn.id, requestId: card.requestId, optionId: "proceed_once" });
    await api.conversation.activeRun?.finished;
    const done = api.conversation.lastTurn;
    assert.equal(done?.status, "completed");
    const answered = done?.blocks[index];
    assert.ok(answered?.kind === "permission");
    assert.equal(answered.decision, "allowed");
    assert.equal(answered.answeredBy, "user");
    assert.equal(fs.readFileSync(notes, "utf8"), "new line\nadded line\n");
    const document = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === notes);
    assert.ok(document && !document.isDirty, "the edit went through the editor and was saved");
    assert.match(fs.readFileSync(record, "utf8"), /"optionId":"proceed_once"/);
  });

  it("leaves the file as it was when the card is rejected", async function () {
    assert.ok(api.conversation.send("Edit the notes"));
    const { turn, index, card } = await waitingCard(() => api.conversation.lastTurn);
    api.conversation.handleIntent(view, { type: "answerPermission", turnId: turn.id, requestId: card.requestId, optionId: "cancel" });
    await api.conversation.activeRun?.finished;
    assert.equal(fs.readFileSync(notes, "utf8"), "old line\n");
    const answered = api.conversation.lastTurn?.blocks[index];
    assert.ok(answered?.kind === "permission" && answered.decision === "rejected");
  });

  it("answers a card still waiting at Stop cancelled, and the turn ends stopped", async function () {
    assert.ok(api.conversation.send("Edit the notes"));
    await waitingCard(() => api.conversation.lastTurn);
    await api.conversation.stop();
    const turn = api.conversation.lastTurn;
    assert.equal(turn?.status, "canceled");
    assert.ok(turn?.blocks.some((b) => b.kind === "permission" && b.decision === "cancelled"));
    assert.equal(fs.readFileSync(notes, "utf8"), "old line\n");
    assert.match(fs.readFileSync(record, "utf8"), /"outcome":"cancelled"/);
  });

  it("opens the card's diff in VS Code's diff editor", async function () {
    assert.ok(api.conversation.send("Edit the notes"));
    const { turn } = await waitingCard(() => api.conversation.lastTurn);
    const toolIndex = turn.blocks.findIndex((b) => b.kind === "tool");
    api.conversation.handleIntent(view, { type: "openDiff", turnId: turn.id, blockIndex: toolIndex, diffIndex: 0 });
    const tab = await eventually("a diff editor tab", () =>
      vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === "agent-stream-diff"),
    );
    const input = tab.input as vscode.TabInputTextDiff;
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), "old line\n");
    assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), "new line\nadded line\n");
  });

  it("creates each new file an agent writes, saved on disk by the time the write is answered", async function () {
    // A file the agent creates raced VS Code's own handling of the new file: the save of the edit failed now and then
    // (the agent was told the write failed) while the text reached the disk later. Several files give the race chances.
    const names = Array.from({ length: 8 }, (_, i) => `acp-new-${process.pid}-${i}.txt`);
    const files = names.map((name) => path.join(workspace, name));
    try {
      await useAgent("fs", { FAKE_ACP_WRITE: files.join(","), FAKE_ACP_RECORD: record });
      assert.ok(api.conversation.send("Write the new files"));
      await api.conversation.activeRun?.finished;
      const turn = api.conversation.lastTurn;
      assert.equal(turn?.status, "completed");
      const answer = turn.blocks.flatMap((b) => (b.kind === "text" ? [b.text] : [])).join("");
      assert.equal(answer, files.map((file) => `wrote ${file}\n`).join(""), "every write succeeded, as the agent was told");
      for (const file of files) assert.equal(fs.readFileSync(file, "utf8"), "written by the agent\n");
    } finally {
      for (const file of files) fs.rmSync(file, { force: true });
    }
  });

  it("offers a waiting request as a notification with the agent's options when no chat is on screen, says so in the status bar, and Allow once writes the file", async function () {
    await vscode.commands.executeCommand("workbench.action.closeSidebar");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    const { asked, click, intercept } = interceptPermissionNotices();
    try {
      assert.ok(api.conversation.send("Edit the notes"));
      const { index, card } = await waitingCard(() => api.conversation.lastTurn);
      const notice = await eventually("the permission notification", () => asked[0]);
      assert.equal(notice.message, `Agent Stream: ${card.title}`);
      // A one-time answer first (the primary button), whatever order the agent gave: never "always" on a quick Enter.
      assert.deepEqual(notice.actions, ["Allow once", "Reject", "Always allow"]);
      assert.equal(api.statusBarItem.text, "$(shield) Agent Stream: waiting for your approval");
      assert.equal((api.statusBarItem.backgroundColor as vscode.ThemeColor | undefined)?.id, "statusBarItem.warningBackground");
      assert.match(String(api.statusBarItem.tooltip), new RegExp(card.title));
      assert.equal(fs.readFileSync(notes, "utf8"), "old line\n", "nothing is written before the answer");

      click("Allow once");
      await api.conversation.activeRun?.finished;
      const answered = api.conversation.lastTurn?.blocks[index];
      assert.ok(answered?.kind === "permission");
      assert.equal(answered.optionId, "proceed_once");
      assert.equal(answered.answeredBy, "user");
      assert.equal(fs.readFileSync(notes, "utf8"), "new line\nadded line\n");
      assert.notEqual(api.statusBarItem.text, "$(shield) Agent Stream: waiting for your approval");
      assert.equal(asked.length, 1, "one notification per request");
    } finally {
      intercept.dispose();
    }
  });

  it("offers a request that waited on screen as a notification once the chat is hidden", async function () {
    await vscode.commands.executeCommand("agentStream.openChat");
    const { asked, click, intercept } = interceptPermissionNotices();
    try {
      assert.ok(api.conversation.send("Edit the notes"));
      const { card } = await waitingCard(() => api.conversation.lastTurn);
      await eventually("the status bar to say a request waits", () => api.statusBarItem.text.includes("waiting for your approval") || undefined);
      assert.deepEqual(asked, [], "the card is on screen: no notification");

      await vscode.commands.executeCommand("workbench.action.closeSidebar");
      const { message } = await eventually("the permission notification", () => asked[0]);
      assert.equal(message, `Agent Stream: ${card.title}`);
      click("Allow once");
      await api.conversation.activeRun?.finished;
      assert.equal(fs.readFileSync(notes, "utf8"), "new line\nadded line\n");
      assert.equal(asked.length, 1, "one notification per request");
    } finally {
      intercept.dispose();
    }
  });

  it("warns in the notification of a request outside the workspace, naming the file, and the agent's words make no link in it", async function () {
    // The file's name is the agent's to choose: here it is written as a notification link to a VS Code command.
    const outside = "../[Review the change](command:workbench.action.reloadWindow).txt";
    await useAgent("permission-edit", { FAKE_ACP_EDIT: outside, FAKE_ACP_RECORD: record });
    await vscode.commands.executeCommand("workbench.action.closeSidebar");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    const { asked, click, intercept } = interceptPermissionNotices();
    try {
      assert.ok(api.conversation.send("Edit the notes"));
      const { card } = await waitingCard(() => api.conversation.lastTurn);
      assert.deepEqual(card.outsideWorkspace, [outside]);
      const { message } = await eventually("the permission notification", () => asked[0]);
      const shown = "../[Review the change] (command:workbench.action.reloadWindow).txt";
      assert.equal(message, `Agent Stream: Edit ${shown} — outside your workspace: ${shown}`);
      click("Reject");
      await api.conversation.activeRun?.finished;
      assert.match(fs.readFileSync(record, "utf8"), /"optionId":"cancel"/);
      assert.equal(fs.existsSync(path.join(workspace, outside)), false);
    } finally {
      intercept.dispose();
    }
  });

  it("lets agentStream.acp.autoApprove allow edits: no card waits, no notification, the file is written, and the card says the setting answered", async function () {
    await config().update("acp.autoApprove", { edit: "allow" }, vscode.ConfigurationTarget.Global);
    const asked: string[] = [];
    const intercept = api.interceptNotifications(async ({ message }) => (asked.push(message), undefined));
    try {
      assert.ok(api.conversation.send("Edit the notes"));
      await api.conversation.activeRun?.finished;
      const turn = api.conversation.lastTurn;
      assert.equal(turn?.status, "completed");
      const card = turn?.blocks.find((b) => b.kind === "permission");
      assert.ok(card?.kind === "permission");
      assert.equal(card.decision, "allowed");
      assert.equal(card.optionId, "proceed_once", "a setting never answers always");
      assert.equal(card.answeredBy, "setting");
      assert.equal(fs.readFileSync(notes, "utf8"), "new line\nadded line\n");
      assert.deepEqual(asked.filter((m) => m.startsWith("Agent Stream: Edit")), []);
    } finally {
      intercept.dispose();
    }
  });
});
