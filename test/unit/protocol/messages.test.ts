import * as assert from "node:assert/strict";
import { MAX_FILE_QUERY_CHARS, SavedTurnsSchema, TurnSchema, WebviewIntentSchema } from "../../../src/protocol/messages";

/** A turn as versions before editor context and replays saved it: no `context`, no `origin`. */
const turnFromBeforeContext = {
  id: 0,
  prompt: "What is here?",
  agent: "Locus",
  state: "idle",
  blocks: [{ kind: "text", text: "A VS Code extension." }],
  problems: [],
  done: { exitCode: 0, durationMs: 12, toolsUsed: [], tokensUsed: null, success: true, synthesized: false },
  status: "completed",
};

describe("saved turns", () => {
  it("reads a turn saved before context and origin existed as a prompt with no context", () => {
    const parsed = SavedTurnsSchema.safeParse([turnFromBeforeContext]);
    assert.ok(parsed.success);
    assert.deepEqual(parsed.data, [{ ...turnFromBeforeContext, done: { ...turnFromBeforeContext.done, usage: null }, context: null, origin: "prompt" }]);
  });

  it("keeps the context and origin a turn was saved with", () => {
    const saved = { ...turnFromBeforeContext, done: { ...turnFromBeforeContext.done, usage: null }, context: { summary: "app.ts", text: "File: app.ts" }, origin: "replay" };
    assert.deepEqual(TurnSchema.parse(saved), saved);
  });

  it("refuses saved turns when one no longer fits the schema", () => {
    assert.equal(SavedTurnsSchema.safeParse([turnFromBeforeContext, { ...turnFromBeforeContext, id: 1.5 }]).success, false);
  });

  it("reads a permission request saved before requests had ids as one no answer can name", () => {
    const request = { kind: "permission", toolId: "call-1", title: "Edit a.ts", options: [], decision: "cancelled", optionId: null };
    const parsed = TurnSchema.parse({ ...turnFromBeforeContext, blocks: [request] });
    assert.deepEqual(parsed.blocks, [{ ...request, requestId: "", answeredBy: null, outsideWorkspace: [] }]);
    const answer = { type: "answerPermission", turnId: 0, requestId: "", optionId: null };
    assert.equal(WebviewIntentSchema.safeParse(answer).success, false);
  });
});

describe("the answer to a permission request", () => {
  it("names the request by its id, never a block by its position", () => {
    assert.equal(WebviewIntentSchema.safeParse({ type: "answerPermission", turnId: 0, requestId: "3", optionId: "allow" }).success, true);
    assert.equal(WebviewIntentSchema.safeParse({ type: "answerPermission", turnId: 0, blockIndex: 1, optionId: "allow" }).success, false);
  });
});

describe("the @ picker's question", () => {
  it("takes a query up to its bound and refuses a longer one", () => {
    const findFiles = (query: string) => WebviewIntentSchema.safeParse({ type: "findFiles", requestId: 3, query }).success;
    assert.equal(findFiles("a".repeat(MAX_FILE_QUERY_CHARS)), true);
    assert.equal(findFiles("a".repeat(MAX_FILE_QUERY_CHARS + 1)), false);
  });
});
