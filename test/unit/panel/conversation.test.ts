import * as assert from "node:assert/strict";
import * as os from "node:os";
import { createAdapter } from "../../../src/dialects/registry";
import { applyChange } from "../../../src/common/turn-changes";
import { promptWithParts } from "../../../src/common/attached-context";
import {
  Conversation,
  checkedLink,
  runningSaveDelayMs,
  SAVE_RUNNING_MS,
  SAVED_CHARS_PER_SECOND,
  type ConversationHost,
  type EditorAction,
  type RunRequest,
} from "../../../src/panel/conversation";
import type { CliConversation, HostMessage, PickedFile, Turn, SessionHeader } from "../../../src/protocol/messages";
import type { ToolDiff } from "../../../src/protocol/transcript";
import { claudeProfile } from "../../../src/profiles/claude-profile";
import { piProfile } from "../../../src/profiles/pi-profile";
import { LiveSession } from "../../../src/session/live-session";
import { ReplayRun } from "../../../src/session/replay";
import * as cli from "../../helpers/stream-builder";
import { fakeCli } from "../../helpers/repo";
import { eventually } from "../../helpers/eventually";
import { changeWhere } from "../../helpers/scripted-host";
import { permissionBlock, toolBlock, turnWith } from "../../helpers/turn-builder";
import { VirtualScheduler } from "../../helpers/virtual-scheduler";
import { TEST_HEADER, TEST_SESSION_ID } from "../../helpers/test-session";

/** A host that runs the fake Locus CLI for real and records what the conversation asked of it. */
class RecordingHost implements ConversationHost {
  readonly sessionId = TEST_SESSION_ID;
  header(): SessionHeader {
    return TEST_HEADER;
  }
  scenario = "answer";
  restrictionText: string | null = null;
  readonly opened: string[] = [];
  readonly copied: string[] = [];
  readonly actions: { action: EditorAction; turnId: number }[] = [];
  readonly rejected: string[] = [];
  readonly openedDiffs: ToolDiff[] = [];
  readonly openedFiles: { path: string; line: number | null }[] = [];
  readonly queues: string[][] = [];
  persisted: readonly Turn[] | undefined;
  persistedCliConversation: CliConversation | null | undefined;
  readonly runs: LiveSession[] = [];
  readonly requests: RunRequest[] = [];
  agent = "fake-locus";
  /** What the agent says of images: null, it takes them. */
  imagesRefusalText: string | null = null;

  imagesRefusal(): string | null {
    return this.imagesRefusalText;
  }

  /** The agent takes a message mid-turn: Claude Code's input, played by a fake that answers a steered message. */
  steerable = false;
  /** …and that agent is pi, which leaves a message steered after it decided to end in its queue. */
  steersLate = false;
  /** …and Claude echoes (takes) only the first this many messages it reads: a later one waits for a Stop. */
  steerTakes = 3;

  startRun(request: RunRequest): LiveSession {
    this.requests.push(request);
    if (this.steerable) return this.startSteerable(request);
    const run = LiveSession.start({
      adapter: createAdapter("locus"),
      process: {
        command: fakeCli("fake-locus.js"),
        args: ["exec", "--json-stream", "--", request.prompt],
        cwd: os.tmpdir(),
        env: { ...process.env, FAKE_SCENARIO: this.scenario },
        stopGraceMs: 2000,
      },
      onChange: request.onChange,
    });
    this.runs.push(run);
    return run;
  }
  private startSteerable(request: RunRequest): LiveSession {
    if (this.steersLate) return this.startLatePi(request);
    const input = claudeProfile.invocation({ prompt: request.prompt, userArgs: null, conversation: { ...request.conversation, stateDir: os.tmpdir() } }).input;
    const run = LiveSession.start({
      adapter: createAdapter("claude"),
      process: { command: fakeCli("stdin-claude-steered.js"), args: [], cwd: os.tmpdir(), env: { ...process.env, FAKE_MESSAGES: "2", FAKE_TAKES: String(this.steerTakes) }, input },
      isRunOver: input?.isRunOver,
      onChange: request.onChange,
    });
    this.runs.push(run);
    return run;
  }
  private startLatePi(request: RunRequest): LiveSession {
    const input = piProfile.invocation({ prompt: request.prompt, userArgs: null, conversation: { ...request.conversation, stateDir: os.tmpdir() } }).input;
    const run = LiveSession.start({
      adapter: createAdapter("pi"),
      process: { command: fakeCli("stdin-pi-late-steer.js"), args: [], cwd: os.tmpdir(), env: process.env, input },
      isRunOver: input?.isRunOver,
      onChange: request.onChange,
    });
    this.runs.push(run);
    return run;
  }
  openExternal(url: string): void {
    this.opened.push(url);
  }
  writeClipboard(text: string): void {
    this.copied.push(text);
  }
  runEditorAction(action: EditorAction, turn: Turn): void {
    this.actions.push({ action, turnId: turn.id });
  }
  logRejected(reason: string): void {
    this.rejected.push(reason);
  }
  findFiles(query: string): Promise<PickedFile[]> {
    return Promise.resolve(query === "auth" ? [{ path: "src/auth.ts", kind: "file", open: false }] : []);
  }
  /** The explorer's drop: this workspace has exactly one file, src/auth.ts. */
  droppedFiles(uris: readonly string[]): Promise<{ attachments: { kind: "file"; path: string }[]; refused: string[] }> {
    const inside = "file:///work/src/auth.ts";
    return Promise.resolve({ attachments: uris.includes(inside) ? [{ kind: "file", path: "src/auth.ts" }] : [], refused: uris.filter((uri) => uri !== inside) });
  }
  /** This workspace has exactly one file. */
  workspaceFiles(paths: readonly string[]): Promise<string[]> {
    return Promise.resolve(paths.filter((path) => path === "src/auth.ts"));
  }
  openWorkspaceFile(path: string, line: number | null): void {
    this.openedFiles.push({ path, line });
  }
  persistQueue(queued: readonly { prompt: string }[]): void {
    this.queues.push(queued.map((item) => item.prompt));
  }
  restriction(): string | null {
    return this.restrictionText;
  }
  agentName(): string {
    return this.agent;
  }
  /** The running turn as last saved (null once none runs), and a call after each such save. */
  persistedRunning: Turn | null | undefined;
  persistedRunningCliConversation: CliConversation | null | undefined;
  onPersistRunning: (turn: Turn | null) => void = () => {};
  persist(turns: readonly Turn[], cliConversation: CliConversation | null): void {
    this.persisted = turns;
    this.persistedCliConversation = cliConversation;
  }
  persistRunning(turn: Turn | null, cliConversation: CliConversation | null): void {
    this.persistedRunning = turn;
    this.persistedRunningCliConversation = cliConversation;
    this.onPersistRunning(turn);
  }
  openDiff(diff: ToolDiff): void {
    this.openedDiffs.push(diff);
  }
}

