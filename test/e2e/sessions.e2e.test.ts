// Sessions in a real VS Code (code-server), with the real, published Claude Code and Qwen Code (over ACP) against our
// scripted mock models on 127.0.0.1, driven as a user drives them: two sessions of two agents running at once in two
// editor tabs, one waiting for an approval while the other completes; New Session keeping the first; a window reload
// and the first session reopened from the list and continued; a session Claude Code ran outside the extension listed,
// opened and continued; Delete asking first and stopping a running session's agent; and pictures of the Sessions view
// with sessions in every state, in a dark and a light theme. Claude's follow-ups continue its own conversation
// (`--resume`): the mock model is sent the first turn.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type { FrameLocator, Page } from "playwright-core";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { anthropicError, anthropicStream } from "../../scripts/recording/anthropic-replies";
import { MockModelServer, type MockReply } from "../../scripts/recording/mock-model-server";
import { eventually } from "../helpers/eventually";
import { isRunning, markedCliEnvironment, runningWithEnvironment, RUN_MARKER_VARIABLE } from "./processes";
import { DONE_CHUNKS, QWEN, WRITE_PROMPT, WRITTEN_FILE, WRITTEN_TEXT } from "./real-acp-agents";
import { CLAUDE, FIRST_PROMPT, FOLLOW_UP_ANSWER, FOLLOW_UP_PROMPT } from "./real-clis";
import {
  chatOfSession,
  clickRowAction,
  codeServerHome,
  command,
  containerBadge,
  foldAndUnfoldSessions,
  modalDialog,
  newEmptySession,
  rowInState,
  sessionRow,
  sessionsPane,
  showSessions,
  UNTITLED,
  useColorTheme,
  widenSidebar,
} from "./sessions-workbench";
import { RESULTS, turnOf, useWorkbench } from "./workbench";

const FIRST_ANSWER_CHUNKS = ["Hi! I will ", "keep that word in mind."];
const FIRST_ANSWER = FIRST_ANSWER_CHUNKS.join("");
const QWEN_FOLLOW_UP = "Which file did I ask you to create?";
const QWEN_FOLLOW_UP_CHUNKS = ["You asked me ", "to create todo.md."];
const OUTSIDE_PROMPT = "Remember the word quince, from a terminal.";
const OUTSIDE_ANSWER_CHUNKS = ["Noted: ", "quince."];
const OUTSIDE_FOLLOW_UP = "Which fruit did I name in the terminal?";
const OUTSIDE_FOLLOW_UP_CHUNKS = ["You named ", "quince."];

/** A reply held back until `gate` opens: its session runs, on screen, for as long as the test needs. */
function held(reply: MockReply, gate: Promise<void>): MockReply {
  return async (request, response) => {
    await gate;
    return reply(request, response);
  };
}

