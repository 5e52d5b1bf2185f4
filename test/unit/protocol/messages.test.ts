import * as assert from "node:assert/strict";
import { SavedTurnsSchema, TurnSchema } from "../../../src/protocol/messages";

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
    assert.deepEqual(parsed.data, [{ ...turnFromBeforeContext, context: null, origin: "prompt" }]);
  });

  it("keeps the context and origin a turn was saved with", () => {
    const saved = { ...turnFromBeforeContext, context: { summary: "app.ts", text: "File: app.ts" }, origin: "replay" };
    assert.deepEqual(TurnSchema.parse(saved), saved);
  });

  it("refuses saved turns when one no longer fits the schema", () => {
    assert.equal(SavedTurnsSchema.safeParse([turnFromBeforeContext, { ...turnFromBeforeContext, id: 1.5 }]).success, false);
  });
});
