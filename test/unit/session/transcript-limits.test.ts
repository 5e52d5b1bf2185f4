import * as assert from "node:assert/strict";
import type { TranscriptChange } from "../../../src/protocol/messages";
import { MAX_LISTED_PROBLEMS, Session } from "../../../src/session/session";
import { TranscriptBuilder } from "../../../src/session/transcript-builder";

const LIMITS = { blockChars: 10, parameterChars: 20, sessionChars: 25 };

function builder() {
  const changes: TranscriptChange[] = [];
  return { transcript: new TranscriptBuilder((c) => changes.push(c), { limits: LIMITS }), changes };
}

describe("transcript limits", () => {
  it("keeps a text block's first characters, counts the rest, and tells views the count instead of the text", () => {
    const { transcript, changes } = builder();
    transcript.appendText("text", "0123456");
    transcript.appendText("text", "789abc");
    transcript.appendText("text", "def");
    transcript.finish();
    assert.deepEqual(transcript.snapshot, [{ kind: "text", text: "0123456789", truncatedChars: 6 }]);
    assert.deepEqual(changes.slice(1), [
      { kind: "text-appended", index: 0, text: "789" },
      { kind: "text-truncated", index: 0, truncatedChars: 3 },
      { kind: "text-truncated", index: 0, truncatedChars: 6 },
    ]);
  });

  it("never cuts between the two halves of a surrogate pair", () => {
    const { transcript } = builder();
    transcript.appendText("thinking", "123456789😀");
    assert.deepEqual(transcript.snapshot, [{ kind: "thinking", text: "123456789", truncatedChars: 2 }]);
  });

  it("shares one allowance among all blocks of a session", () => {
    const { transcript } = builder();
    transcript.appendText("text", "0123456789");
    transcript.addStatus("x", null);
    transcript.appendText("text", "0123456789");
    transcript.addStatus("x", null);
    transcript.appendText("text", "0123456789");
    const texts = transcript.snapshot.filter((b) => b.kind === "text");
    assert.deepEqual(texts, [
      { kind: "text", text: "0123456789" },
      { kind: "text", text: "0123456789" },
      { kind: "text", text: "01234", truncatedChars: 5 },
    ]);
  });

  it("drops tool parameters too large to keep, whole, and says how large they were", () => {
    const { transcript } = builder();
    transcript.startTool("Write", "t1", { content: "far too long to keep" }, null);
    transcript.startTool("Read", "t2", { p: "ok" }, null);
    const [write, read] = transcript.snapshot;
    assert.deepEqual(write.kind === "tool" && [write.parameters, write.truncatedChars], [null, 34]);
    assert.deepEqual(read.kind === "tool" && [read.parameters, read.truncatedChars], [{ p: "ok" }, undefined]);
  });

  it("keeps nothing when asked to keep no blocks, yet tells listeners every delta", () => {
    const changes: TranscriptChange[] = [];
    const transcript = new TranscriptBuilder((c) => changes.push(c), { keepBlocks: false, limits: LIMITS });
    transcript.appendText("text", "0123456789");
    transcript.appendText("text", "abcdef");
    transcript.startTool("Read", "t1", null, null);
    transcript.completeTool({ tool: "Read", toolId: "t1", success: true, durationMs: 1, error: null, timestamp: null });
    assert.deepEqual(transcript.snapshot, []);
    assert.deepEqual(changes[1], { kind: "text-appended", index: 0, text: "abcdef" });
    assert.deepEqual(changes[3], { kind: "block-updated", index: 1, block: { kind: "tool", tool: "Read", toolId: "t1", parameters: null, status: "succeeded", durationMs: 1, error: null, toolKind: null, title: null, output: null, diffs: [], locations: [] } });
  });
});

