// The one rule for what a reader sees of a turn's blocks: the chat, Copy answer and the markdown export all follow it.
import * as assert from "node:assert/strict";
import { shownAs } from "../../../src/common/shown-blocks";
import type { TranscriptBlock } from "../../../src/protocol/transcript";

const steer = (text: string): TranscriptBlock => ({ kind: "steer", text });
const echo = (message: string | null): TranscriptBlock => ({ kind: "status", status: "prompt", message });
const text = (words: string): TranscriptBlock => ({ kind: "text", text: words });

/** Each block's fate, in order. */
function shownOf(blocks: TranscriptBlock[]): string[] {
  return blocks.map((_, index) => {
    const shown = shownAs(blocks, index);
    return shown.as === "user message" || shown.as === "notice" ? `${shown.as}: ${shown.text}` : shown.as;
  });
}

describe("what a reader sees of a turn's blocks", () => {
  it("shows each echo of a steered message as nothing, pairing them in order", () => {
    assert.deepEqual(shownOf([text("One."), steer("Also A."), steer("Also B."), echo("Also A."), text("A."), echo("Also B."), text("B.")]), [
      "itself",
      "itself",
      "itself",
      "nothing",
      "itself",
      "nothing",
      "itself",
    ]);
  });

  it("takes an echo that carries the editor context after the steered words as that message's", () => {
    assert.deepEqual(shownOf([steer("  Check the docs "), echo("Check the docs\n\nOpen file: README.md")]), ["itself", "nothing"]);
  });

  it("shows an echo that repeats no steered message as the user's words, so none is lost", () => {
    assert.deepEqual(shownOf([text("Hi Ada."), echo("What is my name?"), text("Ada."), steer("Shorter."), echo("Something else"), echo("Shorter.")]), [
      "itself",
      "user message: What is my name?",
      "itself",
      "itself",
      "user message: Something else",
      "nothing",
    ]);
  });

  it("shows an echo without words as nothing", () => {
    assert.deepEqual(shownOf([echo(null), echo("  ")]), ["nothing", "nothing"]);
  });

  it("keeps a notice that explains the answer and leaves out progress", () => {
    const blocks: TranscriptBlock[] = [
      { kind: "status", status: "new session", message: "The agent could not continue the earlier conversation." },
      { kind: "status", status: "retrying", message: "Retrying" },
      { kind: "status", status: "usage", message: "12 tokens" },
      { kind: "status", status: "next message", message: "Message 2" },
      { kind: "status", status: "refused", message: null },
    ];
    assert.deepEqual(shownOf(blocks), ["notice: The agent could not continue the earlier conversation.", "nothing", "nothing", "nothing", "notice: refused"]);
  });
});
