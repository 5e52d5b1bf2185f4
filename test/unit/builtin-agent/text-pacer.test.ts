import * as assert from "node:assert/strict";
import { splitIntoDeltas } from "../../../src/builtin-agent/text-pacer";
import { assertQuickOn, repeated } from "../../helpers/hostile-text";

describe("splitting the answer into text deltas", () => {
  const samples = [
    "",
    "   ",
    "one",
    "## Title\n\n| a | b |\n| --- | --- |\n\n- `x` — y\n",
    "  leading and trailing spaces  ",
    "emoji 🧦 and 完了 stay whole\n\n\n",
  ];

  it("joins back into exactly the original text", () => {
    for (const text of samples) assert.equal(splitIntoDeltas(text).join(""), text, JSON.stringify(text));
  });

  it("puts at most three words in a delta", () => {
    const deltas = splitIntoDeltas("one two three four five six seven");
    assert.deepEqual(deltas, ["one two three", " four five six", " seven"]);
  });

  it("splits a text that ends in a megabyte of blanks in well under a second, keeping them", () => {
    const text = `one two${repeated(" ")}`;
    assert.deepEqual(assertQuickOn("a megabyte of trailing blanks", () => splitIntoDeltas(text)), [text]);
  });

  it("makes no delta for empty text", () => {
    assert.deepEqual(splitIntoDeltas(""), []);
  });
});
