import * as assert from "node:assert/strict";
import { STDERR_EXCERPT_CHARS } from "../../../src/common/stderr-excerpt";
import type { CliStreamEvent, EventOfType } from "../../../src/protocol/events";
import type { SessionChange } from "../../../src/protocol/messages";
import { Session, type ProcessEnding } from "../../../src/session/session";
import { assertQuickOn, repeated } from "../../helpers/hostile-text";

const SID = "11111111-2222-3333-4444-555555555555";
let clock = 1_000;

function event<T extends CliStreamEvent["type"]>(type: T, payload: EventOfType<T>["payload"], timestamp = clock++): EventOfType<T> {
  return { protocol: 1, type, sessionId: SID, timestamp, payload } as EventOfType<T>;
}

const start = () => event("start", { command: "exec" });
const text = (content: string) => event("text_delta", { content });
const thinking = (content: string) => event("thinking", { content });
const done = (success = true, exitCode = success ? 0 : 1) => event("done", { exitCode, duration: 50, success });

function newSession() {
  const events: CliStreamEvent[] = [];
  const changes: SessionChange[] = [];
  let now = 10_000;
  const session = new Session({
    dialect: "locus",
    now: () => now,
    onEvent: (e) => events.push(e),
    onChange: (c) => changes.push(c),
  });
  const feed = (...list: CliStreamEvent[]) => list.forEach((e, i) => session.acceptEvent(e, i + 1));
  const advance = (ms: number) => (now += ms);
  return { session, events, changes, feed, advance };
}

function exited(overrides: Partial<ProcessEnding> = {}): ProcessEnding {
  return { reason: "exited", exitCode: 0, signal: null, stderrTail: "", ...overrides };
}

