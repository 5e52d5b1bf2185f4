import * as assert from "node:assert/strict";
import type { TranscriptBlock } from "../../../src/protocol/transcript";
import { keptTurns } from "../../../src/sessions/kept-turns";
import { permissionBlock, toolBlock, turnWith } from "../../helpers/turn-builder";

const MiB = 1024 * 1024;
const text = (chars: number): TranscriptBlock => ({ kind: "text", text: "x".repeat(chars) });
const bigTool = (chars: number): TranscriptBlock => toolBlock({ output: "o".repeat(chars) });

describe("what of a session's turns its file keeps", () => {
  it("keeps turns within the bound as they are", () => {
    const turns = [turnWith(1, [text(100), toolBlock()], { done: true })];
    assert.deepEqual(keptTurns(turns, MiB), turns);
  });

  it("leaves out a tool card that does not fit whole, and every block after it, counting them", () => {
    const [turn] = keptTurns([turnWith(1, [text(100), bigTool(2 * MiB), text(10)])], MiB);
    assert.deepEqual(turn?.blocks.map((block) => block.kind), ["text", "status"]);
    assert.equal(turn?.blocks[1]?.kind === "status" && turn.blocks[1].message, "This session keeps about 1 MiB of text; 2 more blocks of this turn were not saved.");
  });

  it("keeps the later turns' prompts, each counting what it lost", () => {
    const turns = keptTurns([turnWith(1, [text(2 * MiB)]), turnWith(2, [text(10), permissionBlock({ decision: "allowed", optionId: "allow-once" })])], MiB);
    assert.deepEqual(turns.map((turn) => turn.prompt), ["prompt 1", "prompt 2"]);
    assert.deepEqual(turns[1]?.blocks, [{ kind: "status", status: "session full", message: "This session keeps about 1 MiB of text; 2 more blocks of this turn were not saved." }]);
  });

  it("adds its cut to a text block's own count of characters already left out", () => {
    const [turn] = keptTurns([turnWith(1, [{ kind: "thinking", text: "t".repeat(3_000), truncatedChars: 500 }])], 1_000 + "thinking".length);
    assert.deepEqual(turn?.blocks[0]?.kind === "thinking" && [turn.blocks[0].text.length, turn.blocks[0].truncatedChars], [1_000, 2_500]);
  });

  it("does not change the turns it is given", () => {
    const turns = [turnWith(1, [text(2_000), permissionBlock()])];
    const before = structuredClone(turns);
    keptTurns(turns, 1_000);
    assert.deepEqual(turns, before);
  });
});
