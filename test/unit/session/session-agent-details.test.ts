// What agents that say more than protocol 1 tell (ACP): tool details and updates, permission requests and their
// answers, the plan, and a stream of several turns read into one transcript.
import * as assert from "node:assert/strict";
import type { CliStreamEvent } from "../../../src/protocol/events";
import type { SessionChange } from "../../../src/protocol/messages";
import { Session } from "../../../src/session/session";
import { event, start } from "../../helpers/stream-builder";

const done = (success: boolean, status?: "completed" | "failed" | "canceled") =>
  event("done", { exitCode: success ? 0 : 1, duration: 5, success, ...(status ? { status } : {}) });

function session(options: { severalTurns?: boolean } = {}) {
  const events: CliStreamEvent[] = [];
  const changes: SessionChange[] = [];
  const s = new Session({ dialect: "locus", onEvent: (e) => events.push(e), onChange: (c) => changes.push(c), ...options });
  const feed = (...list: CliStreamEvent[]) => list.forEach((e, i) => s.acceptEvent(e, i + 1));
  return { session: s, events, changes, feed };
}

const editStarted = event("tool_started", {
  tool: "edit",
  toolId: "t1",
  kind: "edit",
  title: "Edit src/a.ts",
  locations: [{ path: "src/a.ts", line: 1 }],
});

