import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createAdapter } from "../../../src/dialects/registry";
import type { SessionRunRequest, SessionsHost } from "../../../src/panel/chat-session";
import { ChatSessions, type ChatSessionsOptions } from "../../../src/panel/chat-sessions";
import { SessionView } from "../../../src/panel/session-view";
import type { Conversation, Run } from "../../../src/panel/conversation";
import type { HostMessage } from "../../../src/protocol/messages";
import type { AgentIdentity } from "../../../src/protocol/sessions";
import { ReplayRun } from "../../../src/session/replay";
import { SessionStore } from "../../../src/sessions/session-store";
import { summaryOf } from "../../../src/sessions/session-summary";
import { eventually } from "../../helpers/eventually";
import { changeWhere, ScriptedStream } from "../../helpers/scripted-host";
import { storedSession } from "../../helpers/stored-session-builder";
import * as cli from "../../helpers/stream-builder";

const CLAUDE: AgentIdentity = { profile: "claude", displayName: "Claude Code", command: "claude", args: null };
const GEMINI: AgentIdentity = { profile: "gemini", displayName: "Gemini CLI", command: "gemini", args: null };

/** The editor's side for every session: each run reads a stream the test writes, and every request is kept. */
class ScriptedSessionsHost implements SessionsHost {
  readonly requests: SessionRunRequest[] = [];
  readonly streams: ScriptedStream[] = [];
  readonly endedAgents: string[] = [];

  startRun(request: SessionRunRequest): Run {
    this.requests.push(request);
    const stream = new ScriptedStream();
    this.streams.push(stream);
    return new ReplayRun(stream, { adapter: createAdapter("locus"), onChange: request.onChange });
  }
  endAgent(sessionId: string): void {
    this.endedAgents.push(sessionId);
  }
  openExternal(): void {}
  writeClipboard(): void {}
  runEditorAction(): void {}
  logRejected(): void {}
  restriction(): string | null {
    return null;
  }
}

/** A view of one session: what it was sent. */
function viewOf(conversation: Conversation): HostMessage[] {
  const messages: HostMessage[] = [];
  conversation.attach({ post: (message) => messages.push(structuredClone(message)) });
  return messages;
}

/** Answers the newest run in full: it spoke, so a follow-up continues its conversation. */
async function answer(host: ScriptedSessionsHost, conversation: Conversation, text = "done"): Promise<void> {
  const stream = host.streams.at(-1);
  assert.ok(stream, "a run was started");
  stream.push(cli.start(), cli.textDelta(text), cli.done());
  stream.end();
  await conversation.activeRun?.finished;
  if (conversation.running) await changeWhere(conversation, (change) => change.kind === "done");
}