/** A gate and the hand that opens it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const claudeAnswer = (chunks: readonly string[]) => anthropicStream({ blocks: [{ type: "text", chunks }], stopReason: "end_turn" });

describe(`sessions in a real VS Code: ${CLAUDE.title} ${CLAUDE.version} and ${QWEN.title} ${QWEN.version} side by side, resumed, deleted`, function () {
  this.timeout(600_000);
  const marker = `sessions-${process.pid}`;
  const markerEntry = `${RUN_MARKER_VARIABLE}=${marker}`;
  let claudeMock: MockModelServer;
  let qwenMock: MockModelServer;
  let claude: string;
  let bin: string;
  let settings: Record<string, unknown> = {};
  /** What each mock model was sent, in order. */
  const claudeBodies: unknown[] = [];
  const qwenBodies: unknown[] = [];
  const keptBy =
    (bodies: unknown[]) =>
    (reply: MockReply): MockReply =>
    (request, response) => {
      bodies.push(request.body);
      return reply(request, response);
    };
  const keepClaude = keptBy(claudeBodies);
  const keepQwen = keptBy(qwenBodies);

  before(async function () {
    this.timeout(900_000); // first installs from npm
    claude = ensureInstalled(CLAUDE.agent, CLAUDE.version);
    const qwen = ensureInstalled(QWEN.agent, QWEN.version);
    claudeMock = await MockModelServer.start();
    qwenMock = await MockModelServer.start();
    // Qwen Code is found on the PATH the CLI's environment gives, as New Session with Agent… finds it on a user's.
    bin = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-e2e-sessions-bin-"));
    fs.symlinkSync(qwen, path.join(bin, "qwen"));
    // One environment for both agents, each against its own mock; no HOME: they keep their sessions under the
    // extension host's, where Claude Code's own sessions are listed from.
    const places = { home: "", workspace: "", port: 0 };
    const claudeEnv = CLAUDE.agent.env({ ...places, port: claudeMock.port });
    const qwenEnv = QWEN.agent.env({ ...places, port: qwenMock.port });
    const { HOME: _claudeHome, ...claudeRest } = claudeEnv;
    const { HOME: _qwenHome, ...qwenRest } = qwenEnv;
    settings = {
      "agentStream.cli.path": claude,
      "agentStream.cli.profile": "claude",
      "agentStream.cli.args": CLAUDE.args,
      "agentStream.cli.env": {
        ...markedCliEnvironment({ ...claudeRest, ...qwenRest }, marker),
        PATH: [bin, path.dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(path.delimiter),
      },
    };
  });
  const workbench = useWorkbench(() => settings);
  let home: string;
  before(() => {
    home = codeServerHome(workbench.page);
    QWEN.prepareHome({ home, workspace: workbench.workspace, port: qwenMock.port });
  });
  after(async () => {
    await claudeMock?.stop();
    await qwenMock?.stop();
    if (bin) fs.rmSync(bin, { recursive: true, force: true });
  });

  /** New Session with Agent…, then Qwen Code (the ACP profile's row, not the stream one's) from the quick pick. */
  async function newQwenSession(page: Page): Promise<FrameLocator> {
    await command(page, "Agent Stream: New Session with Agent…");
    const row = page.locator(".quick-input-list .monaco-list-row", { has: page.locator(".label-description", { hasText: /^qwen · / }) });
    await row.click({ timeout: 30_000 });
    await page.locator(".quick-input-widget").waitFor({ state: "hidden" });
    const chat = await chatOfSession(page, UNTITLED);
    await chat.locator(".session-agent", { hasText: "Qwen Code" }).waitFor({ timeout: 30_000 });
    return chat;
  }

  /** The prompt typed into `chat`'s composer and sent; resolves once it shows as a turn. */
  async function send(chat: FrameLocator, prompt: string): Promise<void> {
    const composer = chat.locator("textarea").first();
    await composer.fill(prompt);
    await composer.press("Enter");
    await turnOf(chat, prompt).waitFor({ timeout: 30_000 });
  }

  const sentText = (bodies: readonly unknown[]) => JSON.stringify(bodies.at(-1) ?? null);

  it("runs a Claude Code session and a Qwen Code session at once in two editor tabs: one waits for approval while the other completes", async () => {
    const page = workbench.page;
    const claudeGate = gate();
    claudeMock.script([keepClaude(held(claudeAnswer(FIRST_ANSWER_CHUNKS), claudeGate.opened))], keepClaude(CLAUDE.shortAnswer()), CLAUDE.agent.sideRequests);
    qwenMock.script([keepQwen(QWEN.writeFile(workbench.workspace)), keepQwen(QWEN.api.answer(DONE_CHUNKS))], keepQwen(QWEN.api.answer(["Nothing more."])), QWEN.sideRequests);

    await send(await newEmptySession(page), FIRST_PROMPT);
    await send(await newQwenSession(page), WRITE_PROMPT);

    await showSessions(page);
    await rowInState(page, FIRST_PROMPT, "Claude Code, running");
    await rowInState(page, WRITE_PROMPT, "Qwen Code, waiting for you");
    await eventually("the Agent Stream icon's badge counts one session waiting", async () => (await containerBadge(page)) === "1", 30_000);

    await clickRowAction(page, FIRST_PROMPT, "Open Session in Editor");
    await page.locator(".tabs-container .tab.active", { hasText: "Say hi" }).waitFor({ timeout: 30_000 });
    const claudeTab = await chatOfSession(page, FIRST_PROMPT);
    await turnOf(claudeTab, FIRST_PROMPT).waitFor();
    assert.equal(await turnOf(claudeTab, FIRST_PROMPT).locator(".turn-footer").count(), 0, "Claude's turn is still running");

    await clickRowAction(page, WRITE_PROMPT, "Open Session in Editor");
    await page.locator(".tabs-container .tab.active", { hasText: "Create todo" }).waitFor({ timeout: 30_000 });
    const qwenTab = await chatOfSession(page, WRITE_PROMPT);
    const card = turnOf(qwenTab, WRITE_PROMPT).locator("section.permission");
    await card.and(turnOf(qwenTab, WRITE_PROMPT).locator(".permission-waiting")).waitFor({ timeout: 120_000 });
    assert.equal(await page.locator(".tabs-container .tab").count(), 2, "one tab per session");
    await page.screenshot({ path: path.join(RESULTS, "e2e-sessions-two-tabs-waiting.png") });

    // Claude answers while Qwen Code still waits for the user.
    claudeGate.open();
    await rowInState(page, FIRST_PROMPT, "Claude Code, completed");
    await rowInState(page, WRITE_PROMPT, "Qwen Code, waiting for you", 5_000);
    await page.locator(".tabs-container .tab", { hasText: "Say hi" }).click();
    const claudeDone = await chatOfSession(page, FIRST_PROMPT);
    await turnOf(claudeDone, FIRST_PROMPT).locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 60_000 });
    assert.ok((await turnOf(claudeDone, FIRST_PROMPT).innerText()).includes(FIRST_ANSWER));
    assert.equal(fs.existsSync(path.join(workbench.workspace, WRITTEN_FILE)), false, "nothing written before the answer");

    await page.locator(".tabs-container .tab", { hasText: "Create todo" }).click();
    const qwenAgain = await chatOfSession(page, WRITE_PROMPT);
    await turnOf(qwenAgain, WRITE_PROMPT).locator("section.permission").getByRole("button", { name: "Allow", exact: true }).click();
    await turnOf(qwenAgain, WRITE_PROMPT).locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    await rowInState(page, WRITE_PROMPT, "Qwen Code, completed");
    await rowInState(page, FIRST_PROMPT, "Claude Code, completed", 5_000);
    assert.equal(fs.readFileSync(path.join(workbench.workspace, WRITTEN_FILE), "utf8"), WRITTEN_TEXT);
    await eventually("the badge is gone once nothing waits", async () => (await containerBadge(page)) === null, 30_000);
  });

  it("keeps the first sessions on New Session and, after a window reload, reopens them from the list with their turns; follow-ups continue each agent's conversation", async () => {
    const page = workbench.page;
    await newEmptySession(page);
    await showSessions(page);
    await rowInState(page, FIRST_PROMPT, "Claude Code, completed");
    await rowInState(page, WRITE_PROMPT, "Qwen Code, completed");
    await command(page, "View: Close All Editors");

    await command(page, "Developer: Reload Window");
    await page.waitForEvent("load", { timeout: 60_000 });
    await page.waitForSelector(".monaco-workbench", { timeout: 60_000 });
    await showSessions(page);
    await rowInState(page, FIRST_PROMPT, "Claude Code, completed", 60_000);

    await sessionRow(page, FIRST_PROMPT).click();
    const chat = await chatOfSession(page, FIRST_PROMPT);
    assert.ok((await turnOf(chat, FIRST_PROMPT).innerText()).includes(FIRST_ANSWER), "the reopened session shows its answer");
    claudeMock.script([keepClaude(CLAUDE.followUpAnswer())], keepClaude(CLAUDE.shortAnswer()), CLAUDE.agent.sideRequests);
    claudeBodies.length = 0;
    await send(chat, FOLLOW_UP_PROMPT);
    await turnOf(chat, FOLLOW_UP_PROMPT).getByText(FOLLOW_UP_ANSWER).waitFor({ timeout: 120_000 });
    const sent = sentText(claudeBodies);
    assert.ok(sent.includes(FIRST_PROMPT) && sent.includes(FIRST_ANSWER), `Claude's follow-up carries the first turn: ${sent.slice(0, 1500)}`);
    // Listed once: Claude Code's own store holds the same conversation, which is ours.
    await foldAndUnfoldSessions(page);
    await rowInState(page, FIRST_PROMPT, "Claude Code, completed, active");
    assert.equal(await sessionRow(page, FIRST_PROMPT).count(), 1);

    await sessionRow(page, WRITE_PROMPT).click();
    const qwenChat = await chatOfSession(page, WRITE_PROMPT);
    await turnOf(qwenChat, WRITE_PROMPT).locator("section.permission .permission-answer").waitFor({ timeout: 30_000 });
    qwenMock.script([keepQwen(QWEN.api.answer(QWEN_FOLLOW_UP_CHUNKS))], keepQwen(QWEN.api.answer(["Nothing more."])), QWEN.sideRequests);
    qwenBodies.length = 0;
    await send(qwenChat, QWEN_FOLLOW_UP);
    await turnOf(qwenChat, QWEN_FOLLOW_UP).getByText(QWEN_FOLLOW_UP_CHUNKS.join("")).waitFor({ timeout: 120_000 });
    const qwenSent = sentText(qwenBodies);
    assert.ok(qwenSent.includes(WRITE_PROMPT), `Qwen Code's follow-up carries the first prompt: ${qwenSent.slice(0, 1500)}`);
    console.log(`      Qwen Code on resume: the follow-up's request holds the first prompt, ${qwenSent.includes("fix the build") ? "and" : "but not"} its write_file call`);
  });

  it("lists a session Claude Code ran outside the extension (claude -p) as Claude Code's, opens it with its history, and continues it", async () => {
    const page = workbench.page;
    claudeMock.script([keepClaude(claudeAnswer(OUTSIDE_ANSWER_CHUNKS))], keepClaude(CLAUDE.shortAnswer()), CLAUDE.agent.sideRequests);
    const env = { ...CLAUDE.agent.env({ home, workspace: workbench.workspace, port: claudeMock.port }) };
    await promisify(execFile)(claude, ["-p", "--", OUTSIDE_PROMPT], { cwd: workbench.workspace, env });

    await showSessions(page);
    await foldAndUnfoldSessions(page);
    await rowInState(page, OUTSIDE_PROMPT, "Claude Code, completed", 30_000);
    await sessionRow(page, OUTSIDE_PROMPT).click();
    const chat = await chatOfSession(page, OUTSIDE_PROMPT);
    await turnOf(chat, OUTSIDE_PROMPT).getByText(OUTSIDE_ANSWER_CHUNKS.join("")).waitFor({ timeout: 30_000 });

    claudeMock.script([keepClaude(claudeAnswer(OUTSIDE_FOLLOW_UP_CHUNKS))], keepClaude(CLAUDE.shortAnswer()), CLAUDE.agent.sideRequests);
    claudeBodies.length = 0;
    await send(chat, OUTSIDE_FOLLOW_UP);
    await turnOf(chat, OUTSIDE_FOLLOW_UP).getByText(OUTSIDE_FOLLOW_UP_CHUNKS.join("")).waitFor({ timeout: 120_000 });
    const sent = sentText(claudeBodies);
    assert.ok(sent.includes(OUTSIDE_PROMPT) && sent.includes(OUTSIDE_ANSWER_CHUNKS.join("")), `the follow-up carries the terminal's turn: ${sent.slice(0, 1500)}`);
    await rowInState(page, OUTSIDE_PROMPT, "Claude Code, completed");
  });

  it("asks before deleting a session, removes its row, and stops a running session's agent", async () => {
    const page = workbench.page;
    await showSessions(page);
    await clickRowAction(page, WRITE_PROMPT, "Delete Session…");
    const dialog = modalDialog(page, `Delete the session "${WRITE_PROMPT}"?`);
    await dialog.waitFor({ timeout: 30_000 });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    await rowInState(page, WRITE_PROMPT, "Qwen Code, completed", 5_000);
    await clickRowAction(page, WRITE_PROMPT, "Delete Session…");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await sessionRow(page, WRITE_PROMPT).waitFor({ state: "detached", timeout: 30_000 });

    const prompt = "Keep working until I delete you.";
    const hold = gate();
    claudeMock.script([held(claudeAnswer(["Never shown."]), hold.opened)], CLAUDE.shortAnswer(), CLAUDE.agent.sideRequests);
    const before = new Set(runningWithEnvironment(markerEntry));
    await send(await newEmptySession(page), prompt);
    await showSessions(page);
    await rowInState(page, prompt, "Claude Code, running");
    let pids: number[] = [];
    await eventually("the new session's Claude Code runs", () => (pids = runningWithEnvironment(markerEntry).filter((pid) => !before.has(pid))).length > 0, 60_000);

    await clickRowAction(page, prompt, "Delete Session…");
    const running = modalDialog(page, `Delete the session "${prompt}"? Its agent is running and will be stopped.`);
    await running.waitFor({ timeout: 30_000 });
    await running.getByRole("button", { name: "Delete" }).click();
    await sessionRow(page, prompt).waitFor({ state: "detached", timeout: 30_000 });
    await eventually(`no process of the deleted session (${pids.join(", ")}) runs`, () => pids.every((pid) => !isRunning(pid)), 30_000);
    hold.open();
  });

  it("shows sessions running, waiting, completed, failed and stopped in the Sessions view, in a dark and a light theme", async () => {
    const page = workbench.page;
    const holds = gate();
    // Failed: the model refuses the key.
    claudeMock.script([anthropicError(401, "authentication_error", "invalid x-api-key")], anthropicError(401, "authentication_error", "invalid x-api-key"), CLAUDE.agent.sideRequests);
    await send(await newEmptySession(page), "This one fails: the key is refused.");
    await rowInState(page, "This one fails: the key is refused.", "Claude Code, failed");

    claudeMock.script([held(claudeAnswer(["Never shown."]), holds.opened)], CLAUDE.shortAnswer(), CLAUDE.agent.sideRequests);
    const stopped = await newEmptySession(page);
    await send(stopped, "This one is stopped by the user.");
    await rowInState(page, "This one is stopped by the user.", "Claude Code, running");
    await stopped.getByRole("button", { name: "Stop" }).click();
    await rowInState(page, "This one is stopped by the user.", "Claude Code, stopped");

    qwenMock.script([QWEN.writeFile(workbench.workspace), QWEN.api.answer(DONE_CHUNKS)], QWEN.api.answer(["Nothing more."]), QWEN.sideRequests);
    fs.rmSync(path.join(workbench.workspace, WRITTEN_FILE), { force: true });
    await send(await newQwenSession(page), WRITE_PROMPT);
    await rowInState(page, WRITE_PROMPT, "Qwen Code, waiting for you");

    claudeMock.script([held(claudeAnswer(["Done at last."]), holds.opened)], CLAUDE.shortAnswer(), CLAUDE.agent.sideRequests);
    const long = "This one is still running a long refactoring of the whole parser module and its tests";
    await send(await newEmptySession(page), long);
    await rowInState(page, long, "Claude Code, running");

    await showSessions(page);
    // The active session's row says so (to a screen reader in its label; on screen its title is highlighted).
    await sessionRow(page, long).and(page.locator('[aria-label$=", active"]')).waitFor({ timeout: 30_000 });
    await sessionRow(page, long).locator(".highlight").first().waitFor({ timeout: 30_000 });
    const pictures = async (width: string) => {
      for (const theme of ["Dark Modern", "Light Modern"]) {
        await useColorTheme(page, theme);
        await page.mouse.move(700, 450); // off the rows: no hover actions in the picture
        const file = path.join(RESULTS, `e2e-sessions-view-${width}-${theme.toLowerCase().replace(/ /g, "-")}.png`);
        await sessionsPane(page).screenshot({ path: file });
        console.log(`      the Sessions view, ${width}, in ${theme}: ${file}`);
      }
    };
    await pictures("default-width");
    await widenSidebar(page, 560);
    await pictures("wide");
    await page.screenshot({ path: path.join(RESULTS, "e2e-sessions-window-light.png") });
    await useColorTheme(page, "Dark Modern");
    holds.open();
  });
});
