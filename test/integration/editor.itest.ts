// Agent Stream in a real VS Code extension host: commands, the status bar item, notifications and their actions,
// settings, replay — against fake CLIs written in Node. The extension's test API (AGENT_STREAM_TEST_API=1) shows
// the status bar item and lets a test answer notifications, which it cannot click from here.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import type { AgentStreamTestApi } from "../../src/extension";
import type { HostMessage, Turn } from "../../src/protocol/messages";
import { eventually } from "../helpers/eventually";
import { assertNoRawControl } from "../helpers/hostile-stream";
import { config, fakeCli, repo, testApi } from "./extension-host";

/** User settings for one test; restored afterwards. */
async function useSettings(values: Record<string, unknown>): Promise<void> {
  for (const [key, value] of Object.entries(values)) await config().update(key, value, vscode.ConfigurationTarget.Global);
}

async function resetSettings(): Promise<void> {
  for (const key of ["cli.path", "cli.args", "cli.env", "cli.profile", "useBuiltinAgent", "context.workspaceFolder", "context.activeFile", "context.selection"]) {
    await config().update(key, undefined, vscode.ConfigurationTarget.Global);
  }
}

/**
 * Resolves with the turn once the run in progress (if any) has ended and the conversation let go of it: the active
 * session's, or the one given (an action such as New Session may make another session active meanwhile).
 */
async function finished(api: AgentStreamTestApi, conversation = api.conversation): Promise<Turn> {
  await conversation.activeRun?.finished;
  await eventually("the run to be let go", () => !conversation.running);
  const turn = conversation.lastTurn;
  assert.ok(turn);
  return turn;
}

function visibleLog(): vscode.TextEditor | undefined {
  return vscode.window.visibleTextEditors.find(({ document }) => document.uri.scheme === "output" && document.uri.path.includes("Agent Stream"));
}

function answerText(turn: Turn): string {
  return turn.blocks.map((b) => (b.kind === "text" ? b.text : "")).join("");
}