describe("ChatSessions: many conversations, each with its own agent, run and file", () => {
  let folder: string;
  let host: ScriptedSessionsHost;
  let agent: AgentIdentity;
  let said: string[];
  let maxRunning: number;
  let configured: AgentIdentity | null;
  let clock = 0;
  const open: ChatSessions[] = [];

  async function sessions(activeId?: string): Promise<ChatSessions> {
    const store = await SessionStore.open(folder, { maxBytes: 50 * 1024 * 1024, log: { warn: () => {} } });
    const options: ChatSessionsOptions = {
      store,
      host,
      defaultAgent: () => agent,
      configuredAgent: () => configured,
      maxRunning: () => maxRunning,
      say: (message) => said.push(message),
      pickAgent: async () => GEMINI,
      log: () => {},
      // A clock that moves on at every look: "newest first" never depends on two things happening in one millisecond.
      now: () => (clock += 1000),
    };
    const opened = await ChatSessions.open(options, activeId);
    open.push(opened);
    return opened;
  }

  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "chat-sessions-"));
    host = new ScriptedSessionsHost();
    agent = CLAUDE;
    said = [];
    maxRunning = 4;
    configured = null;
  });

  afterEach(async () => {
    for (const stream of host.streams) stream.end();
    for (const opened of open.splice(0)) await opened.dispose();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it("keeps the session before a New Session in the list, still running, and makes the new one active", async () => {
    const chats = await sessions();
    const first = chats.active;
    first.conversation.send("refactor the parser");
    const second = chats.create();
    assert.equal(chats.active, second);
    assert.equal(first.conversation.running, true, "only Stop and delete stop a session");
    assert.deepEqual(
      new Map(chats.list().map((row) => [row.title, row.status])),
      new Map([
        ["New session", "new"],
        ["refactor the parser", "running"],
      ]),
    );
    await answer(host, first.conversation);
    assert.equal(chats.list().find((row) => row.id === first.id)?.status, "completed");
  });

  it("streams two sessions at once, each view getting only its own session's messages, each naming it", async () => {
    const chats = await sessions();
    const first = chats.active;
    const second = chats.create(GEMINI);
    const firstView = viewOf(first.conversation);
    const secondView = viewOf(second.conversation);
    first.conversation.send("one");
    second.conversation.send("two");
    assert.deepEqual(
      host.requests.map((request) => [request.sessionId, request.agent.displayName]),
      [
        [first.id, "Claude Code"],
        [second.id, "Gemini CLI"],
      ],
    );
    const [firstStream, secondStream] = host.streams;
    firstStream?.push(cli.start(), cli.textDelta("first's answer"), cli.done());
    firstStream?.end();
    await changeWhere(first.conversation, (change) => change.kind === "done");
    assert.equal(second.conversation.running, true, "the other session's run goes on");
    secondStream?.push(cli.start(), cli.textDelta("second's answer"), cli.done());
    secondStream?.end();
    await changeWhere(second.conversation, (change) => change.kind === "done");
    for (const [view, session] of [
      [firstView, first],
      [secondView, second],
    ] as const) {
      assert.ok(view.length > 2);
      assert.ok(view.every((message) => message.sessionId === session.id));
    }
    assert.ok(!JSON.stringify(secondView).includes("first's answer"));
    assert.ok(!JSON.stringify(firstView).includes("second's answer"));
  });

  it("fixes a session's agent at its first prompt: settings changed later start new sessions with the new agent only", async () => {
    const chats = await sessions();
    const first = chats.active;
    assert.equal(first.header().agent, "Claude Code");
    first.conversation.send("hello");
    await answer(host, first.conversation);
    agent = GEMINI;
    first.conversation.send("and again");
    await answer(host, first.conversation);
    assert.deepEqual(
      host.requests.map((request) => request.agent.displayName),
      ["Claude Code", "Claude Code"],
    );
    assert.deepEqual(first.header(), { title: "hello", agent: "Claude Code", otherAgent: "Gemini CLI" }, "the header offers the settings' agent for a new session");
    const second = chats.create();
    assert.equal(second.header().agent, "Gemini CLI", "an unused session follows the settings");
    second.conversation.send("hi");
    assert.equal(host.requests.at(-1)?.agent.displayName, "Gemini CLI");
  });

  it("writes nothing once the window closed and its last writes are done: a late change cannot race the folder's removal", async () => {
    const chats = await sessions();
    const session = chats.active;
    session.conversation.send("first question");
    await answer(host, session.conversation, "first answer");
    await chats.dispose();
    const written = () => fs.readdirSync(path.join(folder, "sessions")).sort();
    const before = written();
    // A change that arrives late (an agent's answer to a pick, say) after the store was flushed at close.
    session.rename("renamed too late");
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(written(), before);
    const stored = await SessionStore.open(folder, { maxBytes: 50 * 1024 * 1024, log: { warn: () => {} } });
    assert.equal(stored.list().find((summary) => summary.id === session.id)?.title, "first question");
  });

  it("writes nothing asked for while the window closes: a change that comes as the last writes finish is not written after them", async () => {
    const chats = await sessions();
    const session = chats.active;
    session.conversation.send("first question");
    await answer(host, session.conversation, "first answer");
    const closing = chats.dispose();
    // A run's end or a late answer to a pick, arriving while the store finishes its last writes.
    session.rename("renamed while closing");
    await closing;
    const written = () => fs.readdirSync(path.join(folder, "sessions")).sort();
    const before = written();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(written(), before);
    const stored = await SessionStore.open(folder, { maxBytes: 50 * 1024 * 1024, log: { warn: () => {} } });
    assert.equal(stored.list().find((summary) => summary.id === session.id)?.title, "first question");
  });

  it("reopens a stored session after a reload with its turns, and its follow-up continues the agent's own conversation", async () => {
    const before = await sessions();
    const session = before.active;
    session.conversation.send("first question");
    host.requests[0]?.onAcpSession("acp-session-7");
    await answer(host, session.conversation, "first answer");
    await before.dispose();

    const after = await sessions(session.id);
    const reopened = after.active;
    assert.equal(reopened.id, session.id);
    assert.equal(reopened.title, "first question");
    assert.equal(reopened.conversation.lastTurn?.prompt, "first question");
    assert.ok(JSON.stringify(reopened.conversation.snapshot()).includes("first answer"));
    reopened.conversation.send("follow-up");
    const [first, followUp] = host.requests;
    assert.deepEqual(followUp?.conversation, { id: first?.conversation.id, continues: true });
    assert.equal(followUp?.acpSessionId, "acp-session-7");
    assert.equal(followUp?.agent.displayName, "Claude Code");
  });

  it("keeps what the agent said of its modes and model across a reload, each mode still marked when it approves by itself", async () => {
    const before = await sessions();
    const session = before.active;
    session.conversation.send("first question");
    const plan = { id: "plan", name: "Plan", description: null, approvesItself: false };
    const bypass = { id: "bypassPermissions", name: "Bypass permissions", description: null, approvesItself: true };
    host.requests[0]?.onAgentState({ kind: "settings", mode: { currentId: "plan", offered: [plan, bypass], configId: null }, model: null, configOptions: [] });
    await answer(host, session.conversation);
    await before.dispose();

    const reopened = (await sessions(session.id)).active;
    assert.deepEqual(reopened.agentState.mode, { currentId: "plan", offered: [plan, bypass], configId: null });
  });

  it("starts every later turn in the mode and model the user chose for the session, also after a reload", async () => {
    const before = await sessions();
    const session = before.active;
    session.conversation.send("first question");
    session.choose("mode", "plan");
    session.choose("model", "sonnet");
    await answer(host, session.conversation);
    session.conversation.send("second question");
    await answer(host, session.conversation);
    await before.dispose();

    const after = await sessions(session.id);
    const reopened = after.active;
    assert.equal(await after.choose(session.id, "model", undefined), true);
    reopened.conversation.send("third question");
    assert.deepEqual(
      host.requests.map((request) => request.chosen),
      [{ remembered: true }, { mode: "plan", model: "sonnet" }, { mode: "plan" }],
    );
  });

  it("refuses a mode the agent does not offer, keeping the one chosen before", async () => {
    const chats = await sessions();
    const session = chats.active;
    session.conversation.send("first question");
    const plan = { id: "plan", name: "Plan", description: null, approvesItself: false };
    host.requests[0]?.onAgentState({ kind: "settings", mode: { currentId: "default", offered: [plan], configId: null }, model: null, configOptions: [] });
    await answer(host, session.conversation);
    assert.equal(await chats.choose(session.id, "mode", "plan"), true);
    assert.equal(await chats.choose(session.id, "mode", "yolo"), false);
    assert.deepEqual(session.chosen, { mode: "plan" });
  });

  it("has no pending prompts in a new session, and keeps a stored session's across a reopen and its next save", async () => {
    const fresh = await sessions();
    assert.deepEqual(fresh.active.pendingPrompts, []);
    await fresh.dispose();
    const pendingPrompts = [{ id: "p1", prompt: "then the docs", context: null, createdAt: 500 }];
    const store = await SessionStore.open(folder, { maxBytes: 50 * 1024 * 1024, log: { warn: () => {} } });
    const stored = storedSession({ agent: CLAUDE, pendingPrompts });
    await store.save(stored, summaryOf(stored, "completed"));

    const reopened = await sessions(stored.id);
    assert.deepEqual(reopened.active.pendingPrompts, pendingPrompts);
    reopened.active.conversation.send("and now");
    await answer(host, reopened.active.conversation, "done");
    await reopened.dispose();
    const reloaded = await SessionStore.open(folder, { maxBytes: 50 * 1024 * 1024, log: { warn: () => {} } });
    const saved = await reloaded.load(stored.id);
    assert.equal(saved?.turns.at(-1)?.prompt, "and now", "the session was saved again");
    assert.deepEqual(saved?.pendingPrompts, pendingPrompts);
  });

  it("sends a message queued with a file and an image, after a reload, with both", async () => {
    const before = await sessions();
    const session = before.active;
    const view = { post: () => {} };
    session.conversation.attach(view);
    session.conversation.send("first question");
    const image = { kind: "image", mimeType: "image/png", data: Buffer.from("\x89PNG\r\n\x1a\n the screenshot").toString("base64"), name: "shot.png" };
    const attachment = { kind: "file", path: "src/a.ts" };
    session.conversation.handleIntent(view, { type: "send", prompt: "and what is this?", attachments: [attachment], images: [image] });
    assert.equal(session.pendingPrompts.length, 1);
    // The window reloads while the first turn runs: its run ends with the window, the message waits.
    await before.dispose();

    const after = await sessions(session.id);
    const reopened = after.active;
    const reloadedView = { post: () => {} };
    reopened.conversation.attach(reloadedView);
    reopened.conversation.handleIntent(reloadedView, { type: "resumeQueue" });
    const request = host.requests.at(-1);
    assert.equal(request?.prompt, "and what is this?");
    assert.deepEqual(request?.parts, [attachment, image]);
  });

  it("forgets a message sent with Send queued after a reload, in the session's file too: the next reload does not send it again", async () => {
    const before = await sessions();
    const session = before.active;
    session.conversation.send("first question");
    const view = { post: () => {} };
    session.conversation.attach(view);
    session.conversation.handleIntent(view, { type: "send", prompt: "then the docs" });
    await before.dispose();

    const after = await sessions(session.id);
    after.active.conversation.handleIntent(view, { type: "resumeQueue" });
    assert.equal(host.requests.at(-1)?.prompt, "then the docs");
    await answer(host, after.active.conversation, "done");
    await after.dispose();
    const stored = await (await SessionStore.open(folder, { maxBytes: 50 * 1024 * 1024, log: { warn: () => {} } })).load(session.id);
    assert.equal(stored?.turns.at(-1)?.prompt, "then the docs");
    assert.deepEqual(stored?.pendingPrompts, []);
  });

  it("lists the sessions of the store newest first, without reading them, and opens one on demand", async () => {
    const before = await sessions();
    const older = before.active;
    older.conversation.send("older");
    await answer(host, older.conversation);
    const newer = before.create();
    newer.conversation.send("newer");
    await answer(host, newer.conversation);
    await before.dispose();

    const after = await sessions();
    assert.deepEqual(
      after.list().map((row) => row.title),
      ["New session", "newer", "older"],
    );
    assert.equal(after.get(older.id), undefined, "a stored session is not read until it is opened");
    const opened = await after.show(older.id);
    assert.equal(after.active, opened);
    assert.equal(opened?.conversation.lastTurn?.prompt, "older");
    assert.deepEqual(
      after.list().map((row) => row.title),
      ["newer", "older"],
      "the empty session that was active is gone once another is shown",
    );
  });

  it("lists a session that was running when the window closed as stopped after the reload, with what it had said", async () => {
    const before = await sessions();
    const session = before.active;
    session.conversation.send("long job");
    host.streams[0]?.push(cli.start(), cli.textDelta("halfway"));
    await changeWhere(session.conversation, (change) => change.kind === "text-appended" || change.kind === "block-added");
    await before.dispose();
    const after = await sessions();
    assert.deepEqual(
      after.list().filter((row) => row.id === session.id).map((row) => [row.title, row.status]),
      [["long job", "stopped"]],
    );
    const reopened = await after.show(session.id);
    assert.equal(reopened?.conversation.lastTurn?.status, "canceled");
    assert.ok(JSON.stringify(reopened?.conversation.snapshot()).includes("halfway"));
  });

  it("refuses a prompt past agentStream.sessions.maxRunning with a message, and stops no other session's run", async () => {
    maxRunning = 1;
    const chats = await sessions();
    const first = chats.active;
    assert.equal(first.conversation.send("long job"), true);
    const second = chats.create();
    assert.equal(second.conversation.send("another"), false);
    assert.equal(first.conversation.running, true);
    assert.equal(host.requests.length, 1);
    assert.match(said.join("\n"), /1 sessions are running.*agentStream\.sessions\.maxRunning/);
    await answer(host, first.conversation);
    assert.equal(second.conversation.send("another"), true);
  });

  it("deletes a running session: its run stops, its agent ends, its file goes, and another session becomes active", async () => {
    const chats = await sessions();
    const kept = chats.active;
    kept.conversation.send("keep me");
    await answer(host, kept.conversation);
    const doomed = chats.create();
    doomed.conversation.send("delete me");
    await chats.delete(doomed.id);
    assert.equal(doomed.conversation.running, false);
    assert.deepEqual(host.endedAgents, [doomed.id]);
    assert.equal(chats.active, kept);
    assert.deepEqual(
      chats.list().map((row) => row.title),
      ["keep me"],
    );
    await chats.dispose();
    const after = await sessions();
    assert.deepEqual(
      after.list().map((row) => row.title).filter((title) => title !== "New session"),
      ["keep me"],
    );
  });

  it("keeps the agent's own conversation in a session's row once its turn has ended, and in what it saves next", async () => {
    const before = await sessions();
    const session = before.active;
    session.conversation.send("first question");
    await answer(host, session.conversation, "first answer");
    const conversationId = host.requests[0]?.conversation.id;
        assert.equal(before.list().find((row) => row.id === session.id)?.agentConversationId, conversationId);
    await before.rename(session.id, "Parser work");
    const file = path.join(folder, "sessions", `${session.id}.json`);
    const saved = () => JSON.parse(fs.readFileSync(file, "utf8")) as { title: string; agentSession: { conversationId: string | null } };
    await eventually("the renamed session is written", () => fs.existsSync(file) && saved().title === "Parser work");
    assert.equal(saved().agentSession.conversationId, conversationId);
  });

  it("deletes all sessions, running ones stopped, and leaves an empty new session active", async () => {
    const chats = await sessions();
    const first = chats.active;
    first.conversation.send("one");
    await answer(host, first.conversation);
    const second = chats.create();
    second.conversation.send("two, still running");
    await chats.deleteAll();
    assert.equal(second.conversation.running, false);
    assert.deepEqual(new Set(host.endedAgents), new Set([first.id, second.id]));
    assert.deepEqual(
      chats.list().map((row) => [row.title, row.status]),
      [["New session", "new"]],
    );
    assert.ok(chats.active.isEmpty);
  });

  it("keeps a name the user gave over the first prompt, across a reload", async () => {
    const before = await sessions();
    const session = before.active;
    session.conversation.send("some long first prompt");
    await answer(host, session.conversation);
    await before.rename(session.id, "  Parser work  ");
    assert.equal(session.header().title, "Parser work");
    session.conversation.send("second prompt");
    await answer(host, session.conversation);
    await before.dispose();
    const after = await sessions();
    assert.equal(after.list().find((row) => row.id === session.id)?.title, "Parser work");
  });

  it("takes the agent's own title for the session, keeps what else it says of the session, and a user's name wins", async () => {
    const chats = await sessions();
    const session = chats.active;
    const view = viewOf(session.conversation);
    session.conversation.send("please look at the parser, it reads the config twice");
    const request = host.requests[0];
    request?.onAgentState({ kind: "title", title: "Parser reads config twice" });
    request?.onAgentState({ kind: "mode", modeId: "default" });
    request?.onAgentState({ kind: "usage", used: 1200, size: 200000, cost: { amount: 0.02, currency: "USD" } });
    assert.equal(chats.list().find((row) => row.id === session.id)?.title, "Parser reads config twice");
    assert.deepEqual(view.findLast((message) => message.type === "header"), { type: "header", sessionId: session.id, header: { title: "Parser reads config twice", agent: "Claude Code", otherAgent: null } });
    assert.deepEqual([session.agentState.mode?.currentId, session.agentState.usage?.used], ["default", 1200]);
    await answer(host, session.conversation);
    session.rename("Mine");
    request?.onAgentState({ kind: "title", title: "The agent's again" });
    assert.equal(session.title, "Mine");
  });

  it("tells the views how full the agent's context is as it says it mid-turn, until the turn's end says it", async () => {
    const chats = await sessions();
    const session = chats.active;
    const view = viewOf(session.conversation);
    session.conversation.send("please look at the parser");
    const request = host.requests[0];
    request?.onAgentState({ kind: "usage", used: 1200, size: 200000, cost: null });
    request?.onAgentState({ kind: "usage", used: 64_000, size: 200000, cost: null });
    const contexts = () => view.filter((message) => message.type === "context").map((message) => message.type === "context" && message.context);
    await eventually("the context in the header", () => (contexts().length > 0 ? true : undefined));
    // Two said within one frame: the views hear the later one only.
    assert.deepEqual(contexts(), [{ used: 64_000, size: 200000 }]);
    const joined = viewOf(session.conversation);
    assert.deepEqual(joined.findLast((message) => message.type === "context"), { type: "context", sessionId: session.id, context: { used: 64_000, size: 200000 }, cost: null });
    const usage = { inputTokens: null, outputTokens: null, cacheReadTokens: null, cost: null, contextUsed: 64_000, contextSize: 200000 };
    host.streams[0]?.push(cli.start(), cli.textDelta("done"), cli.done({ usage }));
    host.streams[0]?.end();
    // The turn's usage says it now.
    await eventually("the live context let go", () => (contexts().at(-1) === null ? true : undefined));
    assert.equal(view.findLastIndex((message) => message.type === "context") > view.findLastIndex((message) => message.type === "changes"), true);
  });

  it("tells the views what the running turn has cost so far, from the agent's running total, until the turn's end says it", async () => {
    const chats = await sessions();
    const session = chats.active;
    const view = viewOf(session.conversation);
    session.conversation.send("please look at the parser");
    const request = host.requests[0];
    request?.onAgentState({ kind: "usage", used: 1200, size: 200000, cost: { amount: 0.02, currency: "USD" } });
    const costs = () => view.filter((message) => message.type === "context").map((message) => message.type === "context" && message.cost);
    await eventually("the cost in the header", () => (costs().length > 0 ? true : undefined));
    assert.deepEqual(costs(), [{ amount: 0.02, currency: "USD" }]);
    request?.onAgentState({ kind: "usage", used: 1500, size: 200000, cost: { amount: 0.05, currency: "USD" } });
    await eventually("the later total", () => (costs().length > 1 ? true : undefined));
    assert.deepEqual(costs().at(-1), { amount: 0.05, currency: "USD" });
    const usage = { inputTokens: null, outputTokens: null, cacheReadTokens: null, cost: { amount: 0.05, currency: "USD" }, contextUsed: 1500, contextSize: 200000 };
    host.streams[0]?.push(cli.start(), cli.textDelta("done"), cli.done({ usage }));
    host.streams[0]?.end();
    // The turn's usage says it now.
    await eventually("the live cost let go", () => (costs().at(-1) === null ? true : undefined));
  });

  it("starts a New Session with Agent… with the agent picked", async () => {
    const chats = await sessions();
    const before = chats.active;
    chats.newSessionWithAgent();
    await eventually("the picked agent's session", () => chats.active !== before);
    assert.equal(chats.active.header().agent, "Gemini CLI");
  });

  it("offers, in the header of a built-in agent's session, the CLI the settings configure, and starts a session with it", async () => {
    agent = { profile: "builtin", displayName: "Built-in agent", command: "", args: null };
    configured = CLAUDE;
    const chats = await sessions();
    const builtin = chats.active;
    assert.deepEqual(builtin.header(), { title: "New session", agent: "Built-in agent", otherAgent: "Claude Code" });
    const view = viewOf(builtin.conversation);
    builtin.conversation.handleIntent({ post: () => {} }, { type: "newSessionWithAgent" });
    assert.equal(chats.active.agent.displayName, "Claude Code", "the offered agent, not a pick");
    assert.notEqual(chats.active, builtin);
    assert.ok(view.length > 0);
  });
});

