// The streaming markdown splitter: where it cuts, that cutting never changes what renders, and that how the text
// arrived (one piece or many) never changes where it cuts.
import { strict as assert } from "node:assert";
import fc from "fast-check";
import MarkdownIt from "markdown-it";
import { codeText, MarkdownSegmenter } from "../../../src/webview/markdown-segments";

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });

/** Feeds text in the given pieces; returns the finished segments and the open tail. */
function split(pieces: readonly string[]): { segments: string[]; tail: string } {
  const segmenter = new MarkdownSegmenter();
  const segments = pieces.flatMap((piece) => segmenter.push(piece));
  return { segments, tail: segmenter.tail };
}

/** Cuts text at the given fractions of its length. */
function piecesOf(text: string, cuts: readonly number[]): string[] {
  const positions = [...new Set(cuts.map((c) => Math.floor(c * text.length)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let start = 0;
  for (const position of positions) {
    pieces.push(text.slice(start, position));
    start = position;
  }
  pieces.push(text.slice(start));
  return pieces;
}

// Blocks whose rendering does not depend on what follows a blank line. Lists and link reference definitions are
// left out on purpose: a loose list cut at a blank line shows as two lists, and a reference resolves only below
// its definition (both documented in markdown-segments.ts).
const word = fc.constantFrom("alpha", "beta", "`code`", "**bold**", "_em_", "https://example.com", "x", "日本", "a|b");
const line = fc.array(word, { minLength: 1, maxLength: 5 }).map((words) => words.join(" "));
const fenceBody = fc.array(fc.oneof(line, fc.constant(""), fc.constant("    indented"), fc.constant("```not a close```")), { maxLength: 6 });
const block = fc.oneof(
  line,
  fc.array(line, { minLength: 2, maxLength: 3 }).map((lines) => lines.join("\n")),
  line.map((l) => `## ${l}`),
  line.map((l) => `> ${l}`),
  fc.constant("---"),
  fc.constant("| a | b |\n| - | - |\n| 1 | 2 |"),
  fc.constant("    indented code\n\n    more indented code"),
  fc.tuple(fc.constantFrom("```", "````", "~~~"), fc.constantFrom("", "ts", "py"), fenceBody).map(
    ([marker, info, body]) => `${marker}${info}\n${body.join("\n")}\n${marker}`,
  ),
  fc.tuple(fc.constantFrom(" ```", "  ~~~~", "   ```js"), fenceBody).map(([open, body]) => `${open}\n${body.join("\n")}\n${open.trim().replace(/[a-z]+$/, "")}  `),
  fc.constant("> ```\n> quoted code\n>\n> more\n> ```"),
  line.map((l) => `${l}\n===`),
  fc.constant("\t```\n\tnot a fence\n\n\tstill indented code"),
  // A fence left open runs to the end of the text.
  fc.tuple(fc.constantFrom("```", "~~~"), fenceBody).map(([marker, body]) => `${marker}\n${body.join("\n")}`),
);
const separator = fc.constantFrom("\n\n", "\n\n\n", "\n \n", "\r\n\r\n", "\r\r", "\n\r\n", "\n", "\r");
const document = fc.array(fc.tuple(block, separator), { minLength: 1, maxLength: 8 }).map((parts) => parts.map(([b, s]) => b + s).join(""));
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 });

// Texts that end in a fence left open, its code streaming: lines that look like closing fences and are not (or
// are), blank lines, markup, NUL, tabs and line ends of every kind.
const codeLine = fc.oneof(
  line,
  fc.constantFrom("", " ", "  \t", "\t```", "    ```", "   ```", "``", "```", "````", "~~~", "``` x", "```js", "<b>&amp;</b>", "</code><img src=x onerror=pwn()>", "a\0b", "x\ty"),
);
const openFenceText = fc
  .tuple(
    fc.array(fc.tuple(block, separator), { maxLength: 3 }),
    fc.constantFrom("", "Here is the file:\n", "- a list item\n", "> a quote\n"),
    fc.constantFrom("```", "````", "~~~", "```ts", "~~~ py", "```` js extra"),
    fc.array(fc.tuple(codeLine, fc.constantFrom("\n", "\r\n", "\r")), { maxLength: 10 }),
  )
  .map(([before, lead, opening, code]) => before.map(([b, s]) => b + s).join("") + lead + opening + "\n" + code.map(([l, end]) => l + end).join(""));

/** The tail as markdown-it renders it, if it holds a fence opened at the margin: the text up to its code, plus the code. */
function renderedAsOpenFence(segmenter: MarkdownSegmenter): string | null {
  const fence = segmenter.openFence;
  if (fence === null) return null;
  const { tail } = segmenter;
  const empty = markdown.render(tail.slice(0, fence.codeStart));
  const end = "</code></pre>\n";
  assert.ok(empty.endsWith(end), `not a fence at the end: ${JSON.stringify(empty)}`);
  const code = codeText(tail.slice(fence.codeStart, fence.wholeLinesEnd)) + fence.unfinishedLine;
  return empty.slice(0, -end.length) + markdown.utils.escapeHtml(code) + end;
}

describe("MarkdownSegmenter", function () {
  it("cuts at a blank line followed by a line at the margin", function () {
    assert.deepEqual(split(["One.\n\nTwo.\n\nThree"]), { segments: ["One.\n\n", "Two.\n\n"], tail: "Three" });
  });

  it("does not cut inside a fenced code block, even at blank lines", function () {
    const text = "```\na\n\nb\n```\n\nafter";
    assert.deepEqual(split([text]), { segments: ["```\na\n\nb\n```\n\n"], tail: "after" });
  });

  it("keeps a fence open until a closing fence of the same kind and at least its length", function () {
    const text = "````\na\n```\n\nstill code\n~~~~\n\nstill code\n````\n\nafter";
    assert.deepEqual(split([text]).segments, ["````\na\n```\n\nstill code\n~~~~\n\nstill code\n````\n\n"]);
  });

  it("does not take a backtick line with backticks in its info string for a fence", function () {
    assert.deepEqual(split(["```inline``` text\n\nnext"]).segments, ["```inline``` text\n\n"]);
  });

  it("does not cut before an indented line, which may continue the block above", function () {
    assert.deepEqual(split(["- item\n\n  continued\n\n    code"]), { segments: [], tail: "- item\n\n  continued\n\n    code" });
  });

  it("cuts before an unfinished line once its first character shows it starts at the margin", function () {
    const segmenter = new MarkdownSegmenter();
    assert.deepEqual(segmenter.push("Done.\n\nN"), ["Done.\n\n"]);
    assert.deepEqual(segmenter.push("ext line.\n"), []);
    assert.equal(segmenter.tail, "Next line.\n");
  });

  it("reads CR LF and a lone CR as line breaks, as markdown-it does, even when a CR LF arrives in two pieces", function () {
    assert.deepEqual(split(["```\r\na\r", "\n\r\nb\r\n```\r\rnext"]), { segments: ["```\na\n\nb\n```\n\n"], tail: "next" });
  });

  it("loses and repeats no text, however it is split (line ends become LF)", function () {
    fc.assert(
      fc.property(document, cuts, (text, at) => {
        const { segments, tail } = split(piecesOf(text, at));
        assert.equal(segments.join("") + tail, text.replace(/\r\n?/g, "\n"));
      }),
      { numRuns: 300 },
    );
  });

  it("cuts streamed text where it cuts the same text given whole", function () {
    fc.assert(
      fc.property(document, cuts, (text, at) => {
        assert.deepEqual(split(piecesOf(text, at)), split([text]));
      }),
      { numRuns: 300 },
    );
  });

  it("renders each segment on its own exactly as it renders inside the whole text", function () {
    fc.assert(
      fc.property(document, (text) => {
        const { segments, tail } = split([text]);
        const piecewise = [...segments, tail].map((part) => markdown.render(part)).join("");
        assert.equal(piecewise, markdown.render(text));
      }),
      { numRuns: 300 },
    );
  });

  it("tells where the code of a fence still open at the end starts, and which of its lines are whole", function () {
    const segmenter = new MarkdownSegmenter();
    segmenter.push("Intro\n\n```ts\nconst a = 1;\ncons");
    assert.equal(segmenter.tail, "```ts\nconst a = 1;\ncons");
    assert.deepEqual(segmenter.openFence, { codeStart: 6, wholeLinesEnd: 19, unfinishedLine: "cons" });
    segmenter.push("t b = 2;\n```");
    assert.deepEqual(segmenter.openFence, { codeStart: 6, wholeLinesEnd: 32, unfinishedLine: "" }, "a last line that closes the fence shows nothing");
    segmenter.push("\n");
    assert.equal(segmenter.openFence, null);
  });

  it("reports no open fence before its opening line is whole, nor one indented from the margin", function () {
    const segmenter = new MarkdownSegmenter();
    segmenter.push("```ts");
    assert.equal(segmenter.openFence, null);
    assert.equal(split(["- item\n\n  ```\n  code\n"]).tail, "- item\n\n  ```\n  code\n");
    const indented = new MarkdownSegmenter();
    indented.push("- item\n\n  ```\n  code\n");
    assert.equal(indented.openFence, null);
  });

  it("renders a tail that ends in an open fence as its text up to the code plus the code, at every point of the stream", function () {
    let checked = 0;
    fc.assert(
      fc.property(openFenceText, (text) => {
        const segmenter = new MarkdownSegmenter();
        for (const piece of text) {
          segmenter.push(piece);
          const expected = renderedAsOpenFence(segmenter);
          if (expected === null) continue;
          checked++;
          assert.equal(expected, markdown.render(segmenter.tail));
        }
      }),
      { numRuns: 200 },
    );
    assert.ok(checked > 5000, `only ${checked} open fences checked`);
  });
});
