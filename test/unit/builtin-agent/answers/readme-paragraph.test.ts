import * as assert from "node:assert/strict";
import { firstParagraph } from "../../../../src/builtin-agent/answers/readme-paragraph";

describe("the README's first paragraph", () => {
  it("skips the title, badges and HTML, and joins the paragraph's lines", () => {
    const readme = '# Title\n\n<p align="center"><img src="x.png"></p>\n[![ci](b.svg)](l)\n\nFirst line\nsecond line.\n\nNext paragraph.';
    assert.equal(firstParagraph(readme), "First line second line.");
  });

  it("skips front matter and a setext title", () => {
    assert.equal(firstParagraph("---\ntitle: x\n---\nTitle\n=====\n\nThe body."), "The body.");
  });

  it("does not quote code or lists", () => {
    assert.equal(firstParagraph("```\ncode line\n```\n- item\n\nProse."), "Prose.");
  });

  it("says there is none when the README has no prose", () => {
    assert.equal(firstParagraph("# Title\n\n## Section\n"), null);
  });
});
