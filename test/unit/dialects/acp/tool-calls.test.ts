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
});