describe("problem limit", () => {
  it("lists the first problems one by one and counts the rest by code, so a stream of garbage cannot fill memory", () => {
    const session = new Session({ dialect: "locus" });
    session.acceptEvent({ protocol: 1, type: "start", sessionId: "s", timestamp: 1, payload: { command: "exec" } }, 1);
    for (let line = 2; line < MAX_LISTED_PROBLEMS + 12; line++) session.acceptProblem({ line, code: "MALFORMED_EVENT", message: "not JSON" });
    session.endOfStream();
    const transcript = session.toTranscript();
    assert.equal(transcript.problems.length, MAX_LISTED_PROBLEMS + 2);
    assert.deepEqual(transcript.problems.slice(-2), [
      { line: null, code: "MISSING_DONE", message: "stream ended without a done event" },
      { line: null, code: "MALFORMED_EVENT", message: "and 10 more like it, not listed" },
    ]);
  });

  describe("the number of blocks", () => {
    it("keeps its block limit, the last block a note that counts every block not kept, and tells views as it goes", () => {
      const changes: TranscriptChange[] = [];
      const transcript = new TranscriptBuilder((c) => changes.push(c), { limits: { blocks: 4 } });
      for (let i = 0; i < 10; i++) {
        transcript.addStatus("working", `step ${i}`);
        transcript.appendText("text", `word ${i}`);
        transcript.appendText("text", " and more of the same block");
      }
      transcript.finish();
      const blocks = transcript.snapshot;
      assert.equal(blocks.length, 4);
      assert.deepEqual(blocks.at(-1), { kind: "status", status: "transcript full", message: "This transcript keeps 4 blocks; 17 more were not kept." });
      assert.deepEqual(changes.at(-1), { kind: "block-updated", index: 3, block: blocks.at(-1) });
    });

    it("counts each turn's text past the limit as a block of its own", () => {
      const transcript = new TranscriptBuilder(undefined, { limits: { blocks: 2 } });
      for (let turn = 0; turn < 4; turn++) {
        transcript.appendText("text", `answer ${turn}`);
        transcript.appendText("text", " goes on");
        transcript.finish();
      }
      assert.deepEqual(transcript.snapshot.at(-1), { kind: "status", status: "transcript full", message: "This transcript keeps 2 blocks; 3 more were not kept." });
    });

    it("reports no tool completion as out of order when its start was not kept", () => {
      const session = new Session({ dialect: "locus", limits: { blocks: 2 } });
      const event = (type: string, payload: object) => ({ protocol: 1, type, sessionId: "s", timestamp: 1, payload }) as never;
      session.acceptEvent(event("start", { command: "exec" }), 1);
      for (let i = 0; i < 5; i++) session.acceptEvent(event("tool_started", { tool: "Read", toolId: `t${i}` }), 2 + i);
      for (let i = 0; i < 5; i++) session.acceptEvent(event("tool_completed", { tool: "Read", toolId: `t${i}`, success: true }), 7 + i);
      session.acceptEvent(event("done", { exitCode: 0, duration: 1, success: true }), 12);
      assert.deepEqual(session.problems, []);
      assert.equal(session.toTranscript().blocks.length, 2);
    });

    it("keeps a status or error message, a tool's name and its error to their field limit, and says how much it cut", () => {
      const transcript = new TranscriptBuilder(undefined, { limits: { fieldChars: 300 } });
      transcript.addStatus("working", "s".repeat(400));
      transcript.addError({ code: "UNKNOWN", message: "e".repeat(1000), recoverable: true });
      transcript.startTool("t".repeat(301), null, null, null);
      assert.deepEqual(
        transcript.snapshot.map((b) => (b.kind === "status" || b.kind === "error" ? b.message : b.kind === "tool" ? b.tool : null)),
        [`${"s".repeat(300)}… (100 more characters not kept)`, `${"e".repeat(300)}… (700 more characters not kept)`, `${"t".repeat(300)}… (1 more character not kept)`],
      );
    });
  });
});

