import * as assert from "node:assert/strict";
import { TurnParts } from "../../../src/panel/turn-parts";
import type { PromptImage } from "../../../src/protocol/prompt-parts";

function imageOf(chars: number): PromptImage {
  return { kind: "image", mimeType: "image/png", data: "A".repeat(chars), name: "shot.png" };
}

describe("the parts each turn keeps for its Retry", () => {
  it("keeps every turn's files, and the newest turns' images within the bound, saying whose were dropped", () => {
    const kept = new TurnParts(100);
    const file = { kind: "file" as const, path: "src/a.ts" };
    const [first, second, third] = [imageOf(60), imageOf(30), imageOf(30)];
    kept.keep(0, [file, first]);
    kept.keep(1, [second]);
    assert.deepEqual(kept.of(0), { parts: [file, first], imagesDropped: false });
    kept.keep(2, [third]);
    assert.deepEqual(kept.of(0), { parts: [file], imagesDropped: true });
    assert.deepEqual([kept.of(1)?.parts, kept.of(2)?.parts], [[second], [third]]);
  });

  it("keeps the last turn's images even when they alone are past the bound", () => {
    const kept = new TurnParts(10);
    const image = imageOf(20);
    kept.keep(4, [image]);
    assert.deepEqual(kept.of(4), { parts: [image], imagesDropped: false });
    assert.equal(kept.of(3), undefined);
  });
});