describe("Session", () => {
  describe("transcript", () => {
    it("coalesces consecutive text deltas into one text block", () => {
      const { session, feed } = newSession();
      feed(start(), text("Hel"), text("lo "), text("world"), done());
      assert.deepEqual(session.toTranscript().blocks, [{ kind: "text", text: "Hello world" }]);
    });

    it("starts a new text block after a block of another kind", () => {
      const { session, feed } = newSession();
      feed(start(), thinking("hmm "), thinking("ok"), text("A"), event("status", { status: "x" }), text("B"), done());
      assert.deepEqual(
        session.toTranscript().blocks.map((b) => [b.kind, "text" in b ? b.text : null]),
        [["thinking", "hmm ok"], ["text", "A"], ["status", null], ["text", "B"]],
      );
    });

    it("pairs tool calls by toolId even when they complete out of order", () => {
      const { session, feed } = newSession();
      feed(
        start(),
        event("tool_started", { tool: "Read", toolId: "a", parameters: { file_path: "/x" } }),
        event("tool_started", { tool: "Read", toolId: "b" }),
        event("tool_completed", { tool: "Read", toolId: "b", success: false, error: "denied", duration: 7 }),
        event("tool_completed", { tool: "Read", toolId: "a", success: true, duration: 3 }),
        done(),
      );
      const tools = session.toTranscript().blocks;
      assert.deepEqual(tools, [
        { kind: "tool", tool: "Read", toolId: "a", parameters: { file_path: "/x" }, status: "succeeded", durationMs: 3, error: null, toolKind: null, title: null, output: null, diffs: [], locations: [] },
        { kind: "tool", tool: "Read", toolId: "b", parameters: null, status: "failed", durationMs: 7, error: "denied", toolKind: null, title: null, output: null, diffs: [], locations: [] },
      ]);
      assert.deepEqual(session.problems, []);
    });

    it("pairs tool calls without toolId by name, oldest first", () => {
      const { session, feed } = newSession();
      feed(
        start(),
        event("tool_started", { tool: "Grep", parameters: { pattern: "one" } }),
        event("tool_started", { tool: "Bash", parameters: { command: "ls" } }),
        event("tool_started", { tool: "Grep", parameters: { pattern: "two" } }),
        event("tool_completed", { tool: "Grep", success: true }),
        done(),
      );
      const statuses = session.toTranscript().blocks.map((b) => (b.kind === "tool" ? `${b.tool}:${String(b.parameters?.pattern ?? b.parameters?.command)}:${b.status}` : b.kind));
      assert.deepEqual(statuses, ["Grep:one:succeeded", "Bash:ls:abandoned", "Grep:two:abandoned"]);
    });

    it("measures a tool's duration from event timestamps when the CLI gives none", () => {
      const { session, feed } = newSession();
      feed(start(), event("tool_started", { tool: "Read", toolId: "t" }, 5_000), event("tool_completed", { tool: "Read", toolId: "t", success: true }, 5_250), done());
      const card = session.toTranscript().blocks[0];
      assert.equal(card.kind === "tool" && card.durationMs, 250);
    });

    it("still makes a card for tool_completed without tool_started, and reports it", () => {
      const { session, feed, events } = newSession();
      feed(start(), event("tool_completed", { tool: "Edit", toolId: "z", success: true, duration: 4 }), done());
      assert.deepEqual(session.toTranscript().blocks, [
        { kind: "tool", tool: "Edit", toolId: "z", parameters: null, status: "succeeded", durationMs: 4, error: null, toolKind: null, title: null, output: null, diffs: [], locations: [] },
      ]);
      assert.deepEqual(session.problems.map((p) => [p.line, p.code]), [[2, "OUT_OF_ORDER"]]);
      // The normalized stream stays valid: a started precedes the completed.
      assert.deepEqual(events.map((e) => e.type), ["start", "tool_started", "tool_completed", "done"]);
    });

    it("ends tools still running at done as abandoned", () => {
      const { session, feed } = newSession();
      feed(start(), event("tool_started", { tool: "Bash", toolId: "1" }), done());
      const card = session.toTranscript().blocks[0];
      assert.equal(card.kind === "tool" && card.status, "abandoned");
    });

    it("keeps the CLI's done summary, with tools and tokens", () => {
      const { session, feed } = newSession();
      feed(start(), event("done", { exitCode: 0, duration: 1234, toolsUsed: ["Read"], tokensUsed: 99, success: true }));
      const t = session.toTranscript();
      assert.equal(t.status, "completed");
      assert.deepEqual(t.done, { exitCode: 0, durationMs: 1234, toolsUsed: ["Read"], tokensUsed: 99, success: true, synthesized: false, usage: null });
      assert.equal(t.sessionId, SID);
    });

    it("fills toolsUsed from the tools it saw when done leaves it out", () => {
      const { session, feed } = newSession();
      feed(start(), event("tool_started", { tool: "Read" }), event("tool_completed", { tool: "Read", success: true }), event("tool_started", { tool: "Grep" }), event("tool_completed", { tool: "Grep", success: true }), done());
      assert.deepEqual(session.toTranscript().done.toolsUsed, ["Read", "Grep"]);
    });

    it("marks a session failed when done says it did not succeed", () => {
      const { session, feed } = newSession();
      feed(start(), event("error", { error: { code: "AUTH_EXPIRED", message: "log in", recoverable: false } }), done(false));
      const t = session.toTranscript();
      assert.equal(t.status, "failed");
      assert.deepEqual(t.blocks, [{ kind: "error", code: "AUTH_EXPIRED", message: "log in", recoverable: false }]);
    });
  });

  describe("ordering guarantees", () => {
    it("synthesizes a start when the stream begins without one, and reports it", () => {
      const { session, feed, events } = newSession();
      feed(text("hi"), done());
      assert.deepEqual(events.map((e) => e.type), ["start", "text_delta", "done"]);
      assert.equal(events[0].sessionId, SID);
      assert.deepEqual(session.problems.map((p) => [p.line, p.code]), [[1, "OUT_OF_ORDER"]]);
    });

    it("drops events after done and reports each", () => {
      const { session, feed, events } = newSession();
      feed(start(), text("a"), done(), text("late"), done());
      assert.deepEqual(events.map((e) => e.type), ["start", "text_delta", "done"]);
      assert.deepEqual(session.toTranscript().blocks, [{ kind: "text", text: "a" }]);
      assert.deepEqual(session.problems.map((p) => [p.line, p.code]), [[4, "OUT_OF_ORDER"], [5, "OUT_OF_ORDER"]]);
    });

    it("ignores a second start and reports it", () => {
      const { session, feed, events } = newSession();
      feed(start(), text("a"), start(), done());
      assert.deepEqual(events.map((e) => e.type), ["start", "text_delta", "done"]);
      assert.equal(session.problems[0].code, "OUT_OF_ORDER");
    });

    it("reports an event between a fatal error and done", () => {
      const { session, feed } = newSession();
      feed(start(), event("error", { error: { code: "UNKNOWN", message: "boom", recoverable: false } }), text("more"), done(false));
      assert.deepEqual(session.problems.map((p) => [p.line, p.code]), [[3, "OUT_OF_ORDER"]]);
    });

    it("does not report events after a recoverable error", () => {
      const { session, feed } = newSession();
      feed(start(), event("error", { error: { code: "NETWORK_TIMEOUT", message: "retrying", recoverable: true } }), text("ok"), done());
      assert.deepEqual(session.problems, []);
      assert.equal(session.toTranscript().status, "completed");
    });

    it("synthesizes done when a replayed stream ends without one", () => {
      const { session, feed, events } = newSession();
      feed(start(), text("cut"));
      session.endOfStream();
      const t = session.toTranscript();
      assert.equal(t.status, "failed");
      assert.equal(t.done.synthesized, true);
      assert.equal(t.done.success, false);
      assert.equal(events.at(-1)?.type, "done");
      assert.deepEqual(session.problems.map((p) => p.code), ["MISSING_DONE"]);
    });

    it("keeps malformed lines out of the blocks but in problems and in the normalized stream as recoverable errors", () => {
      const { session, feed, events } = newSession();
      feed(start());
      session.acceptProblem({ line: 2, code: "MALFORMED_EVENT", message: "not JSON" });
      feed(done());
      assert.deepEqual(session.toTranscript().blocks, []);
      assert.equal(session.problems.length, 1);
      const error = events[1];
      assert.equal(error.type, "error");
      assert.deepEqual(error.type === "error" && error.payload.error, { code: "MALFORMED_EVENT", message: "line 2: not JSON", recoverable: true });
    });

    it("holds a malformed line seen before start until the real start arrives", () => {
      const { session, events, feed } = newSession();
      session.acceptProblem({ line: 1, code: "MALFORMED_EVENT", message: "not JSON: \"Loading…\"" });
      feed(start(), done());
      assert.deepEqual(events.map((e) => e.type), ["start", "error", "done"]);
      assert.equal(events[0].sessionId, SID);
      assert.deepEqual(session.problems.map((p) => p.code), ["MALFORMED_EVENT"]);
    });
  });

  describe("when the process ends", () => {
    it("reports a crash with the exit code and stderr tail, and synthesizes done with that code", () => {
      const { session, feed, events, advance } = newSession();
      session.begin();
      feed(start(), text("partial"));
      advance(700);
      session.processEnded(exited({ exitCode: 3, stderrTail: "line one\nTypeError: boom\n" }));
      const t = session.toTranscript();
      assert.equal(t.status, "failed");
      const error = t.blocks.at(-1);
      assert.equal(error?.kind, "error");
      assert.ok(error?.kind === "error" && error.code === "PROCESS_CRASHED");
      assert.match(error.message, /exited with code 3/);
      assert.match(error.message, /TypeError: boom/);
      assert.deepEqual(t.done, { exitCode: 3, durationMs: 700, toolsUsed: [], tokensUsed: null, success: false, synthesized: true, usage: null });
      assert.deepEqual(events.map((e) => e.type), ["start", "text_delta", "error", "done"]);
    });

    it("reports a crash whose 64 KB stderr tail is blanks before a last word in well under a second", () => {
      const { session, feed } = newSession();
      session.begin();
      feed(start());
      const stderrTail = `${repeated(" ", 64 * 1024)}fatal: out of memory\n`;
      assertQuickOn("a stderr tail of blanks", () => session.processEnded(exited({ exitCode: 134, stderrTail })));
      const error = session.toTranscript().blocks.at(-1);
      assert.ok(error?.kind === "error");
      // Cut to the excerpt's bound, and said so; the last word kept.
      assert.match(error.message, /^The CLI exited with code 134 [^\n]*\nLast lines of stderr:\n\[… earlier lines of stderr left out\]\n {1000}/);
      assert.ok(error.message.endsWith(" fatal: out of memory"));
      assert.ok(error.message.length < STDERR_EXCERPT_CHARS + 200, `${error.message.length} characters`);
    });

    it("names the signal when the CLI was killed by one", () => {
      const { session, feed } = newSession();
      session.begin();
      feed(start());
      session.processEnded(exited({ exitCode: null, signal: "SIGKILL" }));
      const t = session.toTranscript();
      assert.equal(t.done.exitCode, 137);
      assert.match(t.blocks[0].kind === "error" ? t.blocks[0].message : "", /killed by SIGKILL/);
    });

    it("treats exit 0 without done as a failure, not a success", () => {
      const { session, feed } = newSession();
      session.begin();
      feed(start(), text("all good?"));
      session.processEnded(exited({ exitCode: 0 }));
      const t = session.toTranscript();
      assert.equal(t.status, "failed");
      assert.equal(t.done.exitCode, 1);
    });

    it("ignores the process end after the CLI's own done", () => {
      const { session, feed, events } = newSession();
      session.begin();
      feed(start(), done());
      session.processEnded(exited({ exitCode: 9 }));
      assert.equal(session.toTranscript().status, "completed");
      assert.deepEqual(events.map((e) => e.type), ["start", "done"]);
    });

    it("turns a spawn failure into CLI_NOT_FOUND with the manager's message, then done", () => {
      const { session, events } = newSession();
      session.begin();
      session.processEnded({ reason: "spawn-failed", exitCode: null, signal: null, stderrTail: "", spawnError: { errno: "ENOENT", message: "Could not start 'locus'" } });
      const t = session.toTranscript();
      assert.deepEqual(t.blocks, [{ kind: "error", code: "CLI_NOT_FOUND", message: "Could not start 'locus'", recoverable: false }]);
      assert.equal(t.done.exitCode, 127);
      assert.equal(t.status, "failed");
      assert.deepEqual(events.map((e) => e.type), ["start", "error", "done"]);
    });

    it("ends a user stop as canceled without an error card, hiding the CLI's own interruption error", () => {
      const { session, feed, events } = newSession();
      session.begin();
      feed(start(), text("working"));
      session.stopRequested("user");
      feed(event("error", { error: { code: "UNKNOWN", message: "terminated by signal SIGINT", recoverable: false } }), done(false, 1));
      session.processEnded(exited({ exitCode: 1 }));
      const t = session.toTranscript();
      assert.equal(t.status, "canceled");
      assert.deepEqual(t.blocks, [{ kind: "text", text: "working" }]);
      assert.equal(t.done.synthesized, false);
      assert.deepEqual(events.map((e) => e.type), ["start", "text_delta", "done"]);
    });

    it("ends a user stop as canceled when the CLI dies without done", () => {
      const { session, feed } = newSession();
      session.begin();
      feed(start());
      session.stopRequested("user");
      session.processEnded({ reason: "stopped", exitCode: null, signal: "SIGINT", stderrTail: "" });
      const t = session.toTranscript();
      assert.equal(t.status, "canceled");
      assert.deepEqual(t.blocks, []);
      assert.equal(t.done.exitCode, 130);
      assert.equal(t.done.synthesized, true);
    });

    it("explains an inactivity timeout once and fails the session", () => {
      const { session, feed } = newSession();
      session.begin();
      feed(start(), text("then silence"));
      session.stopRequested("timeout", "No output for 120 s.");
      session.processEnded({ reason: "timeout", exitCode: null, signal: "SIGINT", stderrTail: "" });
      const t = session.toTranscript();
      assert.equal(t.status, "failed");
      assert.deepEqual(t.blocks.at(-1), { kind: "error", code: "NETWORK_TIMEOUT", message: "No output for 120 s.", recoverable: false });
      assert.equal(t.blocks.filter((b) => b.kind === "error").length, 1);
    });

    it("reports state changes in order for a status bar to follow", () => {
      const { session, feed, changes } = newSession();
      session.begin();
      feed(start(), text("a"), event("tool_started", { tool: "Read" }), event("tool_completed", { tool: "Read", success: true }), text("b"), done());
      const states = changes.flatMap((c) => (c.kind === "state" ? [c.state] : []));
      assert.deepEqual(states, ["starting", "running", "streaming", "running", "streaming", "completed"]);
    });

    it("tells listeners exactly which text was appended to which block", () => {
      const { feed, changes } = newSession();
      feed(start(), text("a"), text("b"));
      const textChanges = changes.filter((c) => c.kind === "block-added" || c.kind === "text-appended");
      assert.deepEqual(textChanges, [
        { kind: "block-added", index: 0, block: { kind: "text", text: "a" } },
        { kind: "text-appended", index: 0, text: "b" },
      ]);
    });
  });
});