describe("a permission request past the block limit", () => {
  const options = [{ id: "allow", name: "Allow once", kind: "allow_once" as const }];

  function fullTranscript() {
    const changes: TranscriptChange[] = [];
    const transcript = new TranscriptBuilder((c) => changes.push(c), { limits: { blocks: 3, permissionsPastBlocks: 2 } });
    for (let i = 0; i < 5; i++) transcript.addStatus("working", `step ${i}`);
    return { transcript, changes };
  }

  it("still gets its block, waiting for the answer, and views hear of it", () => {
    const { transcript, changes } = fullTranscript();
    transcript.addPermission("1", "t1", "Run npm test", options);
    const blocks = transcript.snapshot;
    assert.deepEqual(blocks.at(-1), { kind: "permission", requestId: "1", toolId: "t1", title: "Run npm test", options, decision: null, optionId: null, answeredBy: null, outsideWorkspace: [] });
    assert.deepEqual(changes.at(-1), { kind: "block-added", index: blocks.length - 1, block: blocks.at(-1) });
  });

  it("gets its answer in that block", () => {
    const { transcript, changes } = fullTranscript();
    transcript.addPermission("1", "t1", "Run npm test", options);
    const index = transcript.snapshot.length - 1;
    assert.ok(transcript.answerPermission("1", { decision: "allowed", optionId: "allow", by: "user" }));
    const answered = transcript.snapshot[index];
    assert.ok(answered.kind === "permission" && answered.decision === "allowed");
    assert.deepEqual(changes.at(-1), { kind: "block-updated", index, block: answered });
  });

  it("leaves the note that counts the blocks not kept in its place, and right", () => {
    const { transcript, changes } = fullTranscript();
    transcript.addPermission("1", "t1", "Run npm test", options);
    transcript.addStatus("working", "after the request");
    transcript.finish();
    const blocks = transcript.snapshot;
    assert.deepEqual(
      blocks.map((b) => b.kind),
      ["status", "status", "status", "permission"],
    );
    assert.deepEqual(blocks[2], { kind: "status", status: "transcript full", message: "This transcript keeps 3 blocks; 4 more were not kept." });
    assert.deepEqual(changes.at(-1), { kind: "block-updated", index: 2, block: blocks[2] });
  });

  it("gives the place of one answered past the limit to the next, once as many as it keeps there are kept, and counts it", () => {
    const { transcript, changes } = fullTranscript();
    const answer = { decision: "allowed" as const, optionId: "allow", by: "setting" as const };
    for (const id of ["1", "2", "3"]) {
      transcript.addPermission(id, `t${id}`, `Run step ${id}`, options);
      transcript.answerPermission(id, answer);
    }
    transcript.finish();
    const blocks = transcript.snapshot;
    assert.deepEqual(
      blocks.map((b) => (b.kind === "permission" ? b.title : b.kind)),
      ["status", "status", "status", "Run step 3", "Run step 2"],
    );
    assert.ok(changes.some((c) => c.kind === "block-added" && c.index === 3 && c.block.kind === "permission" && c.block.title === "Run step 3" && c.block.decision === null));
    assert.deepEqual(blocks[2], { kind: "status", status: "transcript full", message: "This transcript keeps 3 blocks; 4 more were not kept." });
  });

  it("keeps every request that waits past the limit, however many", () => {
    const { transcript } = fullTranscript();
    for (const id of ["1", "2", "3", "4"]) transcript.addPermission(id, `t${id}`, `Run step ${id}`, options);
    assert.deepEqual(
      transcript.snapshot.filter((b) => b.kind === "permission").map((b) => b.kind === "permission" && b.decision),
      [null, null, null, null],
    );
  });
});

