import * as assert from "node:assert/strict";
import { toolOutputText } from "../../../../src/dialects/kit/tool-output";

describe("a tool's output as the text its card shows", () => {
  it("keeps a string and the text of text blocks, one block a line", () => {
    assert.equal(toolOutputText("hi\n"), "hi\n");
    assert.equal(toolOutputText([{ type: "text", text: "one" }, { type: "text", text: "two" }]), "one\ntwo");
  });

  it("shows an image as one placeholder line naming its type, never its data", () => {
    const claude = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo" } };
    const pi = { type: "image", mimeType: "image/jpeg", data: "/9j/4AAQ" };
    assert.equal(toolOutputText([{ type: "text", text: "Here:" }, claude, pi]), "Here:\n[image: image/png, not shown]\n[image: image/jpeg, not shown]");
  });

  it("does not take a media type that is not one as words to show", () => {
    assert.equal(toolOutputText([{ type: "image", mimeType: "image/png\n\u001b[31mred" }]), "[image, not shown]");
  });

  it("has no output for a result without any", () => {
    assert.equal(toolOutputText(""), undefined);
    assert.equal(toolOutputText([]), undefined);
    assert.equal(toolOutputText([{ type: "text", text: "" }]), undefined);
    assert.equal(toolOutputText({ text: "not a list" }), undefined);
  });
});
