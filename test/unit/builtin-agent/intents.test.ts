import * as assert from "node:assert/strict";
import { intentOf, type Intent } from "../../../src/builtin-agent/intents";
import { assertQuickOn, repeated } from "../../helpers/hostile-text";

const CASES: [string, Intent][] = [
  ["summarise this workspace", { kind: "summary" }],
  ["Summarize the project", { kind: "summary" }],
  ["what is in this workspace?", { kind: "summary" }],
  ["how do I build and test this?", { kind: "summary" }],
  ['find "createSession"', { kind: "find", text: "createSession" }],
  ["search for `TODO: later`", { kind: "find", text: "TODO: later" }],
  ["where is Cart used?", { kind: "find", text: "Cart" }],
  ["find all occurrences of addItem in this workspace", { kind: "find", text: "addItem" }],
  ["explain src/cart.ts", { kind: "explain", path: "src/cart.ts" }],
  ["what does `report.py` do?", { kind: "explain", path: "report.py" }],
  ["Outline src/session/session.ts.", { kind: "explain", path: "src/session/session.ts" }],
  ["src/index.ts", { kind: "explain", path: "src/index.ts" }],
  ["list the TODOs", { kind: "todos" }],
  ["any FIXME left?", { kind: "todos" }],
  ["what's the weather like tomorrow?", { kind: "unknown" }],
  ["help", { kind: "unknown" }],
  ["find", { kind: "unknown" }],
];

describe("prompt to intent", () => {
  for (const [prompt, intent] of CASES) {
    it(`reads ${JSON.stringify(prompt)} as ${JSON.stringify(intent)}`, () => {
      assert.deepEqual(intentOf(prompt), intent);
    });
  }
});

// The prompt can carry a selection from a workspace file (Ask about Workspace), so it may be anyone's text.
describe("prompt to intent, for a megabyte built against its patterns", () => {
  const prompts: [string, string, Intent][] = [
    ["a run of opening curly quotes", `find ${repeated("“")}`, { kind: "find", text: repeated("“") }],
    ["a word of one name character", `explain ${repeated("a")}`, { kind: "unknown" }],
    ["a word that ends in a long run of quotes before more", `explain a${repeated("'")}x`, { kind: "unknown" }],
    ["a word that ends in a long run of dots before more", `explain ${repeated(".")}x`, { kind: "unknown" }],
    ["blanks inside a search term", `find x${repeated(" ")}y`, { kind: "find", text: `x${repeated(" ")}y` }],
    ["question marks inside a search term", `find x${repeated("?")}y`, { kind: "find", text: `x${repeated("?")}y` }],
  ];
  for (const [name, prompt, intent] of prompts) {
    it(`reads a prompt of ${name} in well under a second`, () => {
      assert.deepEqual(assertQuickOn(name, () => intentOf(prompt)), intent);
    });
  }
});