describe("what a tool call's updates cost", () => {
  const LIMITS = { blockChars: 100, sessionChars: 100 };
  const diff = { path: "a.ts", oldText: null, newText: "x".repeat(56) };

  it("counts a call's diffs once, however many updates repeat them, and the next text is kept whole", () => {
    const transcript = new TranscriptBuilder(undefined, { limits: LIMITS });
    transcript.startTool("edit", "t1", null, null);
    for (let i = 0; i < 16; i++) transcript.updateTool({ toolId: "t1", status: "in_progress", diffs: [diff], timestamp: null });
    transcript.updateTool({ toolId: "t1", status: "completed", diffs: [diff], timestamp: null });
    transcript.appendText("text", "y".repeat(40));
    const [card, text] = transcript.snapshot;
    assert.deepEqual(card.kind === "tool" && card.diffs, [diff]);
    assert.deepEqual(text, { kind: "text", text: "y".repeat(40) });
  });

  it("counts only the growth of a call's output", () => {
    const transcript = new TranscriptBuilder(undefined, { limits: LIMITS });
    transcript.startTool("run", "t1", null, null);
    transcript.updateTool({ toolId: "t1", status: "in_progress", output: "o".repeat(30), timestamp: null });
    transcript.updateTool({ toolId: "t1", status: "completed", output: "o".repeat(60), timestamp: null });
    transcript.appendText("text", "y".repeat(40));
    const [card, text] = transcript.snapshot;
    assert.equal(card.kind === "tool" && card.output, "o".repeat(60));
    assert.deepEqual(text, { kind: "text", text: "y".repeat(40) });
  });

  it("tells views nothing of an update that says nothing new", () => {
    const changes: TranscriptChange[] = [];
    const transcript = new TranscriptBuilder((c) => changes.push(c), { limits: LIMITS });
    transcript.startTool("edit", "t1", null, null);
    transcript.updateTool({ toolId: "t1", status: "in_progress", title: "Edit a.ts", diffs: [diff], timestamp: null });
    const told = changes.length;
    transcript.updateTool({ toolId: "t1", status: "in_progress", title: "Edit a.ts", diffs: [{ ...diff }], timestamp: null });
    transcript.updateTool({ toolId: "t1", status: "in_progress", timestamp: null });
    assert.equal(changes.length, told);
  });
});

describe("a transcript its listener holds (the panel's turn)", () => {
  /** The same stream through two builders: one that holds its blocks, one whose listener holds them. */
  function both(feed: (transcript: TranscriptBuilder) => void): { held: TranscriptChange[]; listened: TranscriptChange[]; snapshot: readonly unknown[] } {
    const held: TranscriptChange[] = [];
    const listened: TranscriptChange[] = [];
    const holding = new TranscriptBuilder((c) => held.push(structuredClone(c)), { limits: { ...LIMITS, blocks: 5 } });
    const byListener = new TranscriptBuilder((c) => listened.push(structuredClone(c)), { limits: { ...LIMITS, blocks: 5 }, heldByListener: true });
    feed(holding);
    feed(byListener);
    holding.finish();
    byListener.finish();
    return { held, listened, snapshot: byListener.snapshot };
  }

  it("tells its listener exactly what a transcript that holds its blocks tells, limits and all, and holds none itself", () => {
    const { held, listened, snapshot } = both((transcript) => {
      transcript.appendText("text", "0123456");
      transcript.appendText("text", "789abc");
      transcript.startTool("Read", "r1", { file: "a-rather-long-file-name.ts" }, null);
      transcript.completeTool({ tool: "Read", toolId: "r1", success: true, durationMs: 3, error: null, timestamp: null, output: "a long output of the read" });
      transcript.appendText("thinking", "0123456789");
      for (let i = 0; i < 6; i++) transcript.addStatus("x", `status ${i}`);
    });
    assert.ok(held.some((change) => change.kind === "text-truncated"), "the stream reaches the character limit");
    assert.ok(held.some((change) => change.kind === "block-added" && change.block.kind === "status" && change.block.status === "transcript full"), "and the block limit");
    assert.deepEqual(listened, held);
    assert.deepEqual(snapshot, []);
  });
});
