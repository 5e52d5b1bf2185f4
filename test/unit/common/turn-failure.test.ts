import * as assert from "node:assert/strict";
import { failingError } from "../../../src/common/turn-failure";
import type { ErrorBlock } from "../../../src/protocol/transcript";

const error = (message: string, recoverable: boolean): ErrorBlock => ({ kind: "error", code: "UNKNOWN", message, recoverable });

describe("why a turn failed", () => {
  it("names the fatal error even when a recoverable one was reported after it", () => {
    assert.equal(failingError({ blocks: [error("crashed", false), error("could not save", true)] })?.message, "crashed");
  });

  it("names the last recoverable error when none was fatal", () => {
    assert.equal(failingError({ blocks: [error("first", true), error("second", true)] })?.message, "second");
  });

  it("names nothing when the turn reported no error", () => {
    assert.equal(failingError({ blocks: [{ kind: "text", text: "hi" }] }), null);
  });
});
