import * as assert from "node:assert/strict";
import { canonicalDigest } from "../../../../src/dialects/acp/canonical-digest";
import { AcpEventTranslator } from "../../../../src/dialects/acp/acp-event-translator";
import type { AcpEvent } from "../../../../src/dialects/acp/acp-events";
import { pathsOf } from "../../../../src/dialects/acp/permission-request";
import { SessionUpdateDecoder } from "../../../../src/dialects/acp/session-update-decoder";
import { TOOL_CALL_LIMITS, ToolCallBook } from "../../../../src/dialects/acp/tool-calls";
import type { CliEventType } from "../../../../src/protocol/events";
import { TRANSCRIPT_LIMITS } from "../../../../src/session/transcript-builder";

const diff = (path: string, chars: number) => ({ type: "diff" as const, path, oldText: null, newText: "x".repeat(chars) });

describe("ACP tool calls as the conversation keeps them", () => {
  it("passes on what the transcript keeps: its limits are the transcript's", () => {
    assert.deepEqual(
      [TOOL_CALL_LIMITS.contentChars, TOOL_CALL_LIMITS.rawChars, TOOL_CALL_LIMITS.keptChars],
      [TRANSCRIPT_LIMITS.blockChars, TRANSCRIPT_LIMITS.parameterChars, TRANSCRIPT_LIMITS.sessionChars],
    );
  });

  it("cuts a text over the limit as a transcript block is cut, and counts what it cut", () => {
    const book = new ToolCallBook({ contentChars: 10 });
    const { call } = book.merge({ toolCallId: "t", content: [{ type: "text", text: "0123456789abcdef" }] });
    assert.deepEqual(call.content, [{ type: "text", text: "0123456789\n… 6 more characters not kept" }]);
    assert.equal(call.cutChars, 6);
  });

  it("drops a diff over the limit whole, and keeps its path for the workspace check", () => {
    const book = new ToolCallBook({ contentChars: 100 });
    const { call } = book.merge({ toolCallId: "t", content: [diff("../outside.txt", 200), diff("inside.txt", 10)] });
    assert.deepEqual(call.content[0], { type: "diff", path: "../outside.txt", oldText: null, newText: "", droppedChars: 200 });
    assert.equal(call.cutChars, 200);
    assert.deepEqual(pathsOf(call), ["../outside.txt", "inside.txt"]);
  });

  it("drops tool input or output too large for a card whole, and counts it", () => {
    const book = new ToolCallBook({ rawChars: 20 });
    const { call } = book.merge({ toolCallId: "t", rawInput: { command: "x".repeat(30) }, rawOutput: { ok: true } });
    assert.equal(call.rawInput, undefined);
    assert.deepEqual(call.rawOutput, { ok: true });
    assert.equal(call.cutChars, JSON.stringify({ command: "x".repeat(30) }).length);
  });

  it("keeps of a call only its id, title, kind, status, the paths it names and digests of its input and diffs, once a message is passed on", () => {
    const book = new ToolCallBook();
    book.merge({ toolCallId: "t", title: "Edit a.ts", kind: "edit", content: [diff("a.ts", 1000), { type: "text", text: "done" }], rawInput: { file: "a.ts" } });
    const later = book.merge({ toolCallId: "t", status: "completed" });
    assert.deepEqual(book.get("t"), {
      toolCallId: "t",
      title: "Edit a.ts",
      kind: "edit",
      status: "completed",
      content: [{ type: "diff", path: "a.ts", oldText: null, newText: "", droppedChars: 1000 }],
      locations: [],
      rawInput: undefined,
      rawOutput: undefined,
      cutChars: 0,
      fingerprint: { input: canonicalDigest({ file: "a.ts" }), diffs: canonicalDigest([["a.ts", null, "x".repeat(1000)]]) },
    });
    assert.deepEqual([later.contentChanged, pathsOf(later.call)], [false, ["a.ts"]]);
  });

  it("remembers a bounded number of calls, forgetting the oldest", () => {
    const book = new ToolCallBook({ calls: 3 });
    for (const id of ["a", "b", "c", "d", "e"]) book.merge({ toolCallId: id, title: id });
    assert.equal(book.size, 3);
    assert.deepEqual(["a", "b", "c", "d", "e"].map((id) => book.get(id)?.title), [undefined, undefined, "c", "d", "e"]);
  });

  it("forgets the oldest calls once their titles and paths pass the characters kept", () => {
    const book = new ToolCallBook({ keptChars: 100 });
    for (let i = 0; i < 10; i++) book.merge({ toolCallId: `t${i}`, locations: [{ path: "p".repeat(30), line: null }] });
    assert.equal(book.size, 3);
    assert.ok(book.get("t9") !== undefined);
  });

  it("leaves a card's diffs alone on an update that carries no content, and shows none that was dropped", () => {
    const emitted: { type: CliEventType; payload: Record<string, unknown> }[] = [];
    const translator = new AcpEventTranslator((type, payload) => emitted.push({ type, payload: payload as Record<string, unknown> }));
    const decoder = new SessionUpdateDecoder({ event: (event: AcpEvent) => translator.translate(event), trace: () => {} }, { contentChars: 100 });
    decoder.decode({ sessionUpdate: "tool_call", toolCallId: "t", title: "Edit", kind: "edit", content: [diff("small.ts", 5), diff("huge.ts", 500)] });
    decoder.decode({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "completed" });
    const updates = emitted.filter((event) => event.type === "tool_updated").map((event) => event.payload);
    assert.deepEqual(updates[0].diffs, [{ path: "small.ts", oldText: null, newText: "xxxxx" }]);
    assert.deepEqual([updates[1].status, "diffs" in updates[1], "output" in updates[1]], ["completed", false, false]);
  });

  describe("a diff once shown", () => {
    const shown = (decoder: SessionUpdateDecoder, emitted: { type: CliEventType; payload: Record<string, unknown> }[]) => {
      void decoder;
      return emitted.filter((event) => event.type === "tool_updated" && "diffs" in event.payload).map((event) => event.payload.diffs);
    };
    const conversation = (limits?: Partial<typeof TOOL_CALL_LIMITS>) => {
      const emitted: { type: CliEventType; payload: Record<string, unknown> }[] = [];
      const translator = new AcpEventTranslator((type, payload) => emitted.push({ type, payload: payload as Record<string, unknown> }));
      const decoder = new SessionUpdateDecoder({ event: (event: AcpEvent) => translator.translate(event), trace: () => {} }, limits);
      return { decoder, emitted, translator };
    };
    const text = (value: string) => ({ type: "content", content: { type: "text", text: value } });

    it("stays on the card when a later message replaces the content without a diff for that file (opencode 1.18.33)", () => {
      const { decoder, emitted } = conversation();
      decoder.mentionTool({ toolCallId: "t", title: "/w/a.ts", kind: "edit", content: [{ type: "diff", path: "/w/a.ts", oldText: "", newText: "a\n" }] });
      decoder.decode({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "completed", content: [text("Wrote file successfully.")] });
      const last = emitted.at(-1)?.payload;
      assert.deepEqual([last?.status, last?.output, last?.diffs], ["completed", "Wrote file successfully.", [{ path: "/w/a.ts", oldText: "", newText: "a\n" }]]);
    });

    it("is replaced by the agent's new diff for the same file, named relative or absolute (Qwen Code)", () => {
      const { decoder, emitted } = conversation();
      decoder.mentionTool({ toolCallId: "t", kind: "edit", content: [{ type: "diff", path: "/w/src/a.ts", oldText: "", newText: "proposed\n" }] });
      decoder.decode({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "completed", content: [{ type: "diff", path: "src/a.ts", oldText: "", newText: "written\n" }] });
      assert.deepEqual(shown(decoder, emitted).at(-1), [{ path: "src/a.ts", oldText: "", newText: "written\n" }]);
    });

    it("of one file stays beside the agent's new diff of another file", () => {
      const { decoder, emitted } = conversation();
      decoder.decode({ sessionUpdate: "tool_call", toolCallId: "t", kind: "edit", content: [{ type: "diff", path: "a.ts", oldText: null, newText: "a" }] });
      decoder.decode({ sessionUpdate: "tool_call_update", toolCallId: "t", content: [{ type: "diff", path: "b.ts", oldText: null, newText: "b" }] });
      assert.deepEqual(shown(decoder, emitted).at(-1), [
        { path: "b.ts", oldText: null, newText: "b" },
        { path: "a.ts", oldText: null, newText: "a" },
      ]);
    });

    it("is let go for the oldest calls first once the diffs kept pass their allowance", () => {
      const { decoder, emitted } = conversation({ diffChars: 250 });
      for (const id of ["t1", "t2", "t3"]) decoder.decode({ sessionUpdate: "tool_call", toolCallId: id, kind: "edit", content: [diff(`${id}.ts`, 100)] });
      for (const id of ["t1", "t3"]) decoder.decode({ sessionUpdate: "tool_call_update", toolCallId: id, status: "completed", content: [text("done")] });
      const finished = emitted.filter((event) => event.payload.status === "completed").map((event) => (event.payload.diffs as { path: string }[]).map((d) => d.path));
      assert.deepEqual(finished, [[], ["t3.ts"]]);
    });
  });

  describe("a call that ended", () => {
    const events = () => {
      const seen: AcpEvent[] = [];
      return { seen, decoder: new SessionUpdateDecoder({ event: (event: AcpEvent) => seen.push(event), trace: () => {} }, { calls: 2 }) };
    };

    it("is known as ended by a later message, also after the book forgot it", () => {
      const { seen, decoder } = events();
      decoder.decode({ sessionUpdate: "tool_call", toolCallId: "done", status: "failed" });
      decoder.decode({ sessionUpdate: "tool_call", toolCallId: "running", status: "in_progress" });
      decoder.decode({ sessionUpdate: "tool_call_update", toolCallId: "done", status: "failed" });
      for (const id of ["x", "y", "z"]) decoder.decode({ sessionUpdate: "tool_call", toolCallId: id, status: "pending" });
      decoder.decode({ sessionUpdate: "tool_call", toolCallId: "done", status: "pending" });
      decoder.decode({ sessionUpdate: "tool_call", toolCallId: "running", status: "pending" });
      const told = seen.flatMap((event) => (event.type === "tool_call" ? [[event.call.toolCallId, event.change, event.endedBefore]] : []));
      assert.deepEqual(told.slice(2, 3), [["done", "updated", true]]);
      assert.deepEqual(told.slice(-2), [
        ["done", "created", true],
        ["running", "created", false],
      ]);
    });

    it("keeps the ids of forgotten ended calls within their allowance, oldest let go first", () => {
      const book = new ToolCallBook({ calls: 1, endedIdChars: 4 });
      for (const id of ["a1", "b2", "c3", "d4"]) book.merge({ toolCallId: id, status: "completed" });
      // Kept: b2 and c3. a1 was let go; asking about it forgets d4, which lets b2 go in its turn.
      assert.deepEqual(["a1", "c3", "d4", "b2"].map((id) => book.merge({ toolCallId: id, title: "again" }).endedBefore), [false, true, true, false]);
    });
  });

  describe("the cards of calls in a conversation of several turns", () => {
    it("shows a message about a call that ended in an earlier turn on no card of the next turn", () => {
      const turns: { type: CliEventType; payload: Record<string, unknown> }[][] = [[], []];
      let turn = 0;
      const translators = turns.map((emitted) => new AcpEventTranslator((type, payload) => emitted.push({ type, payload: payload as Record<string, unknown> })));
      const decoder = new SessionUpdateDecoder({ event: (event: AcpEvent) => translators[turn]!.translate(event), trace: () => {} });
      decoder.decode({ sessionUpdate: "tool_call", toolCallId: "t", title: "Run ls", kind: "execute", status: "pending" });
      decoder.decode({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "failed" });
      turn = 1;
      decoder.decode({ sessionUpdate: "tool_call", toolCallId: "t", title: "Run ls", kind: "execute", status: "pending" });
      decoder.decode({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "failed", content: [{ type: "content", content: { type: "text", text: "rejected" } }] });
      decoder.decode({ sessionUpdate: "tool_call", toolCallId: "u", title: "Run pwd", kind: "execute", status: "pending" });
      assert.deepEqual(turns.map((emitted) => emitted.map((event) => [event.type, event.payload.toolId])), [
        [["tool_started", "t"], ["tool_updated", "t"]],
        [["tool_started", "u"]],
      ]);
    });

    it("updates the call's own card when the message comes in the turn that showed it, even after the book forgot it", () => {
      const emitted: { type: CliEventType; payload: Record<string, unknown> }[] = [];
      const translator = new AcpEventTranslator((type, payload) => emitted.push({ type, payload: payload as Record<string, unknown> }));
      const decoder = new SessionUpdateDecoder({ event: (event: AcpEvent) => translator.translate(event), trace: () => {} }, { calls: 1 });
      decoder.decode({ sessionUpdate: "tool_call", toolCallId: "t", kind: "execute", status: "failed" });
      decoder.decode({ sessionUpdate: "tool_call", toolCallId: "u", kind: "execute", status: "pending" });
      decoder.decode({ sessionUpdate: "tool_call", toolCallId: "t", kind: "execute", status: "pending" });
      assert.deepEqual(emitted.map((event) => [event.type, event.payload.toolId]), [
        ["tool_started", "t"],
        ["tool_updated", "t"],
        ["tool_started", "u"],
        ["tool_updated", "t"],
      ]);
    });
  });
});