class RecordingView {
  readonly messages: HostMessage[] = [];
  post(message: HostMessage): void {
    // What crosses postMessage is a structured clone: keep exactly that.
    this.messages.push(structuredClone(message));
  }
  /** The conversation as this view would have it after applying everything it was sent. */
  turns(): Turn[] {
    let turns: Turn[] = [];
    for (const m of this.messages) {
      if (m.type === "snapshot") turns = structuredClone(m.turns);
      else if (m.type === "turn-started") turns.push(structuredClone(m.turn));
      else if (m.type === "changes") {
        const turn = turns.find((t) => t.id === m.turnId);
        assert.ok(turn, `changes for unknown turn ${m.turnId}`);
        for (const change of m.changes) applyChange(turn, change);
      }
    }
    return turns;
  }
}

async function finishedRun(conversation: Conversation): Promise<void> {
  const run = conversation.activeRun;
  assert.ok(run, "a run is in progress");
  await run.finished;
}

/**
 * A run whose agent asks permission (its first blocks, waiting: requests `1`, … that all look alike) and then waits
 * until `release()`, as an ACP agent waits for the answer; replayed from a stream, so nothing else runs. `answered`:
 * the run takes answers (as an ACP agent's run does) and keeps them there; without it, it has no way to take one (as a
 * stream CLI's run).
 */
function askingRun(conversation: Conversation, answered?: { requestId: string; optionId: string | null }[], requests = 1): { release(): void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const options = permissionBlock().options;
  const asked = Array.from({ length: requests }, (_, i) => cli.event("permission_requested", { requestId: `${i + 1}`, toolId: "call-1", title: "Edit src/a.ts", options }));
  async function* stream(): AsyncGenerator<string> {
    yield cli.toNdjson([cli.start(), ...asked]);
    await released;
    yield cli.toNdjson([cli.done()]);
  }
  conversation.replay("an agent that asks", (listener) => {
    const run = new ReplayRun(stream(), { adapter: createAdapter("locus"), ...listener });
    if (answered === undefined) return run;
    const answer = (requestId: string, optionId: string | null) => answered.push({ requestId, optionId }) > 0;
    return { session: run.session, finished: run.finished, stop: () => run.stop(), kill: () => run.kill(), answer };
  });
  return { release };
}

