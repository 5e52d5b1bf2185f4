// A message queued while a turn runs, across a window reload, through the whole chain a user goes through: the intent
// from the page, the session's store, and the reopened session's page. The reload ended the turn it waited for, so it
// waits for the user's word (as after a failed turn) instead of going by itself.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createAdapter } from "../../../src/dialects/registry";
import type { SessionRunRequest, SessionsHost } from "../../../src/panel/chat-session";
import { ChatSessions } from "../../../src/panel/chat-sessions";
import type { ConversationView, Run } from "../../../src/panel/conversation";
import type { HostMessage } from "../../../src/protocol/messages";
import type { AgentIdentity } from "../../../src/protocol/sessions";
import { ReplayRun } from "../../../src/session/replay";
import { SessionStore } from "../../../src/sessions/session-store";
import { eventually } from "../../helpers/eventually";
import { changeWhere, ScriptedStream } from "../../helpers/scripted-host";
import * as cli from "../../helpers/stream-builder";

const CLAUDE: AgentIdentity = { profile: "claude", displayName: "Claude Code", command: "claude", args: null };

/** Each run reads a stream the test writes; every request is kept. */
class ScriptedSessionsHost implements SessionsHost {
  readonly requests: SessionRunRequest[] = [];
  readonly streams: ScriptedStream[] = [];

  startRun(request: SessionRunRequest): Run {
    this.requests.push(request);
    const stream = new ScriptedStream();
    this.streams.push(stream);
    return new ReplayRun(stream, { adapter: createAdapter("locus"), onChange: request.onChange });
  }
  endAgent(): void {}
  openExternal(): void {}
  writeClipboard(): void {}
  runEditorAction(): void {}
  logRejected(): void {}
  restriction(): string | null {
    return null;
  }
}

/** A page showing a session: what it was sent. */
class PageView implements ConversationView {
  readonly messages: HostMessage[] = [];
  post(message: HostMessage): void {
    this.messages.push(structuredClone(message));
  }
  get queue(): Extract<HostMessage, { type: "queue" }> | undefined {
    return this.messages.filter((message): message is Extract<HostMessage, { type: "queue" }> => message.type === "queue").at(-1);
  }
}

describe("a queued message across a window reload", () => {
  let folder: string;
  let host: ScriptedSessionsHost;
  let clock = 0;
  const open: ChatSessions[] = [];

  async function sessions(activeId?: string): Promise<ChatSessions> {
    const store = await SessionStore.open(folder, { maxBytes: 50 * 1024 * 1024, log: { warn: () => {} } });
    const opened = await ChatSessions.open(
      {
        store,
        host,
        defaultAgent: () => CLAUDE,
        configuredAgent: () => null,
        maxRunning: () => 4,
        say: () => {},
        pickAgent: async () => CLAUDE,
        log: () => {},
        // A clock that moves on at every look, across the reload too.
        now: () => (clock += 1000),
      },
      activeId,
    );
    open.push(opened);
    return opened;
  }

  /** Answers the newest run in full; what follows it (the next queued message) may start at once. */
  function answerNewest(): void {
    const stream = host.streams.at(-1);
    assert.ok(stream, "a run was started");
    stream.push(cli.start(), cli.textDelta("done"), cli.done());
    stream.end();
  }

  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "queue-across-reload-"));
    host = new ScriptedSessionsHost();
  });

  afterEach(async () => {
    for (const stream of host.streams) stream.end();
    for (const opened of open.splice(0)) await opened.dispose();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it("keeps the messages queued while a turn runs in the session's file at once, and shows them to the reopened page in order, waiting for the user's word", async () => {
    const before = await sessions();
    const session = before.active;
    const page = new PageView();
    session.conversation.handleIntent(page, { type: "ready" });
    session.conversation.handleIntent(page, { type: "send", prompt: "long job" });
    host.streams[0]?.push(cli.start(), cli.textDelta("halfway"));
    await changeWhere(session.conversation, (change) => change.kind === "text-appended" || change.kind === "block-added");
    session.conversation.handleIntent(page, { type: "send", prompt: "then the docs" });
    session.conversation.handleIntent(page, { type: "send", prompt: "and the tests" });
    assert.deepEqual(page.queue?.items.map((item) => item.prompt), ["then the docs", "and the tests"]);
    // On disk while the turn still runs: a window that dies now, with no time to save at its close, loses nothing.
    await eventually("the queue in the session's file", async () => {
      const store = await SessionStore.open(folder, { maxBytes: 50 * 1024 * 1024, log: { warn: () => {} } });
      const stored = await store.load(session.id);
      return stored?.pendingPrompts.map((prompt) => prompt.prompt).join(" | ") === "then the docs | and the tests";
    });
    await before.dispose();

    const after = await sessions(session.id);
    const reopened = after.active;
    const again = new PageView();
    reopened.conversation.handleIntent(again, { type: "ready" });
    assert.equal(again.queue?.held, true, "the turn they waited for ended with the window: they wait to be asked");
    assert.deepEqual(again.queue?.items.map((item) => item.prompt), ["then the docs", "and the tests"]);
    assert.equal(host.requests.length, 1, "nothing was sent by itself after the reload");
  });

  it("sends the restored queue one turn after another once the user says Send queued, and the store then keeps none", async () => {
    const before = await sessions();
    const session = before.active;
    const page = new PageView();
    session.conversation.handleIntent(page, { type: "ready" });
    session.conversation.handleIntent(page, { type: "send", prompt: "long job" });
    host.streams[0]?.push(cli.start(), cli.textDelta("halfway"));
    await changeWhere(session.conversation, (change) => change.kind === "text-appended" || change.kind === "block-added");
    session.conversation.handleIntent(page, { type: "send", prompt: "then the docs" });
    session.conversation.handleIntent(page, { type: "send", prompt: "and the tests" });
    await before.dispose();

    const after = await sessions(session.id);
    const reopened = after.active;
    const again = new PageView();
    reopened.conversation.handleIntent(again, { type: "ready" });
    reopened.conversation.handleIntent(again, { type: "resumeQueue" });
    await eventually("the first queued message's run", () => host.requests.length === 2);
    assert.equal(host.requests[1]?.prompt, "then the docs");
    answerNewest();
    await eventually("the second queued message's run", () => host.requests.length === 3);
    assert.equal(host.requests[2]?.prompt, "and the tests");
    answerNewest();
    await eventually("the last turn's end", () => !reopened.conversation.running && reopened.conversation.lastTurn?.status === "completed");
    assert.deepEqual(again.queue?.items, []);
    assert.deepEqual(reopened.pendingPrompts, [], "the session keeps nothing waiting");
    const id = reopened.id;
    await after.dispose();
    const store = await SessionStore.open(folder, { maxBytes: 50 * 1024 * 1024, log: { warn: () => {} } });
    const saved = await store.load(id);
    assert.deepEqual(saved?.turns.map((turn) => [turn.prompt, turn.status]), [
      ["long job", "canceled"],
      ["then the docs", "completed"],
      ["and the tests", "completed"],
    ]);
    assert.deepEqual(saved?.pendingPrompts, []);
  });
});