describe("a session with agents that say more about their work", () => {
  it("fills a tool card with its kind, title, locations, then the output and diffs its updates bring", () => {
    const { session: s, feed } = session();
    feed(
      start(),
      editStarted,
      event("tool_updated", { toolId: "t1", status: "in_progress", diffs: [{ path: "src/a.ts", oldText: null, newText: "a\n" }] }),
      event("tool_updated", { toolId: "t1", status: "completed", output: "wrote 1 line" }),
      done(true),
    );
    assert.deepEqual(s.problems, []);
    const [card] = s.blocks;
    assert.equal(card.kind, "tool");
    if (card.kind !== "tool") return;
    assert.equal(card.status, "succeeded");
    assert.equal(card.toolKind, "edit");
    assert.equal(card.title, "Edit src/a.ts");
    assert.equal(card.output, "wrote 1 line");
    assert.deepEqual(card.diffs, [{ path: "src/a.ts", oldText: null, newText: "a\n" }]);
    assert.deepEqual(card.locations, [{ path: "src/a.ts", line: 1 }]);
  });

  it("keeps a tool_completed's output and diffs", () => {
    const { session: s, feed } = session();
    feed(start(), editStarted, event("tool_completed", { tool: "edit", toolId: "t1", success: false, output: "denied", diffs: [] }), done(false));
    const [card] = s.blocks;
    assert.ok(card.kind === "tool" && card.status === "failed" && card.output === "denied");
  });

  it("makes a card from an update about a call it never heard of, and completes it", () => {
    const { session: s, feed } = session();
    feed(start(), event("tool_updated", { toolId: "p1", kind: "execute", title: "Run npm test", status: "failed" }), done(true));
    const [card] = s.blocks;
    assert.ok(card.kind === "tool");
    assert.equal(card.toolKind, "execute");
    assert.equal(card.title, "Run npm test");
    assert.equal(card.status, "failed");
  });

  it("updates an ended call's card in place, never a second card with the same id", () => {
    const { session: s, feed } = session();
    feed(
      start(),
      editStarted,
      event("tool_updated", { toolId: "t1", status: "failed" }),
      event("tool_updated", { toolId: "t1", status: "failed", output: "The user rejected this edit" }),
      done(true),
    );
    assert.deepEqual(s.problems, []);
    assert.deepEqual(
      s.blocks.map((b) => b.kind === "tool" && [b.toolId, b.status, b.output]),
      [["t1", "failed", "The user rejected this edit"]],
    );
  });

  it("tells views nothing of an update that repeats what an ended call's card says", () => {
    const { feed, changes } = session();
    feed(start(), editStarted, event("tool_updated", { toolId: "t1", status: "failed", output: "rejected" }));
    const told = changes.filter((c) => c.kind === "block-added" || c.kind === "block-updated").length;
    feed(event("tool_updated", { toolId: "t1", status: "failed", output: "rejected" }), event("tool_updated", { toolId: "t1", status: "in_progress" }));
    assert.equal(changes.filter((c) => c.kind === "block-added" || c.kind === "block-updated").length, told);
  });

  it("keeps one card for a call whose end is reported twice, with what the second report adds", () => {
    const { session: s, feed } = session();
    feed(start(), editStarted, event("tool_completed", { tool: "edit", toolId: "t1", success: true }), event("tool_completed", { tool: "edit", toolId: "t1", success: true, output: "wrote 1 line" }), done(true));
    assert.deepEqual(s.problems, []);
    assert.deepEqual(
      s.blocks.map((b) => b.kind === "tool" && [b.toolId, b.status, b.output]),
      [["t1", "succeeded", "wrote 1 line"]],
    );
  });

  it("makes a new card for a call started again under an id that ended, and sends later news of the id to it", () => {
    const { session: s, feed } = session();
    feed(
      start(),
      editStarted,
      event("tool_completed", { tool: "edit", toolId: "t1", success: true }),
      editStarted,
      event("tool_completed", { tool: "edit", toolId: "t1", success: false, error: "no such file" }),
      done(true),
    );
    assert.deepEqual(
      s.blocks.map((b) => b.kind === "tool" && [b.toolId, b.status, b.error]),
      [
        ["t1", "succeeded", null],
        ["t1", "failed", "no such file"],
      ],
    );
  });

  it("shows a permission request, then its answer in the same block", () => {
    const { session: s, feed, changes } = session();
    const options = [
      { id: "proceed", name: "Allow once", kind: "allow_once" as const },
      { id: "nope", name: "Reject", kind: "reject_once" as const },
    ];
    feed(start(), event("permission_requested", { requestId: "1", toolId: "p1", title: "Run npm test", toolKind: "execute", options }));
    assert.deepEqual(s.blocks, [
      { kind: "permission", requestId: "1", toolId: "p1", title: "Run npm test", options, decision: null, optionId: null, answeredBy: null, outsideWorkspace: [] },
    ]);
    feed(event("permission_answered", { requestId: "1", decision: "allowed", optionId: "proceed", by: "user" }), done(true));
    assert.deepEqual(s.blocks, [
      { kind: "permission", requestId: "1", toolId: "p1", title: "Run npm test", options, decision: "allowed", optionId: "proceed", answeredBy: "user", outsideWorkspace: [] },
    ]);
    assert.ok(changes.some((c) => c.kind === "block-updated" && c.index === 0 && c.block.kind === "permission" && c.block.decision === "allowed"));
  });

  it("reports an answer to a request that was never asked", () => {
    const { session: s, feed } = session();
    feed(start(), event("permission_answered", { requestId: "9", decision: "cancelled", by: "cancelled" }), done(true));
    assert.deepEqual(
      s.problems.map((p) => p.code),
      ["OUT_OF_ORDER"],
    );
  });

  it("replaces the turn's plan in place on each update", () => {
    const { session: s, feed } = session();
    const first = [{ content: "Read", priority: "high" as const, status: "in_progress" as const }];
    const second = [
      { content: "Read", priority: "high" as const, status: "completed" as const },
      { content: "Fix", priority: "medium" as const, status: "pending" as const },
    ];
    feed(start(), event("plan", { entries: first }), event("text_delta", { content: "ok" }), event("plan", { entries: second }), done(true));
    assert.deepEqual(s.blocks, [
      { kind: "plan", entries: second },
      { kind: "text", text: "ok" },
    ]);
  });

  it("ends as the done's status says, and passes the status on with the done it forwards", () => {
    const { session: s, feed, events } = session();
    feed(start(), done(false, "canceled"));
    assert.equal(s.finalStatus, "canceled");
    const last = events.at(-1);
    assert.ok(last?.type === "done" && last.payload.status === "canceled");
  });

  it("writes how the run ended into a done it synthesizes", () => {
    const { session: s, events } = session();
    s.begin();
    s.stopRequested("user");
    s.processEnded({ reason: "stopped", exitCode: null, signal: "SIGINT", stderrTail: "" });
    const last = events.at(-1);
    assert.ok(last?.type === "done" && last.payload.status === "canceled");
  });

  it("reads a stream of several turns into one transcript with every block in order and the last turn's ending", () => {
    const { session: s, feed } = session({ severalTurns: true });
    const plan = [{ content: "Read", priority: "high" as const, status: "completed" as const }];
    feed(
      start(),
      event("plan", { entries: plan }),
      event("text_delta", { content: "first" }),
      done(true),
      start(),
      event("plan", { entries: plan }),
      event("text_delta", { content: "second" }),
      done(false, "canceled"),
    );
    assert.deepEqual(s.problems, []);
    assert.deepEqual(
      s.blocks.map((b) => b.kind + (b.kind === "text" ? `:${b.text}` : "")),
      ["plan", "text:first", "plan", "text:second"],
    );
    assert.equal(s.finalStatus, "canceled");
    assert.equal(s.toTranscript().status, "canceled");
  });

  it("starts a new text block for the next turn's text", () => {
    const { session: s, feed } = session({ severalTurns: true });
    feed(start(), event("text_delta", { content: "one" }), done(true), start(), event("text_delta", { content: "two" }), done(true));
    assert.deepEqual(s.blocks, [
      { kind: "text", text: "one" },
      { kind: "text", text: "two" },
    ]);
  });

  it("still treats a start after done as out of order in a stream of one turn", () => {
    const { session: s, feed } = session();
    feed(start(), done(true), start());
    assert.deepEqual(
      s.problems.map((p) => p.code),
      ["OUT_OF_ORDER"],
    );
    assert.equal(s.finalStatus, "completed");
  });

  it("names the dialect a normalized stream's start says its events were read from", () => {
    const { session: s, feed } = session();
    feed(start({ dialect: "acp" }), done(true));
    assert.equal(s.toTranscript().dialect, "acp");
  });
});