describe("Conversation", () => {
  let host: RecordingHost;
  let conversation: Conversation;
  let view: RecordingView;

  beforeEach(() => {
    host = new RecordingHost();
    conversation = new Conversation(host);
    view = new RecordingView();
    conversation.handleIntent(view, { type: "ready" });
  });

  afterEach(() => conversation.dispose());

  it("answers ready with a snapshot of the whole conversation", () => {
    assert.deepEqual(view.messages, [{ type: "snapshot", sessionId: TEST_SESSION_ID, header: TEST_HEADER, turns: [], restriction: null }]);
  });

  it("answers a view's question about paths to that view only, and passes a path link on to the host", async () => {
    const other = new RecordingView();
    conversation.handleIntent(other, { type: "ready" });
    conversation.handleIntent(view, { type: "checkPaths", paths: ["src/auth.ts", "e.g"] });
    await eventually("the answer about paths", () => view.messages.some((message) => message.type === "pathsChecked"));
    assert.deepEqual(view.messages.at(-1), { type: "pathsChecked", sessionId: TEST_SESSION_ID, checked: ["src/auth.ts", "e.g"], found: ["src/auth.ts"] });
    assert.ok(!other.messages.some((message) => message.type === "pathsChecked"));
    conversation.handleIntent(view, { type: "openPath", path: "src/auth.ts", line: 42 });
    assert.deepEqual(host.openedFiles, [{ path: "src/auth.ts", line: 42 }]);
  });

  it("answers the @ picker's question to the view that asked, with the request's id", async () => {
    conversation.handleIntent(view, { type: "findFiles", requestId: 7, query: "auth" });
    await eventually("the files found", () => view.messages.some((message) => message.type === "filesFound"));
    assert.deepEqual(view.messages.at(-1), { type: "filesFound", sessionId: TEST_SESSION_ID, requestId: 7, files: [{ path: "src/auth.ts", kind: "file", open: false }] });
  });

  it("answers a drop from the explorer to the view dropped on: chips for the workspace files, the rest refused", async () => {
    conversation.handleIntent(view, { type: "dropFiles", uris: ["file:///work/src/auth.ts", "file:///etc/passwd"] });
    await eventually("the drop's answer", () => view.messages.some((message) => message.type === "filesDropped"));
    assert.deepEqual(view.messages.at(-1), { type: "filesDropped", sessionId: TEST_SESSION_ID, attachments: [{ kind: "file", path: "src/auth.ts" }], refused: ["file:///etc/passwd"] });
  });

  it("drops a drop of more files than a prompt may carry, unanswered, and says so in the log", () => {
    conversation.handleIntent(view, { type: "dropFiles", uris: Array.from({ length: 21 }, (_, index) => `file:///work/${index}.ts`) });
    assert.match(host.rejected.at(-1) ?? "", /not an intent/);
    assert.ok(!view.messages.some((message) => message.type === "filesDropped"));
  });

  it("tells the agent of the files and folders attached to a prompt, and shows them under it", async () => {
    conversation.handleIntent(view, { type: "send", prompt: "Explain these", attachments: [{ path: "src/auth.ts", kind: "file" }, { path: "src/db", kind: "folder" }] });
    await finishedRun(conversation);
    const request = host.requests[0];
    assert.deepEqual(request?.parts, [{ path: "src/auth.ts", kind: "file" }, { path: "src/db", kind: "folder" }]);
    // An agent that takes them only as text reads them thus.
    assert.equal(promptWithParts(request.prompt, request.parts ?? []), "Explain these\n\nFiles and folders the user attached (read them as needed):\n- @src/auth.ts\n- @src/db/");
    assert.equal(view.turns()[0]?.context?.summary, "src/auth.ts · src/db/");
  });

  it("passes a pasted image with the prompt to an agent that takes images, and names it under the prompt", async () => {
    const image = { kind: "image" as const, mimeType: "image/png" as const, data: "iVBORw0KGgo=", name: "pasted image.png" };
    conversation.handleIntent(view, { type: "send", prompt: "What is this?", images: [image] });
    await finishedRun(conversation);
    assert.equal(host.requests[0]?.prompt, "What is this?");
    assert.deepEqual(host.requests[0]?.parts, [image]);
    assert.equal(view.turns()[0]?.context?.summary, "image pasted image.png");
  });

  it("sends nothing when the agent takes no images, and tells the view why so that it keeps the draft", () => {
    host.imagesRefusalText = "pi does not take images: remove the image to send this prompt (nothing was sent).";
    const image = { kind: "image" as const, mimeType: "image/png" as const, data: "iVBORw0KGgo=", name: "shot.png" };
    conversation.handleIntent(view, { type: "send", prompt: "What is this?", images: [image] });
    assert.deepEqual(host.requests, []);
    assert.deepEqual(view.turns(), []);
    assert.deepEqual(view.messages.at(-1), { type: "promptRefused", sessionId: TEST_SESSION_ID, reason: host.imagesRefusalText });
  });

  it("offers an attached selection to the views showing the session, or to the first view to show it", () => {
    const selection = { kind: "selection" as const, path: "src/a.ts", lines: { start: 3, end: 4 }, text: "a\nb", language: "ts" };
    conversation.offerAttachment(selection);
    assert.deepEqual(view.messages.at(-1), { type: "attach", sessionId: TEST_SESSION_ID, attachment: selection });
    const alone = new Conversation(new RecordingHost());
    alone.offerAttachment(selection);
    const late = new RecordingView();
    alone.handleIntent(late, { type: "ready" });
    assert.deepEqual(late.messages.map((message) => message.type), ["snapshot", "attach"]);
    alone.dispose();
  });

  it("tells the agent of an attached selection with its file, lines and text in a fence", async () => {
    const selection = { kind: "selection" as const, path: "src/a.ts", lines: { start: 3, end: 4 }, text: "const a = `x`;\n```\n", language: "ts" };
    conversation.handleIntent(view, { type: "send", prompt: "Why?", attachments: [selection] });
    await finishedRun(conversation);
    const request = host.requests[0];
    assert.equal(promptWithParts(request?.prompt ?? "", request?.parts ?? []), "Why?\n\nSelected text (src/a.ts:3–4):\n````ts\nconst a = `x`;\n```\n````");
    assert.equal(view.turns()[0]?.context?.summary, "selection src/a.ts:3–4");
  });

  it("tells each view the agent's slash commands, now and when it joins", () => {
    conversation.offerCommands([{ name: "compact", description: "Compact" }]);
    assert.deepEqual(view.messages.at(-1), { type: "commands", sessionId: TEST_SESSION_ID, commands: [{ name: "compact", description: "Compact" }] });
    const late = new RecordingView();
    conversation.handleIntent(late, { type: "ready" });
    assert.deepEqual(late.messages.map((message) => message.type), ["snapshot", "commands"]);
  });

  it("drops a question about too many paths, or a path link with a line that is not one", () => {
    conversation.handleIntent(view, { type: "checkPaths", paths: Array.from({ length: 101 }, (_, i) => `f${i}.ts`) });
    conversation.handleIntent(view, { type: "openPath", path: "src/auth.ts", line: 0 });
    assert.deepEqual(host.openedFiles, []);
    assert.equal(host.rejected.length, 2);
  });

  it("streams a prompt's answer to the view, which ends with the same turn as the host", async () => {
    conversation.handleIntent(view, { type: "send", prompt: "What is here?" });
    await finishedRun(conversation);
    const [turn] = view.turns();
    assert.equal(turn.prompt, "What is here?");
    assert.equal(turn.status, "completed");
    assert.deepEqual(
      turn.blocks.map((b) => b.kind),
      ["thinking", "tool", "text"],
    );
    const text = turn.blocks[2];
    assert.equal(text.kind === "text" && text.text, "You asked: What is here?\n\nDone ✅ 完了");
    assert.deepEqual(view.turns(), (conversation.snapshot() as { turns: Turn[] }).turns);
  });

  it("batches a flood of deltas into far fewer messages without losing any", async () => {
    host.scenario = "flood";
    process.env.FAKE_DELTAS = "20000";
    try {
      conversation.send("flood");
      await finishedRun(conversation);
    } finally {
      delete process.env.FAKE_DELTAS;
    }
    const changeMessages = view.messages.filter((m) => m.type === "changes");
    const changes = changeMessages.reduce((n, m) => n + (m.type === "changes" ? m.changes.length : 0), 0);
    assert.ok(changes > 20000, `${changes} changes`);
    assert.ok(changeMessages.length < changes / 10, `${changeMessages.length} messages for ${changes} changes`);
    const text = view.turns()[0].blocks[0];
    assert.equal(text.kind === "text" && text.text.split(" ").filter(Boolean).length, 20000);
  });

  it("gives a view that loads mid-stream a snapshot from which the rest of the stream applies cleanly", async () => {
    host.scenario = "slow";
    conversation.send("tick");
    await new Promise<void>((resolve) => {
      const off = conversation.observe({
        turnChanged: (_turn, change) => {
          if (change.kind === "text-appended") {
            off();
            resolve();
          }
        },
      });
    });
    const late = new RecordingView();
    conversation.handleIntent(late, { type: "ready" });
    await conversation.stop();
    await finishedRun(conversation).catch(() => undefined);
    assert.deepEqual(late.turns(), view.turns());
    assert.equal(late.turns()[0].status, "canceled");
  });

  it("stops a run as canceled, by the user, with nothing of the CLI left", async () => {
    host.scenario = "slow";
    conversation.send("go");
    const run = host.runs[0];
    await new Promise<void>((resolve) => conversation.observe({ turnChanged: (_t, c) => c.kind === "text-appended" && resolve() }));
    conversation.handleIntent(view, { type: "stop" });
    const transcript = await run.finished;
    assert.equal(transcript.status, "canceled");
    const [turn] = view.turns();
    assert.equal(turn.state, "canceled", "the turn says the user stopped it");
    assert.equal(turn.blocks.filter((b) => b.kind === "error").length, 0);
    assert.throws(() => process.kill(run.pid!, 0));
  });

  it("sends nothing more to a view that went away", async () => {
    conversation.detach(view);
    conversation.send("anyone there?");
    await finishedRun(conversation);
    assert.deepEqual(view.messages, [{ type: "snapshot", sessionId: TEST_SESSION_ID, header: TEST_HEADER, turns: [], restriction: null }]);
  });

  describe("messages sent while a turn runs", () => {
    const queueOf = (messages: HostMessage[]) => messages.filter((message): message is Extract<HostMessage, { type: "queue" }> => message.type === "queue").at(-1);

    it("queues them in order and sends the next when the turn completes, each as its own turn", async () => {
      host.scenario = "answer";
      assert.equal(conversation.send("one"), true);
      conversation.handleIntent(view, { type: "send", prompt: "two" });
      conversation.handleIntent(view, { type: "send", prompt: "three" });
      assert.equal(host.runs.length, 1, "nothing more starts while the turn runs");
      assert.deepEqual(queueOf(view.messages)?.items.map((item) => item.prompt), ["two", "three"]);
      await eventually("all three turns", () => host.runs.length === 3 && conversation.lastTurn?.prompt === "three" && !conversation.running);
      assert.deepEqual(view.turns().map((turn) => turn.prompt), ["one", "two", "three"]);
      assert.deepEqual(queueOf(view.messages)?.items, []);
      assert.deepEqual(host.queues.at(-1), [], "the session keeps what waits, and nothing once all went");
    });

    it("holds the queue when the turn fails, and sends it only when the user says so", async () => {
      host.scenario = "crash";
      conversation.send("one");
      conversation.handleIntent(view, { type: "send", prompt: "two" });
      await finishedRun(conversation);
      await eventually("the held queue", () => queueOf(view.messages)?.held === true);
      assert.equal(host.runs.length, 1, "a failed turn does not send the queue unasked");
      host.scenario = "answer";
      conversation.handleIntent(view, { type: "resumeQueue" });
      await eventually("the queued turn", () => conversation.lastTurn?.prompt === "two");
      assert.deepEqual(queueOf(view.messages)?.items, []);
    });

    it("moves, removes and sends now a queued message: Send now stops the turn in band and the message goes next", async () => {
      host.scenario = "slow";
      conversation.send("one");
      for (const prompt of ["a", "b", "c"]) conversation.handleIntent(view, { type: "send", prompt });
      const ids = () => queueOf(view.messages)?.items.map((item) => item.prompt) ?? [];
      const idOf = (prompt: string) => queueOf(view.messages)?.items.find((item) => item.prompt === prompt)?.id ?? "";
      conversation.handleIntent(view, { type: "queued", action: "up", id: idOf("c") });
      assert.deepEqual(ids(), ["a", "c", "b"]);
      conversation.handleIntent(view, { type: "queued", action: "remove", id: idOf("a") });
      assert.deepEqual(ids(), ["c", "b"]);
      host.scenario = "answer";
      conversation.handleIntent(view, { type: "queued", action: "sendNow", id: idOf("b") });
      await eventually("the message sent now", () => conversation.lastTurn?.prompt === "b");
      assert.equal(view.turns()[0]?.status, "canceled", "the running turn was stopped for it");
      await eventually("the rest", () => conversation.lastTurn?.prompt === "c" && !conversation.running);
    });

    it("steers a queued message sent now into a turn whose agent takes one: no turn stops, and it shows in the running turn", async () => {
      host.steerable = true;
      conversation.send("one");
      conversation.handleIntent(view, { type: "send", prompt: "Also say it in French." });
      const [queued] = queueOf(view.messages)?.items ?? [];
      assert.ok(queued);
      conversation.handleIntent(view, { type: "queued", action: "sendNow", id: queued.id });
      assert.deepEqual(queueOf(view.messages)?.items, [], "it left the queue at once");
      await finishedRun(conversation);
      await eventually("the turn's end in the view", () => view.turns()[0]?.status !== null);
      assert.equal(host.runs.length, 1, "no turn of its own");
      const [turn] = view.turns();
      assert.equal(turn.status, "completed");
      assert.deepEqual(turn.blocks.filter((block) => block.kind === "steer"), [{ kind: "steer", text: "Also say it in French." }]);
    });

    it("steers the composer's Send now into the running turn, or stops a turn that takes none and sends it next", async () => {
      host.steerable = true;
      conversation.send("one");
      conversation.handleIntent(view, { type: "sendNow", prompt: "Also say it in French." });
      await finishedRun(conversation);
      assert.equal(host.runs.length, 1);
      host.steerable = false;
      host.scenario = "slow";
      conversation.send("two");
      host.scenario = "answer";
      conversation.handleIntent(view, { type: "sendNow", prompt: "three" });
      await eventually("the message sent now", () => conversation.lastTurn?.prompt === "three" && !conversation.running);
      assert.deepEqual(view.turns().map((turn) => [turn.prompt, turn.status]), [["one", "completed"], ["two", "canceled"], ["three", "completed"]]);
      assert.equal(view.turns()[0]?.blocks.filter((block) => block.kind === "steer").length, 1);
    });

    it("tells the agent of the files attached to a message sent now, and shows only the user's words in the turn", async () => {
      host.steerable = true;
      conversation.send("one");
      conversation.handleIntent(view, { type: "sendNow", prompt: "Check this too", attachments: [{ path: "src/auth.ts", kind: "file" }] });
      await finishedRun(conversation);
      await eventually("the turn's end in the view", () => view.turns()[0]?.status !== null);
      const [turn] = view.turns();
      assert.deepEqual(turn.blocks.filter((block) => block.kind === "steer"), [{ kind: "steer", text: "Check this too" }]);
      // What Claude echoed as the message it took: the words and the attachment, as the agent got them.
      const took = turn.blocks.find((block) => block.kind === "status" && block.status === "prompt");
      assert.match(took?.kind === "status" ? (took.message ?? "") : "", /^Check this too\n\n[^]*- @src\/auth\.ts/);
    });

    it("sends a steered message pi never took as the next turn, once, when its run ends without it, and the turn says it was not taken", async () => {
      host.steerable = true;
      host.steersLate = true;
      conversation.send("one");
      conversation.handleIntent(view, { type: "sendNow", prompt: "Also say it in French.", attachments: [{ path: "src/auth.ts", kind: "file" }] });
      // The next turn is a plain one; the steered run is pi's.
      host.steerable = false;
      host.scenario = "answer";
      await eventually("the untaken message's own turn", () => conversation.lastTurn?.prompt === "Also say it in French." && !conversation.running);
      assert.deepEqual(view.turns().map((turn) => [turn.prompt, turn.status]), [["one", "completed"], ["Also say it in French.", "completed"]]);
      const untaken = { kind: "steer", text: "Also say it in French.", untaken: "sent next" };
      assert.deepEqual(view.turns()[0]?.blocks.filter((block) => block.kind === "steer"), [untaken], "the turn does not claim pi took it");
      assert.deepEqual(host.persisted?.[0]?.blocks.filter((block) => block.kind === "steer"), [untaken], "and is kept so");
      assert.equal(host.runs.length, 2, "sent once more, as a turn of its own");
      assert.deepEqual(host.requests[1]?.parts, [{ path: "src/auth.ts", kind: "file" }], "with what was attached to it");
      assert.deepEqual(queueOf(view.messages)?.items, [], "nothing left waiting");
    });

    it("puts a steered message Claude had not taken when the user stopped back in the held queue, and the turn says so", async () => {
      host.steerable = true;
      host.steerTakes = 1;
      conversation.send("one");
      conversation.handleIntent(view, { type: "sendNow", prompt: "Also say it in French." });
      await eventually("the steered message in the turn", () => conversation.lastTurn?.blocks.some((block) => block.kind === "steer") === true);
      await conversation.stop();
      await eventually("the held queue", () => queueOf(view.messages)?.held === true);
      assert.deepEqual(queueOf(view.messages)?.items.map((item) => item.prompt), ["Also say it in French."]);
      assert.equal(host.runs.length, 1, "a stopped turn does not send the queue unasked");
      const untaken = { kind: "steer", text: "Also say it in French.", untaken: "queued" };
      assert.deepEqual(view.turns()[0]?.blocks.filter((block) => block.kind === "steer"), [untaken]);
      assert.deepEqual(host.persisted?.[0]?.blocks.filter((block) => block.kind === "steer"), [untaken]);
    });

    it("never steers a message sent now with an image: the turn stops and it goes next, image and all", async () => {
      host.steerable = true;
      conversation.send("one");
      const image = { kind: "image" as const, mimeType: "image/png" as const, data: "iVBORw0KGgo=", name: "pasted image.png" };
      conversation.handleIntent(view, { type: "sendNow", prompt: "What is this?", images: [image] });
      // The next turn is a plain one; the steerable run is the one that must have been stopped.
      host.steerable = false;
      await eventually("the message sent now", () => conversation.lastTurn?.prompt === "What is this?" && !conversation.running);
      assert.equal(view.turns()[0]?.status, "canceled", "the running turn was stopped for it");
      assert.equal(view.turns()[0]?.blocks.filter((block) => block.kind === "steer").length, 0, "nothing was steered");
      assert.deepEqual(host.requests[1]?.parts, [image]);
    });

    it("refuses a message sent now with an image its agent does not take, and runs on", () => {
      host.scenario = "slow";
      conversation.send("one");
      host.imagesRefusalText = "fake-locus takes no images.";
      const image = { kind: "image" as const, mimeType: "image/png" as const, data: "iVBORw0KGgo=", name: "pasted image.png" };
      conversation.handleIntent(view, { type: "sendNow", prompt: "What is this?", images: [image] });
      assert.ok(view.messages.some((message) => message.type === "promptRefused" && message.reason === "fake-locus takes no images."));
      assert.ok(conversation.running, "the running turn was not stopped");
    });

    it("restores a stored queue held: the turn it waited for ended with the window", () => {
      const restored = new Conversation(new RecordingHost());
      restored.restoreQueue([{ id: "q1", prompt: "later", context: null, createdAt: 1 }]);
      const late = new RecordingView();
      restored.handleIntent(late, { type: "ready" });
      assert.deepEqual(queueOf(late.messages), { type: "queue", sessionId: TEST_SESSION_ID, items: [{ id: "q1", prompt: "later", summary: null }], held: true });
      restored.dispose();
    });
  });

  it("runs nothing in Restricted Mode and tells the view why", () => {
    host.restrictionText = "Restricted Mode";
    conversation.refresh();
    conversation.handleIntent(view, { type: "send", prompt: "hello" });
    assert.equal(host.runs.length, 0);
    assert.deepEqual(view.messages.at(-1), { type: "snapshot", sessionId: TEST_SESSION_ID, header: TEST_HEADER, turns: [], restriction: "Restricted Mode" });
  });

  it("sends the editor context to the agent, while the turn keeps the user's words and a summary", async () => {
    const context = { summary: "workspace shop · src/cart.ts", text: "Context from the editor:\n- Active file: src/cart.ts (typescript)" };
    conversation.send("Why?", context);
    await finishedRun(conversation);
    const [turn] = view.turns();
    assert.equal(turn.prompt, "Why?");
    assert.deepEqual(turn.context, context);
    const answer = turn.blocks.find((b) => b.kind === "text");
    assert.match(answer?.kind === "text" ? answer.text : "", /You asked: Why\?\n\nContext from the editor:\n- Active file: src\/cart\.ts/);
  });

  it("retries a turn with the same prompt and context, stopping it first if it still runs", async () => {
    host.scenario = "slow";
    const context = { summary: "s", text: "Context from the editor:\n- Workspace folder: /w" };
    conversation.send("again?", context);
    const first = host.runs[0];
    assert.equal(await conversation.retry(view.turns()[0]), true);
    assert.equal((await first.finished).status, "canceled");
    assert.throws(() => process.kill(first.pid!, 0), "the first run's CLI is gone");
    const turns = view.turns();
    assert.deepEqual(
      turns.map((t) => [t.prompt, t.context]),
      [
        ["again?", context],
        ["again?", context],
      ],
    );
    await conversation.stop();
  });

  it("retries a turn with its attachments and images as they were sent, not as text", async () => {
    const image = { kind: "image" as const, mimeType: "image/png" as const, data: "iVBORw0KGgo=", name: "shot.png" };
    const parts = [{ path: "src/a.ts", kind: "file" as const }, image];
    conversation.handleIntent(view, { type: "send", prompt: "Look", attachments: [parts[0]], images: [image] });
    await finishedRun(conversation);
    assert.equal(await conversation.retry(view.turns()[0]), true);
    await finishedRun(conversation);
    assert.deepEqual(host.requests.map((request) => [request.prompt, request.parts]), [
      ["Look", parts],
      ["Look", parts],
    ]);
  });

  it("retries an earlier turn, not only the last, with the files, selection and images it was sent with", async () => {
    const image = { kind: "image" as const, mimeType: "image/png" as const, data: "iVBORw0KGgo=", name: "shot.png" };
    const file = { path: "src/a.ts", kind: "file" as const };
    const selection = { path: "src/b.ts", kind: "selection" as const, lines: { start: 2, end: 3 }, text: "const b = 2;", language: "typescript" };
    conversation.handleIntent(view, { type: "send", prompt: "Look", attachments: [file, selection], images: [image] });
    await finishedRun(conversation);
    conversation.handleIntent(view, { type: "send", prompt: "And then?" });
    await finishedRun(conversation);
    assert.equal(await conversation.retry(view.turns()[0]), true);
    await finishedRun(conversation);
    assert.deepEqual(host.requests.at(-1)?.parts, [file, selection, image]);
    assert.equal(host.requests.at(-1)?.prompt, "Look");
  });

  it("retries with its files, without its images, said in the log, when the agent now answering takes none", async () => {
    const image = { kind: "image" as const, mimeType: "image/png" as const, data: "iVBORw0KGgo=", name: "shot.png" };
    const file = { path: "src/a.ts", kind: "file" as const };
    conversation.handleIntent(view, { type: "send", prompt: "Look", attachments: [file], images: [image] });
    await finishedRun(conversation);
    host.imagesRefusalText = "The built-in agent does not take images: remove the image to send this prompt (nothing was sent).";
    assert.equal(await conversation.retry(view.turns()[0]), true);
    await finishedRun(conversation);
    assert.deepEqual(host.requests[1]?.parts, [file]);
    assert.match(host.rejected.at(-1) ?? "", /^retried without its images: The built-in agent does not take images/);
  });

  it("retries without its images, said in the log, when the agent now answering takes none", async () => {
    const image = { kind: "image" as const, mimeType: "image/png" as const, data: "iVBORw0KGgo=", name: "shot.png" };
    conversation.handleIntent(view, { type: "send", prompt: "Look", images: [image] });
    await finishedRun(conversation);
    host.imagesRefusalText = "The built-in agent does not take images: remove the image to send this prompt (nothing was sent).";
    assert.equal(await conversation.retry(view.turns()[0]), true);
    await finishedRun(conversation);
    assert.equal(host.requests[1]?.parts, undefined);
    assert.match(host.requests[1]?.prompt ?? "", /^Look/);
    assert.match(host.rejected.at(-1) ?? "", /^retried without its images: The built-in agent does not take images/);
  });

  it("replays a recorded stream in Restricted Mode without running anything", async () => {
    host.restrictionText = "Restricted Mode";
    const stream = cli.toNdjson([cli.start(), cli.textDelta("recorded answer"), cli.done()]);
    const started = conversation.replay("Replay of answer.ndjson", (listener) => new ReplayRun(cli.chunksOf([stream]), { adapter: createAdapter("locus"), ...listener }));
    assert.equal(started, true);
    await finishedRun(conversation);
    assert.equal(host.runs.length, 0);
    const [turn] = view.turns();
    assert.deepEqual([turn.prompt, turn.origin, turn.status], ["Replay of answer.ndjson", "replay", "completed"]);
    assert.deepEqual(turn.blocks, [{ kind: "text", text: "recorded answer" }]);
  });

  it("holds a replayed stream once, in its turn: the replay's run keeps no second copy of the transcript", async () => {
    const stream = cli.toNdjson([cli.start(), cli.textDelta("recorded "), cli.textDelta("answer"), cli.toolStarted("Read", "read-1", { file: "a.ts" }), cli.done()]);
    let run: ReplayRun | undefined;
    conversation.replay("Replay of answer.ndjson", (listener) => (run = new ReplayRun(cli.chunksOf([stream]), { adapter: createAdapter("locus"), ...listener })));
    await finishedRun(conversation);
    const [turn] = view.turns();
    assert.deepEqual(turn.blocks.map((block) => block.kind), ["text", "tool"]);
    assert.equal(turn.blocks[0]?.kind === "text" && turn.blocks[0].text, "recorded answer");
    const kept = await run!.finished;
    assert.equal(kept.status, "completed");
    assert.deepEqual(kept.blocks, []);
  });

  it("refuses a replay while a run is in progress", async () => {
    host.scenario = "slow";
    conversation.send("busy");
    const started = conversation.replay("Replay of x.ndjson", () => assert.fail("nothing may start"));
    assert.equal(started, false);
    assert.equal(view.turns().length, 1);
    await conversation.stop();
  });

  describe("intents", () => {
    const notIntents: [string, unknown][] = [
      ["an unknown type", { type: "runCommand", command: "workbench.action.terminal.new" }],
      ["an extra field", { type: "stop", command: "rm -rf /" }],
      ["a prompt that is not a string", { type: "send", prompt: { toString: "x" } }],
      ["an empty prompt", { type: "send", prompt: "   " }],
      ["a prompt over the size limit", { type: "send", prompt: "x".repeat(100_001) }],
      ["an unknown error action", { type: "errorAction", action: "executeCommand", turnId: 0 }],
      ["a string", "ready"],
      ["null", null],
      ["an array", [{ type: "ready" }]],
    ];
    for (const [what, raw] of notIntents) {
      it(`drops and logs ${what}`, () => {
        const before = view.messages.length;
        conversation.handleIntent(view, raw);
        assert.equal(host.runs.length, 0);
        assert.equal(view.messages.length, before);
        assert.equal(host.rejected.length, 1);
        assert.match(host.rejected[0], /not an intent/);
      });
    }

    it("opens http and https links through the host", () => {
      conversation.handleIntent(view, { type: "openLink", url: "https://example.com/a?b=c#d" });
      conversation.handleIntent(view, { type: "openLink", url: "http://localhost:8080/" });
      assert.deepEqual(host.opened, ["https://example.com/a?b=c#d", "http://localhost:8080/"]);
    });

    for (const url of ["javascript:alert(1)", "command:workbench.action.terminal.new", "vscode://file/etc/passwd", "file:///etc/passwd", "data:text/html,<script>", "https://user:pass@example.com/", "/relative", " JaVaScRiPt:alert(1)"]) {
      it(`refuses to open ${url}`, () => {
        conversation.handleIntent(view, { type: "openLink", url });
        assert.deepEqual(host.opened, []);
        assert.match(host.rejected[0], /not http\(s\)/);
      });
    }

    it("copies text through the host's clipboard", () => {
      conversation.handleIntent(view, { type: "copy", text: "```ts\nx\n```" });
      assert.deepEqual(host.copied, ["```ts\nx\n```"]);
    });

    it("passes an error card's editor action to the host with its turn", async () => {
      host.scenario = "crash";
      conversation.send("x");
      await finishedRun(conversation);
      conversation.handleIntent(view, { type: "errorAction", action: "showLog", turnId: 0 });
      assert.deepEqual(host.actions, [{ action: "showLog", turnId: 0 }]);
    });

    it("retries an error card's turn itself: the same prompt runs again, and the host is asked nothing", async () => {
      host.scenario = "crash";
      conversation.send("the same question");
      await finishedRun(conversation);
      await conversation.runErrorAction("retry", conversation.lastTurn!);
      await finishedRun(conversation);
      assert.deepEqual(
        host.requests.map((r) => r.prompt),
        ["the same question", "the same question"],
      );
      assert.deepEqual(host.actions, []);
    });

    it("switches to the built-in agent through the host, then asks the same again", async () => {
      host.scenario = "crash";
      conversation.send("again please");
      await finishedRun(conversation);
      await conversation.runErrorAction("useBuiltinAgent", conversation.lastTurn!);
      await finishedRun(conversation);
      assert.deepEqual(host.actions, [{ action: "useBuiltinAgent", turnId: 0 }]);
      assert.deepEqual(
        host.requests.map((r) => r.prompt),
        ["again please", "again please"],
      );
    });
  });

  describe("follow-ups", () => {
    const conversationsAsked = () => host.requests.map((r) => r.conversation);

    it("starts a new CLI conversation, then continues it with the next prompt to the same agent", async () => {
      conversation.send("first");
      await finishedRun(conversation);
      conversation.send("second");
      await finishedRun(conversation);
      const [first, second] = conversationsAsked();
      assert.equal(first?.continues, false);
      assert.match(first?.id ?? "", /^[0-9a-f-]{36}$/);
      assert.deepEqual(second, { id: first?.id, continues: true });
    });

    it("starts afresh when another agent answers", async () => {
      conversation.send("first");
      await finishedRun(conversation);
      host.agent = "claude";
      conversation.send("another agent");
      await finishedRun(conversation);
      const [first, otherAgent] = conversationsAsked();
      assert.equal(otherAgent?.continues, false);
      assert.notEqual(otherAgent?.id, first?.id);
    });

    it("does not continue a conversation the CLI never began: a run that crashed before saying anything", async () => {
      host.scenario = "no-such-scenario"; // the fake CLI complains on stderr and exits 64
      conversation.send("first");
      await finishedRun(conversation);
      host.scenario = "answer";
      conversation.send("second");
      await finishedRun(conversation);
      assert.deepEqual(conversationsAsked().map((c) => c.continues), [false, false]);
    });

    it("starts a new CLI conversation after the agent said it no longer has this one, the history still shown", async () => {
      conversation.send("first");
      await finishedRun(conversation);
      host.scenario = "lost";
      conversation.send("second");
      await finishedRun(conversation);
      assert.equal(conversation.lastTurn?.status, "failed");
      host.scenario = "answer";
      conversation.send("third");
      await finishedRun(conversation);
      const [first, second, third] = conversationsAsked();
      assert.deepEqual(second, { id: first?.id, continues: true });
      assert.equal(third?.continues, false, "not the lost conversation again");
      assert.deepEqual(conversation.prompts(), ["first", "second", "third"]);
    });

    it("continues the same CLI conversation after a window reload", async () => {
      conversation.send("first");
      await finishedRun(conversation);
      const id = conversationsAsked()[0]?.id;
      assert.deepEqual(host.persistedCliConversation, { agent: "fake-locus", id });
      const reloadedHost = new RecordingHost();
      const restored = new Conversation(reloadedHost, host.persisted, host.persistedCliConversation);
      restored.send("after the reload");
      await finishedRun(restored);
      assert.deepEqual(reloadedHost.requests[0]?.conversation, { id, continues: true });
      restored.dispose();
    });

    it("continues, after a reload in the middle of a turn, the CLI conversation that turn began once the CLI spoke", async () => {
      conversation.send("first");
      await finishedRun(conversation);
      const first = conversationsAsked()[0]!;
      host.agent = "another agent";
      host.scenario = "slow";
      const saved = new Promise<Turn>((resolve) => {
        host.onPersistRunning = (turn) => {
          if (turn?.blocks.some((b) => b.kind === "text" && b.text.includes("tick"))) resolve(turn);
        };
      });
      conversation.send("interrupted");
      assert.deepEqual(
        host.persistedRunningCliConversation,
        { agent: "fake-locus", id: first.id },
        "before its CLI says anything, the new turn holds no conversation of its own",
      );
      const running = await saved;
      const interrupted = conversationsAsked()[1]!;
      assert.equal(interrupted.continues, false);
      assert.deepEqual(host.persistedRunningCliConversation, { agent: "another agent", id: interrupted.id });

      const reloadedHost = new RecordingHost();
      reloadedHost.agent = "another agent";
      const restored = new Conversation(reloadedHost, [...host.persisted!, running], host.persistedRunningCliConversation);
      restored.send("after the reload");
      await finishedRun(restored);
      assert.deepEqual(reloadedHost.requests[0]?.conversation, { id: interrupted.id, continues: true });
      restored.dispose();
      await conversation.stop();
    });
  });

  describe("across a window reload", () => {
    /** A new conversation (and host) whose saves of a running turn come only when the test moves the clock. */
    function onVirtualClock(): VirtualScheduler {
      const clock = new VirtualScheduler();
      conversation.dispose();
      host = new RecordingHost();
      conversation = new Conversation(host, [], null, clock);
      return clock;
    }

    const textOf = (turn: Turn | null | undefined): string => turn?.blocks.map((b) => (b.kind === "text" ? b.text : "")).join("") ?? "";

    it("keeps finished turns and restores them into a new conversation", async () => {
      conversation.send("remember me");
      await finishedRun(conversation);
      assert.equal(host.persisted?.length, 1);
      const restored = new Conversation(new RecordingHost(), host.persisted);
      const reloaded = new RecordingView();
      restored.handleIntent(reloaded, { type: "ready" });
      assert.deepEqual(reloaded.turns(), view.turns());
      assert.equal(restored.send("next"), true);
      assert.equal(restored.lastTurn?.id, 1, "turn ids continue after the restored ones");
      restored.dispose();
    });

    it("records a run cut short by the window closing as stopped", async () => {
      host.scenario = "slow";
      conversation.send("long");
      const run = host.runs[0];
      await new Promise<void>((resolve) => conversation.observe({ turnChanged: (_t, c) => c.kind === "text-appended" && resolve() }));
      conversation.dispose();
      assert.equal(host.persisted?.[0].status, "canceled");
      assert.equal(host.persisted?.[0].state, "canceled");
      await run.finished;
      assert.throws(() => process.kill(run.pid!, 0));
    });

    it("saves a running turn as it streams, as a reload would leave it: what it said so far, then Stopped", async () => {
      const clock = onVirtualClock();
      host.scenario = "slow";
      conversation.send("long");
      assert.equal(host.persistedRunning?.prompt, "long", "the prompt is saved as soon as it is sent");
      await changeWhere(conversation, (change) => change.kind === "text-appended");
      clock.advance(SAVE_RUNNING_MS - 1);
      assert.equal(textOf(host.persistedRunning), "", "not saved again before its interval");
      clock.advance(1);
      const turn = host.persistedRunning!;
      assert.match(textOf(turn), /tick/);
      assert.equal(conversation.running, true, "saved while the run goes on");
      assert.equal(host.persisted, undefined, "the finished turns are not written again while it runs");
      assert.equal(turn.status, "canceled");
      assert.equal(turn.state, "canceled");
      assert.equal(turn.done?.synthesized, true);
      assert.equal(conversation.lastTurn?.status, null, "the live turn is not touched");

      const reloaded = new RecordingView();
      const restored = new Conversation(new RecordingHost(), [turn]);
      restored.handleIntent(reloaded, { type: "ready" });
      const [shown] = reloaded.turns();
      assert.equal(shown?.status, "canceled");
      assert.match(shown?.blocks.map((b) => (b.kind === "text" ? b.text : "")).join("") ?? "", /^(tick )+$/);
      restored.dispose();
      await conversation.stop();
      assert.equal(host.persistedRunning, null, "once the turn has ended it is kept with the others");
      assert.equal((host.persisted as readonly Turn[] | undefined)?.length, 1);
    });

    it("saves a request still waiting in a running turn as cancelled: a reloaded window offers no answer to it", async () => {
      const asking = askingRun(conversation);
      await eventually("the request is shown", () => conversation.lastTurn?.blocks[0]?.kind === "permission");
      conversation.dispose();
      asking.release();
      const [saved] = host.persisted ?? [];
      assert.deepEqual(saved?.blocks[0], permissionBlock({ decision: "cancelled" }));
      const reloaded = new RecordingView();
      const restored = new Conversation(new RecordingHost(), host.persisted);
      restored.handleIntent(reloaded, { type: "ready" });
      assert.deepEqual(reloaded.turns()[0]?.blocks[0], permissionBlock({ decision: "cancelled" }));
      restored.dispose();
    });

    it("saves the running turn, as it streams, with its waiting request cancelled; the live turn's still waits", async () => {
      const saved = new Promise<Turn>((resolve) => {
        host.onPersistRunning = (turn) => {
          if (turn?.blocks[0]?.kind === "permission") resolve(turn);
        };
      });
      const asking = askingRun(conversation);
      const turn = await saved;
      assert.deepEqual(turn.blocks[0], permissionBlock({ decision: "cancelled" }));
      assert.deepEqual(conversation.lastTurn?.blocks[0], permissionBlock(), "the request still waits for the user here");
      asking.release();
      await finishedRun(conversation);
    });

    it("restores a request saved waiting (by an earlier version) as cancelled, and takes no answer for it", () => {
      const restored = new Conversation(host, [turnWith(0, [permissionBlock()])]);
      const reloaded = new RecordingView();
      restored.handleIntent(reloaded, { type: "ready" });
      assert.deepEqual(reloaded.turns()[0]?.blocks[0], permissionBlock({ decision: "cancelled" }));
      restored.handleIntent(reloaded, { type: "answerPermission", turnId: 0, requestId: "1", optionId: "allow-once" });
      assert.match(host.rejected[0] ?? "", /not waiting/);
      restored.dispose();
    });

    it("saves a running turn with a huge answer less often, in proportion to its size", async () => {
      const clock = onVirtualClock();
      const hugeChars = 2 * SAVED_CHARS_PER_SECOND;
      let more!: () => void;
      let end!: () => void;
      const paused = new Promise<void>((resolve) => (more = resolve));
      const ended = new Promise<void>((resolve) => (end = resolve));
      async function* stream(): AsyncGenerator<string> {
        yield cli.toNdjson([cli.start(), cli.textDelta("x".repeat(hugeChars))]);
        await paused;
        yield cli.toNdjson([cli.textDelta("more")]);
        await ended;
        yield cli.toNdjson([cli.done()]);
      }
      const savedChars = () => textOf(host.persistedRunning).length;
      conversation.replay("huge", (listener) => new ReplayRun(stream(), { adapter: createAdapter("locus"), ...listener }));
      await changeWhere(conversation, (_change, turn) => textOf(turn).length === hugeChars);
      clock.advance(SAVE_RUNNING_MS);
      assert.equal(savedChars(), hugeChars);
      more();
      await changeWhere(conversation, (change) => change.kind === "text-appended" && change.text === "more");
      clock.advance(runningSaveDelayMs(hugeChars) - 1);
      assert.equal(savedChars(), hugeChars, "not saved again before the longer interval of a 2 MB answer");
      // What is saved holds the prompt too: a few characters more, whose interval may be a millisecond longer.
      clock.advance(2);
      assert.equal(savedChars(), hugeChars + "more".length);
      end();
      await finishedRun(conversation);
      assert.deepEqual([runningSaveDelayMs(0), runningSaveDelayMs(SAVED_CHARS_PER_SECOND), runningSaveDelayMs(hugeChars)], [SAVE_RUNNING_MS, SAVE_RUNNING_MS, 2 * SAVE_RUNNING_MS]);
    });

  });

  describe("what ACP agents show: diffs and permission requests", () => {
    const first: ToolDiff = { path: "/w/a.ts", oldText: "a\n", newText: "b\n" };
    const second: ToolDiff = { path: "/w/b.ts", oldText: null, newText: "new\n" };
    let agentTurns: Conversation;

    beforeEach(() => {
      const turn = turnWith(0, [
        { kind: "text", text: "Editing.", truncatedChars: undefined },
        toolBlock({ toolKind: "edit", diffs: [first, second] }),
        permissionBlock(),
        permissionBlock({ requestId: "2", decision: "allowed", optionId: "allow-once", answeredBy: "user" }),
      ]);
      agentTurns = new Conversation(host, [turn]);
    });

    afterEach(() => agentTurns.dispose());

    it("opens the diff the named tool card holds, from the host's own copy of the turn", () => {
      agentTurns.handleIntent(view, { type: "openDiff", turnId: 0, blockIndex: 1, diffIndex: 1 });
      assert.deepEqual(host.openedDiffs, [second]);
      assert.deepEqual(host.rejected, []);
    });

    for (const [what, intent] of [
      ["a diff past the card's last", { type: "openDiff", turnId: 0, blockIndex: 1, diffIndex: 2 }],
      ["a block that is not a tool card", { type: "openDiff", turnId: 0, blockIndex: 0, diffIndex: 0 }],
      ["a turn that does not exist", { type: "openDiff", turnId: 7, blockIndex: 1, diffIndex: 0 }],
    ] as const) {
      it(`opens no diff for ${what}, and says so in the log`, () => {
        agentTurns.handleIntent(view, intent);
        assert.deepEqual(host.openedDiffs, []);
        assert.match(host.rejected[0] ?? "", /Open Diff for a diff that does not exist/);
      });
    }

    /** The turn of a run whose requests (`1`, …) wait, once they are shown, and the answers its run took. */
    async function waitingRequests(options: { requests?: number; takesAnswers?: boolean } = {}) {
      const { requests = 1, takesAnswers = true } = options;
      const answered: { requestId: string; optionId: string | null }[] = [];
      const asking = askingRun(agentTurns, takesAnswers ? answered : undefined, requests);
      const turn = await eventually("the requests are shown", () => (agentTurns.lastTurn?.blocks.length === requests ? agentTurns.lastTurn : undefined));
      return { turnId: turn.id, answered, release: asking.release };
    }

    it("passes the user's answer to the run that asked, by the request's id: the option's id, or null when dismissed", async () => {
      const { turnId, answered, release } = await waitingRequests();
      agentTurns.handleIntent(view, { type: "answerPermission", turnId, requestId: "1", optionId: "reject-once" });
      agentTurns.handleIntent(view, { type: "answerPermission", turnId, requestId: "1", optionId: null });
      assert.deepEqual(answered, [
        { requestId: "1", optionId: "reject-once" },
        { requestId: "1", optionId: null },
      ]);
      release();
    });

    it("gives each of two requests that look alike its own answer", async () => {
      const { turnId, answered, release } = await waitingRequests({ requests: 2 });
      agentTurns.handleIntent(view, { type: "answerPermission", turnId, requestId: "2", optionId: "reject-once" });
      agentTurns.handleIntent(view, { type: "answerPermission", turnId, requestId: "1", optionId: "allow-once" });
      assert.deepEqual(answered, [
        { requestId: "2", optionId: "reject-once" },
        { requestId: "1", optionId: "allow-once" },
      ]);
      release();
    });

    it("refuses an answer that is not one of the agent's options: never a guess", async () => {
      const { turnId, answered, release } = await waitingRequests();
      agentTurns.handleIntent(view, { type: "answerPermission", turnId, requestId: "1", optionId: "allow-everything" });
      assert.deepEqual(answered, []);
      assert.match(host.rejected[0] ?? "", /not one of the agent's options/);
      release();
    });

    it("drops, with a log line, an answer to a run that takes none", async () => {
      const { turnId, release } = await waitingRequests({ takesAnswers: false });
      agentTurns.handleIntent(view, { type: "answerPermission", turnId, requestId: "1", optionId: "allow-once" });
      assert.match(host.rejected[0] ?? "", /no run waits for/);
      release();
    });

    it("refuses an answer to a request already answered, to an id no request has, or to a turn that no longer runs", () => {
      agentTurns.handleIntent(view, { type: "answerPermission", turnId: 0, requestId: "2", optionId: "allow-once" });
      agentTurns.handleIntent(view, { type: "answerPermission", turnId: 0, requestId: "7", optionId: "allow-once" });
      agentTurns.handleIntent(view, { type: "answerPermission", turnId: 0, requestId: "1", optionId: "allow-once" });
      assert.equal(host.rejected.filter((reason) => /not waiting/.test(reason)).length, 3);
    });
  });

  it("accepts only absolute http(s) links without credentials", () => {
    assert.equal(checkedLink("https://example.com"), "https://example.com/");
    assert.equal(checkedLink("ftp://example.com"), null);
    assert.equal(checkedLink("example.com"), null);
  });
});
