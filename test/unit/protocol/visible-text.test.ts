import { strict as assert } from "node:assert";
import fc from "fast-check";
import { escapeForLog, escapeForTerminal, escapeJson, logLines } from "../../../src/protocol/visible-text";

/** Every character a terminal may act on or that reorders text, besides \n and \t. */
const ACTING = [
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).filter((c) => c !== "\n" && c !== "\t"),
  "\x7f",
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0x80 + i)),
  "\u061c",
  "\u200e",
  "\u200f",
  "\u2028",
  "\u2029",
  "\u202a",
  "\u202b",
  "\u202c",
  "\u202d",
  "\u202e",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
];
const ACTING_PATTERN = new RegExp(`[${ACTING.map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")}]`);

describe("visible text", () => {
  describe("escapeForTerminal", () => {
    it("shows an OSC 52 clipboard write, a screen clear, a carriage return, C1 CSI and a bidi override as escapes", () => {
      assert.equal(
        escapeForTerminal("a\x1b]52;c;ZXZpbA==\x07b\x1b[2Jc\rd\u009b31me\u202ef"),
        "a\\x1b]52;c;ZXZpbA==\\x07b\\x1b[2Jc\\rd\\x9b31me\\u202ef",
      );
    });

    it("leaves none of the acting characters raw", () => {
      const escaped = escapeForTerminal(ACTING.join("|"));
      assert.doesNotMatch(escaped, ACTING_PATTERN);
      assert.equal(escaped.split("|").length, ACTING.length, "each one shown");
    });

    it("keeps newlines, tabs and ordinary text of any script as they are", () => {
      const text = "line 1\n\tindented — ✅ 完了 مرحبا שלום 🔐 \\x1b stays";
      assert.equal(escapeForTerminal(text), text);
    });
  });

  describe("escapeForLog", () => {
    it("turns a message with newlines and carriage returns into exactly one line", () => {
      const forged = "ok\n2025-01-01 00:00:00.000 [info] done: completed\r[info] fake";
      const logged = escapeForLog(forged);
      assert.equal(logged.split(/[\n\r\u2028\u2029]/).length, 1);
      assert.equal(logged, "ok\\n2025-01-01 00:00:00.000 [info] done: completed\\r[info] fake");
    });

    it("splits stderr into escaped lines, one per line it had", () => {
      assert.deepEqual(logLines("first\r\nsecond \x1b]0;title\x07\nthird\rover"), ["first", "second \\x1b]0;title\\x07", "third\\rover"]);
    });
  });

  describe("escapeJson", () => {
    it("writes C1, bidi and line separators as \\u escapes", () => {
      const json = JSON.stringify({ text: "a\u009bb\u202ec\u2028d\x7f\x1b" });
      assert.equal(escapeJson(json), '{"text":"a\\u009bb\\u202ec\\u2028d\\u007f\\u001b"}');
    });

    it("returns the same text when there is nothing to escape", () => {
      const json = JSON.stringify({ text: "plain ✅ 完了" });
      assert.equal(escapeJson(json), json);
    });

    it("parses back to the same value, with no acting character left raw", () => {
      fc.assert(
        fc.property(fc.jsonValue(), fc.array(fc.constantFrom(...ACTING)), (value, extra) => {
          const withControls = { value, extra: extra.join(""), key: { [extra.join("")]: extra } };
          const printed = escapeJson(JSON.stringify(withControls, null, 2));
          assert.doesNotMatch(printed, ACTING_PATTERN);
          assert.deepEqual(JSON.parse(printed), JSON.parse(JSON.stringify(withControls)));
        }),
      );
    });
  });
});