describe("in the editor", function () {
  let api: AgentStreamTestApi;
  let workspace: string;

  before(async function () {
    api = await testApi();
    workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? assert.fail("the suite opens a workspace folder");
  });

  afterEach(async function () {
    await api.conversation.stop();
    api.sessions.create();
    await resetSettings();
  });

  describe("Ask about Workspace", function () {
    it("sends the prompt with the workspace folder, the active file and its selection, and shows the answer", async function () {
      await useSettings({ "cli.path": fakeCli("fake-locus.js"), "cli.env": { FAKE_SCENARIO: "answer" } });
      const document = await vscode.workspace.openTextDocument(path.join(workspace, "README.md"));
      const editor = await vscode.window.showTextDocument(document);
      editor.selection = new vscode.Selection(0, 0, 1, 0);
      const firstLine = document.lineAt(0).text;

      await vscode.commands.executeCommand("agentStream.askAboutWorkspace", "What does this say?");
      const turn = await finished(api);

      assert.equal(turn.status, "completed");
      assert.equal(turn.prompt, "What does this say?");
      assert.equal(turn.context?.summary, `workspace ${path.basename(workspace)} · README.md · selection (lines 1–2)`);
      const answer = answerText(turn);
      // The fake CLI echoes the prompt it was given: what the agent really received.
      assert.ok(answer.includes(`- Workspace folder: ${workspace}`), answer);
      assert.ok(answer.includes("- Active file: README.md (markdown)"), answer);
      assert.ok(answer.includes(firstLine), "the selected text reached the agent");
    });

    it("sends only what the context settings allow", async function () {
      await useSettings({
        "cli.path": fakeCli("fake-locus.js"),
        "cli.env": { FAKE_SCENARIO: "answer" },
        "context.workspaceFolder": false,
        "context.selection": false,
      });
      const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(workspace, "README.md")));
      editor.selection = new vscode.Selection(0, 0, 1, 0);
      await vscode.commands.executeCommand("agentStream.askAboutWorkspace", "Only the file, please");
      const turn = await finished(api);
      assert.equal(turn.context?.summary, "README.md");
      assert.ok(!answerText(turn).includes("Workspace folder"), "the workspace folder was not sent");
      assert.ok(!answerText(turn).includes("Selected text"), "the selection was not sent");
    });
  });

  describe("Add Selection to Chat", function () {
    it("attaches the selection with its file and lines to the active session's composer, and the agent receives it with the prompt", async function () {
      await useSettings({ "cli.path": fakeCli("fake-locus.js"), "cli.env": { FAKE_SCENARIO: "answer" } });
      const messages: HostMessage[] = [];
      const view = { post: (message: HostMessage) => messages.push(message) };
      api.conversation.handleIntent(view, { type: "ready" });
      const document = await vscode.workspace.openTextDocument(path.join(workspace, "README.md"));
      const editor = await vscode.window.showTextDocument(document);
      editor.selection = new vscode.Selection(0, 0, 1, 0);

      await vscode.commands.executeCommand("agentStream.addSelectionToChat");
      const offered = messages.find((message): message is Extract<HostMessage, { type: "attach" }> => message.type === "attach");
      assert.deepEqual(offered?.attachment, { kind: "selection", path: "README.md", lines: { start: 1, end: 2 }, text: document.getText(editor.selection), language: "markdown" });

      api.conversation.handleIntent(view, { type: "send", prompt: "Explain the selection", attachments: [offered!.attachment] });
      const turn = await finished(api);
      api.conversation.detach(view);
      assert.equal(turn.context?.summary, "selection README.md:1–2");
      // The fake CLI echoes the prompt it was given: what the agent really received.
      assert.ok(answerText(turn).includes(document.lineAt(0).text), "the selected text reached the agent");
    });
  });

  describe("status bar item", function () {
    it("goes from starting through the running tool to completed with its duration, and opens the chat", async function () {
      await useSettings({ "cli.path": fakeCli("fake-locus.js"), "cli.env": { FAKE_SCENARIO: "answer" } });
      const item = api.statusBarItem;
      const seen: string[] = [item.text];
      const stop = api.conversation.observe({
        turnStarted: () => seen.push(item.text),
        turnChanged: () => seen.at(-1) !== item.text && seen.push(item.text),
      });
      api.conversation.send("hello");
      await finished(api);
      stop();
      assert.deepEqual(seen.slice(0, 5), [
        "$(comment-discussion) Agent Stream",
        "$(loading~spin) Agent Stream: starting",
        "$(loading~spin) Agent Stream: streaming",
        "$(tools) Agent Stream: Read",
        "$(loading~spin) Agent Stream: streaming",
      ]);
      assert.match(item.text, /^\$\(check\) Agent Stream: completed in \d/);
      assert.equal(item.command, "agentStream.openChat");
      assert.equal(item.backgroundColor, undefined);
    });

    it("shows a failure in the error colours, with the error in its tooltip", async function () {
      await useSettings({ "cli.path": fakeCli("fake-failing.js"), "cli.env": { FAKE_ERROR_CODE: "CONTEXT_LIMIT" } });
      const dismiss = api.interceptNotifications(async () => undefined);
      try {
        api.conversation.send("too long");
        await finished(api);
      } finally {
        dismiss.dispose();
      }
      const item = api.statusBarItem;
      assert.equal(item.text, "$(error) Agent Stream: failed");
      assert.ok(item.backgroundColor instanceof vscode.ThemeColor);
      assert.equal((item.backgroundColor as vscode.ThemeColor).id, "statusBarItem.errorBackground");
      assert.match(String(item.tooltip), /CONTEXT_LIMIT.*fake CONTEXT_LIMIT for the test/);
    });

    it("says stopped after Agent Stream: Stop, and the CLI is gone", async function () {
      await useSettings({ "cli.path": fakeCli("fake-locus.js"), "cli.env": { FAKE_SCENARIO: "slow" } });
      const notices: string[] = [];
      const watch = api.interceptNotifications(async ({ message }) => (notices.push(message), undefined));
      try {
        api.conversation.send("tick forever");
        await eventually("text to stream", () => api.conversation.lastTurn?.blocks.some((b) => b.kind === "text"));
        const run = api.conversation.activeRun as unknown as { pid?: number };
        await vscode.commands.executeCommand("agentStream.stop");
        const turn = await finished(api);
        assert.equal(turn.status, "canceled");
        assert.equal(api.statusBarItem.text, "$(debug-stop) Agent Stream: stopped");
        assert.deepEqual(notices, [], "the user's own Stop is not an error");
        assert.ok(run.pid);
        assert.throws(() => process.kill(run.pid!, 0), "the CLI's process is gone");
      } finally {
        watch.dispose();
      }
    });
  });

  describe("notifications", function () {
    /** Runs a failing CLI and answers its notification with `button`; returns what the notification said. */
    async function failAndChoose(code: string, button: string | undefined): Promise<{ message: string; actions: string[]; turn: Turn }> {
      await useSettings({ "cli.path": fakeCli("fake-failing.js"), "cli.env": { FAKE_ERROR_CODE: code } });
      let shown: { message: string; actions: string[] } | undefined;
      const intercept = api.interceptNotifications(async (notice) => {
        shown ??= notice;
        return button;
      });
      try {
        const conversation = api.conversation;
        conversation.send(`trigger ${code}`);
        const turn = await finished(api, conversation);
        await eventually("the notification", () => shown);
        return { ...shown!, turn };
      } finally {
        intercept.dispose();
      }
    }

    it("CLI_NOT_FOUND: Set CLI Path opens the setting", async function () {
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
      assert.notEqual(vscode.window.tabGroups.activeTabGroup.activeTab?.label, "Settings");
      await useSettings({ "cli.path": path.join(os.tmpdir(), "agent-stream-no-such-cli") });
      let shown: { message: string; actions: string[] } | undefined;
      const intercept = api.interceptNotifications(async (notice) => ((shown = notice), "Set CLI Path"));
      try {
        api.conversation.send("anyone?");
        await finished(api);
        await eventually("the notification", () => shown);
        assert.deepEqual(shown?.actions, ["Set CLI Path", "Use Built-in Agent", "Show Log"]);
        assert.match(shown?.message ?? "", /^agent-stream-no-such-cli: The agent CLI could not be found\./);
        await eventually("the Settings editor", () => vscode.window.tabGroups.activeTabGroup.activeTab?.label === "Settings");
      } finally {
        intercept.dispose();
      }
    });

    it("CLI_NOT_FOUND: Use Built-in Agent turns it on and asks again, answered offline", async function () {
      await useSettings({ "cli.path": path.join(os.tmpdir(), "agent-stream-no-such-cli") });
      const intercept = api.interceptNotifications(async () => "Use Built-in Agent");
      try {
        api.conversation.send("what can you do?");
        await finished(api);
        await eventually("the built-in agent to answer", () => api.conversation.lastTurn?.agent === "Built-in agent" && api.conversation.lastTurn.done !== null, 30_000);
      } finally {
        intercept.dispose();
      }
      assert.equal(config().inspect("useBuiltinAgent")?.globalValue, true);
      const turn = await finished(api);
      assert.equal(turn.status, "completed");
      assert.equal(turn.prompt, "what can you do?");
    });

    it("AUTH_EXPIRED: Log In runs the CLI's login in a terminal", async function () {
      const marker = path.join(os.tmpdir(), `agent-stream-login-${process.pid}`);
      fs.rmSync(marker, { force: true });
      await useSettings({ "cli.path": fakeCli("fake-failing.js"), "cli.env": { FAKE_ERROR_CODE: "AUTH_EXPIRED", FAKE_LOGIN_MARKER: marker } });
      let shown: { message: string; actions: string[] } | undefined;
      const intercept = api.interceptNotifications(async (notice) => ((shown = notice), "Log In"));
      try {
        api.conversation.send("who am I?");
        await finished(api);
        await eventually("the notification", () => shown);
      } finally {
        intercept.dispose();
      }
      assert.deepEqual(shown?.actions, ["Log In"]);
      const terminal = await eventually("the login terminal", () => vscode.window.terminals.find((t) => t.name === "Agent Stream: log in"));
      await eventually("the CLI's login to run", () => fs.existsSync(marker), 20_000);
      terminal.dispose();
      fs.rmSync(marker, { force: true });
    });

    it("NETWORK_TIMEOUT: Retry asks the same prompt again", async function () {
      const { actions, turn } = await failAndChoose("NETWORK_TIMEOUT", "Retry");
      assert.deepEqual(actions, ["Retry"]);
      await eventually("the retried turn", () => api.conversation.lastTurn !== turn && api.conversation.lastTurn);
      const retried = await finished(api);
      assert.equal(retried.prompt, turn.prompt);
    });

    for (const code of ["CONTEXT_LIMIT", "SESSION_NOT_FOUND"]) {
      it(`${code}: New Session starts another session, empty, and keeps this one in the list`, async function () {
        const failed = api.sessions.active;
        const { actions } = await failAndChoose(code, "New Session");
        assert.deepEqual(actions, ["New Session"]);
        await eventually("another session, empty", () => api.sessions.active !== failed && api.conversation.lastTurn === undefined);
        assert.ok(api.sessions.list().some((row) => row.id === failed.id && row.status === "failed"));
      });
    }

    for (const code of ["PROCESS_CRASHED", "UNKNOWN"]) {
      it(`${code}: Show Log shows the log`, async function () {
        await vscode.commands.executeCommand("workbench.action.closePanel");
        await eventually("the Output panel to close", () => !visibleLog());
        const { actions } = await failAndChoose(code, "Show Log");
        assert.deepEqual(actions, ["Show Log", "Retry"]);
        await eventually("the Agent Stream log", visibleLog);
      });
    }

    it("MALFORMED_EVENT: one warning for a session's unreadable lines", async function () {
      await useSettings({ "cli.path": fakeCli("fake-locus.js"), "cli.env": { FAKE_SCENARIO: "noisy" } });
      const shown: { severity: string; message: string; actions: string[] }[] = [];
      const intercept = api.interceptNotifications(async (notice) => (shown.push(notice), undefined));
      try {
        api.conversation.send("noise");
        await finished(api);
      } finally {
        intercept.dispose();
      }
      assert.equal(shown.length, 1, "two unreadable lines, one notification");
      assert.equal(shown[0].severity, "warning");
      assert.match(shown[0].message, /could not be read/);
      assert.deepEqual(shown[0].actions, ["Show Log", "Retry"]);
    });
  });

  describe("log", function () {
    it("logs what the stream says with its control characters escaped, each problem on one log line", async function () {
      await useSettings({ "cli.path": fakeCli("hostile-locus.js") });
      const intercept = api.interceptNotifications(async () => undefined);
      try {
        api.conversation.send("anything");
        await finished(api);
      } finally {
        intercept.dispose();
      }
      await vscode.commands.executeCommand("agentStream.showLog");
      // The Output panel shows the channel's file as it is flushed: wait for the last problem to arrive.
      const text = await eventually("the problems in the log", () => {
        const shown = visibleLog()?.document.getText();
        return shown?.includes("line 10: MALFORMED_EVENT") ? shown : undefined;
      });
      assertNoRawControl(text, "the log");
      const hostileLines = text.split("\n").filter((line) => line.includes("evil"));
      assert.deepEqual(
        hostileLines.map((line) => /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \[warning\] line (\d+): /.exec(line)?.[1]),
        ["8", "9"],
        "one [warning] line per problem that quotes the stream; nothing the stream wrote starts a line of its own",
      );
      assert.ok(hostileLines[0].includes("\\u202eevil\\u202c|\\u2028|\\u001b]52;"), hostileLines[0]);
    });
  });

  describe("Replay Stream File…", function () {
    it("shows a recorded stream without running anything", async function () {
      const file = path.join(os.tmpdir(), `agent-stream-replay-${process.pid}.ndjson`);
      const event = (type: string, payload: unknown) => JSON.stringify({ protocol: 1, type, sessionId: "rec", timestamp: 1, payload });
      fs.writeFileSync(file, [event("start", { command: "exec" }), event("text_delta", { content: "recorded words" }), event("done", { exitCode: 0, duration: 7, success: true })].join("\n") + "\n");
      await useSettings({ "cli.path": path.join(os.tmpdir(), "agent-stream-must-not-run") });
      await vscode.commands.executeCommand("agentStream.replayStreamFile", vscode.Uri.file(file));
      const turn = await finished(api);
      assert.deepEqual([turn.origin, turn.prompt, turn.status], ["replay", `Replay of ${path.basename(file)}`, "completed"]);
      assert.equal(answerText(turn), "recorded words");
      fs.rmSync(file);
    });

    it("replays a log of ACP traffic (dialect auto), every turn of it", async function () {
      const file = path.join(repo(), "test", "fixtures", "acp-recorded", "qwen", "0.15.10", "follow-up.ndjson");
      await useSettings({ "cli.path": path.join(os.tmpdir(), "agent-stream-must-not-run"), dialect: "auto" });
      await vscode.commands.executeCommand("agentStream.replayStreamFile", vscode.Uri.file(file));
      const turn = await finished(api);
      assert.deepEqual([turn.origin, turn.status], ["replay", "completed"]);
      assert.deepEqual(
        turn.blocks.flatMap((block) => (block.kind === "text" ? [block.text] : [])),
        ["Hi! I will keep that word in mind.", "You asked me to remember kumquat."],
      );
      await config().update("dialect", undefined, vscode.ConfigurationTarget.Global);
    });
  });

  describe("settings", function () {
    it("ignores a workspace's .vscode/settings.json that points cli.path at its own program or picks a profile", async function () {
      const settingsDir = path.join(workspace, ".vscode");
      const planted = path.join(workspace, "planted.js");
      fs.mkdirSync(settingsDir, { recursive: true });
      fs.writeFileSync(planted, "require('fs').writeFileSync(__filename + '.ran', 'ran')\n");
      // The timeout is an ordinary setting: once VS Code shows it, it has read the file.
      // A pi profile would give the fake Locus CLI rpc arguments and its prompt on stdin: it would not answer.
      const workspaceSettings = { "agentStream.cli.path": planted, "agentStream.cli.args": [], "agentStream.cli.profile": "pi", "agentStream.inactivityTimeoutSeconds": 77 };
      fs.writeFileSync(path.join(settingsDir, "settings.json"), JSON.stringify(workspaceSettings));
      try {
        await eventually("VS Code to read the workspace settings", () => config().inspect("inactivityTimeoutSeconds")?.workspaceValue === 77);
        await useSettings({ "cli.path": fakeCli("fake-locus.js"), "cli.env": { FAKE_SCENARIO: "answer" } });
        api.conversation.send("whose program runs?");
        const turn = await finished(api);
        assert.equal(turn.status, "completed", "the user's CLI answered");
        assert.equal(fs.existsSync(planted + ".ran"), false, "the workspace's program never ran");
      } finally {
        fs.rmSync(settingsDir, { recursive: true, force: true });
        fs.rmSync(planted, { force: true });
        fs.rmSync(planted + ".ran", { force: true });
      }
    });

    it("answers when a workspace sets maxLineSizeMB to \"x\" and an inactivityTimeoutSeconds too long to time", async function () {
      const settingsDir = path.join(workspace, ".vscode");
      fs.mkdirSync(settingsDir, { recursive: true });
      fs.writeFileSync(path.join(settingsDir, "settings.json"), JSON.stringify({ "agentStream.maxLineSizeMB": "x", "agentStream.inactivityTimeoutSeconds": 1e308 }));
      try {
        await eventually("VS Code to read the workspace settings", () => config().inspect("maxLineSizeMB")?.workspaceValue === "x");
        await useSettings({ "cli.path": fakeCli("fake-locus.js"), "cli.env": { FAKE_SCENARIO: "answer" } });
        api.conversation.send("still limited?");
        const turn = await finished(api);
        assert.equal(turn.status, "completed");
        assert.notEqual(turn.done, null);
      } finally {
        fs.rmSync(settingsDir, { recursive: true, force: true });
      }
    });

    it("never runs the workspace's own program for a bare cli.path, neither for a run nor for Log In, whatever PATH holds", async function () {
      const name = "agent-stream-bare-cli";
      const installed = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-installed-"));
      const marker = path.join(installed, "login-marker");
      fs.symlinkSync(fakeCli("fake-failing.js"), path.join(installed, name));
      // The workspace's program of the same name, in the folder itself and in its bin/: it leaves a mark if it runs.
      const planted = [path.join(workspace, name), path.join(workspace, "bin", name)];
      fs.mkdirSync(path.join(workspace, "bin"), { recursive: true });
      for (const file of planted) fs.writeFileSync(file, `#!${process.execPath}\nrequire("fs").writeFileSync(__filename + ".ran", "ran");\n`, { mode: 0o755 });
      const searchPath = ["", ".", "bin", installed, path.dirname(process.execPath)].join(path.delimiter);
      await useSettings({ "cli.path": name, "cli.env": { PATH: searchPath, FAKE_ERROR_CODE: "AUTH_EXPIRED", FAKE_LOGIN_MARKER: marker } });
      let shown: { actions: string[] } | undefined;
      const intercept = api.interceptNotifications(async (notice) => ((shown = notice), "Log In"));
      try {
        api.conversation.send("who runs?");
        await finished(api);
        await eventually("the notification", () => shown);
        assert.deepEqual(shown?.actions, ["Log In"], "the installed CLI answered (AUTH_EXPIRED)");
        const terminal = await eventually("the login terminal", () => vscode.window.terminals.find((t) => t.name === "Agent Stream: log in"));
        await eventually("the installed CLI's login to run", () => fs.existsSync(marker), 20_000);
        terminal.dispose();
        assert.deepEqual(planted.filter((file) => fs.existsSync(file + ".ran")), [], "a program of the workspace ran");
      } finally {
        intercept.dispose();
        for (const file of planted) fs.rmSync(file + ".ran", { force: true });
        fs.rmSync(path.join(workspace, name), { force: true });
        fs.rmSync(path.join(workspace, "bin"), { recursive: true, force: true });
        fs.rmSync(installed, { recursive: true, force: true });
      }
    });
  });
});
