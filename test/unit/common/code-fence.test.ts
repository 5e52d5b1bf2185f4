// Inline code and fenced blocks around any text: the fence outlasts every backtick run inside, a line break never
// ends the paragraph, and the work stays linear in the text, whatever an agent put in a title or a path.
import * as assert from "node:assert/strict";
import MarkdownIt from "markdown-it";
import { fenced, inlineCode } from "../../../src/common/code-fence";
import { assertQuickOn, repeated } from "../../helpers/hostile-text";

const markdown = new MarkdownIt();

/** What a reader's viewer shows inside the inline code span. */
function codeSpanText(source: string): string | undefined {
  const inline = markdown.parseInline(source, {})[0]?.children ?? [];
  return inline.find((token) => token.type === "code_inline")?.content;
}

describe("inline code and fences around any text", () => {
  it("shows a title with line breaks on one line, each run of blanks with a break as one space", () => {
    assert.equal(inlineCode("run  the\n\n  tests\r\nnow"), "`run  the tests now`");
  });

  it("keeps a title's backticks inside a span whose fence is longer than its longest run", () => {
    const code = inlineCode("a `b` ``c``");
    assert.equal(code, "``` a `b` ``c`` ```");
    assert.equal(codeSpanText(code), "a `b` ``c``");
  });

  it("drops one trailing newline of a fenced text and makes the fence outlast the text's runs", () => {
    assert.equal(fenced("a\n````\nb\n", "md"), "`````md\na\n````\nb\n`````");
  });

  it("writes a title of 1 MB of blanks without a line break in well under a second, blanks kept", () => {
    const title = `a${repeated(" ")}b`;
    assert.equal(assertQuickOn("1 MB of spaces", () => inlineCode(title)), `\`${title}\``);
  });

  it("writes a title of 1 MB of blanks and line breaks in well under a second, as one space each run", () => {
    assert.equal(assertQuickOn("1 MB of ' \\n'", () => inlineCode(`a${repeated(" \n")}b`)), "`a b`");
  });

  it("fences 250,000 backtick runs, which once overflowed the call stack, with a fence longer than the longest", () => {
    const path = repeated("` ", 500_000);
    assert.equal(assertQuickOn("250,000 backtick runs", () => inlineCode(path)), `\`\` ${path} \`\``);
    assert.ok(assertQuickOn("250,000 backtick runs in a fence", () => fenced(path, "")).startsWith("```\n"));
  });
});