describe("SessionView: a webview shows one session at a time", () => {
  let folder: string;
  let host: ScriptedSessionsHost;
  let chats: ChatSessions;

  beforeEach(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "session-view-"));
    host = new ScriptedSessionsHost();
    const store = await SessionStore.open(folder, { maxBytes: 50 * 1024 * 1024, log: { warn: () => {} } });
    chats = await ChatSessions.open({ store, host, defaultAgent: () => CLAUDE, maxRunning: () => 4, say: () => {}, pickAgent: async () => undefined, log: () => {} }, undefined);
  });

  afterEach(async () => {
    for (const stream of host.streams) stream.end();
    await chats.dispose();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it("joins its session at the page's ready, moves with show, and drops an intent about the session it left", async () => {
    const first = chats.active;
    first.conversation.send("first");
    const second = chats.create();
    const posted: HostMessage[] = [];
    const rejected: string[] = [];
    const view = new SessionView((message) => posted.push(message), first, (reason) => rejected.push(reason));
    view.receive({ sessionId: null, intent: { type: "ready" } });
    assert.equal(view.shown, first);
    assert.deepEqual([posted[0]?.type, posted[0]?.sessionId], ["snapshot", first.id]);
    view.show(second);
    assert.deepEqual([posted.at(-1)?.type, posted.at(-1)?.sessionId], ["snapshot", second.id]);
    // The page's Stop was sent while it still showed the first session: it must not stop the second, nor the first.
    second.conversation.send("second");
    view.receive({ sessionId: first.id, intent: { type: "stop" } });
    assert.equal(first.conversation.running, true);
    assert.equal(second.conversation.running, true);
    assert.match(rejected.join("\n"), new RegExp(`session ${first.id}, which this view does not show`));
    view.receive({ sessionId: second.id, intent: { type: "stop" } });
    await eventually("the second session's run to stop", () => !second.conversation.running);
    assert.equal(first.conversation.running, true);
    view.dispose();
  });

  it("gives a prompt sent in the instant before the page moved to a new, empty session to that session", () => {
    const left = chats.active;
    left.conversation.send("earlier work");
    const view = new SessionView(() => {}, left, () => {});
    view.receive({ sessionId: null, intent: { type: "ready" } });
    const fresh = chats.create();
    view.show(fresh);
    view.receive({ sessionId: left.id, intent: { type: "send", prompt: "first words of the new session" } });
    assert.equal(fresh.conversation.lastTurn?.prompt, "first words of the new session");
    assert.equal(left.conversation.turnCount, 1);
    // Once the new session has a prompt, another stale one is not the new session's.
    view.receive({ sessionId: left.id, intent: { type: "send", prompt: "stale" } });
    assert.equal(fresh.conversation.turnCount, 1);
    view.dispose();
  });

  it("drops what is not an intent in its envelope", () => {
    const rejected: string[] = [];
    const view = new SessionView(() => {}, chats.active, (reason) => rejected.push(reason));
    view.receive({ type: "ready" });
    view.receive({ sessionId: "../../etc", intent: { type: "ready" } });
    assert.equal(view.shown, undefined);
    assert.equal(rejected.length, 2);
  });
});
