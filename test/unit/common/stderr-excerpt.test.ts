import * as assert from "node:assert/strict";
import { STDERR_EXCERPT_CHARS, STDERR_EXCERPT_LINES, stderrExcerpt } from "../../../src/common/stderr-excerpt";

const LEFT_OUT = "[… earlier lines of stderr left out]";
const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n");

describe("the last lines of an agent's stderr, as a card shows them", () => {
  it("keeps a short stderr whole, without its trailing blanks and with no note", () => {
    assert.equal(stderrExcerpt("Error: spawn failed\n  at main\n\n"), "Error: spawn failed\n  at main");
  });

  it("is empty for a stderr of blanks only", () => {
    assert.equal(stderrExcerpt(" \n\t\n"), "");
  });

  it(`keeps the last ${STDERR_EXCERPT_LINES} lines of a longer one and says that earlier lines were left out`, () => {
    const excerpt = stderrExcerpt(numbered(100));
    const lines = excerpt.split("\n");
    assert.equal(lines[0], LEFT_OUT);
    assert.deepEqual(lines.slice(1), numbered(100).split("\n").slice(-STDERR_EXCERPT_LINES));
  });

  it(`keeps at most ${STDERR_EXCERPT_CHARS} characters, starting at a whole line`, () => {
    const long = `${"a".repeat(3000)}\n${"b".repeat(3000)}\n${"c".repeat(1000)}`;
    assert.equal(stderrExcerpt(long), `${LEFT_OUT}\n${"b".repeat(3000)}\n${"c".repeat(1000)}`);
  });

  it("keeps the end of one line longer than the bound, and says so", () => {
    const excerpt = stderrExcerpt(`${"x".repeat(10_000)}END`);
    assert.ok(excerpt.startsWith(`${LEFT_OUT}\n`));
    assert.ok(excerpt.endsWith("xEND"));
    assert.equal(excerpt.length, LEFT_OUT.length + 1 + STDERR_EXCERPT_CHARS);
  });

  it("reads CRLF line ends as line ends", () => {
    assert.equal(stderrExcerpt("one\r\ntwo\r\n"), "one\ntwo");
  });

  it("drops colours and shows every other terminal escape as text, so stderr can neither act nor hide words", () => {
    const excerpt = stderrExcerpt("\x1b[1;31mError:\x1b[0m bad key\n\x1b]52;c;ZXZpbA==\x07\x1b[2J\u202egnp.exe\r");
    assert.equal(excerpt, "Error: bad key\n\\x1b]52;c;ZXZpbA==\\x07\\x1b[2J\\u202egnp.exe");
  });

  it("leaves HTML as the characters it is made of: the card shows them as text", () => {
    assert.equal(stderrExcerpt('<img src=x onerror="alert(1)"><b>bold</b>'), '<img src=x onerror="alert(1)"><b>bold</b>');
  });
});
