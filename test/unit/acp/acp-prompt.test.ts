import * as assert from "node:assert/strict";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { acpPrompt } from "../../../src/acp/acp-prompt";
import type { PromptPart } from "../../../src/protocol/prompt-parts";

const cwd = path.resolve("/work/project");
const PNG = "iVBORw0KGgo=";

function blocksOf(parts: PromptPart[], capabilities: Parameters<typeof acpPrompt>[2]) {
  const prompt = acpPrompt("Explain this", parts, capabilities, "Qwen Code", cwd);
  assert.ok(prompt.ok, "the prompt is refused");
  return prompt.blocks;
}

describe("a prompt as an ACP agent takes it", () => {
  it("sends the user's words first, then a picked file as a resource_link by its file URI and its name", () => {
    const blocks = blocksOf([{ kind: "file", path: "src/a.ts" }], {});
    assert.deepEqual(blocks, [
      { type: "text", text: "Explain this" },
      { type: "resource_link", uri: pathToFileURL(path.join(cwd, "src/a.ts")).href, name: "src/a.ts" },
    ]);
  });

  it("links a folder with a slash to its name, and an absolute path (a multi-root workspace's) as it is", () => {
    const other = path.resolve("/work/other/lib");
    const blocks = blocksOf([{ kind: "folder", path: "src" }, { kind: "file", path: other }], {});
    assert.deepEqual(blocks.slice(1), [
      { type: "resource_link", uri: pathToFileURL(path.join(cwd, "src")).href, name: "src/" },
      { type: "resource_link", uri: pathToFileURL(other).href, name: other },
    ]);
  });

  it("says a file's line range in text before its link, which cannot carry it", () => {
    const blocks = blocksOf([{ kind: "file", path: "src/a.ts", lines: { start: 3, end: 9 } }], {});
    assert.deepEqual(blocks[1], { type: "text", text: "Lines 3–9 of src/a.ts:" });
    assert.equal(blocks[2]?.type, "resource_link");
  });

  it("embeds a selection as a resource with its text when the agent takes embedded context", () => {
    const selection: PromptPart = { kind: "selection", path: "src/a.ts", lines: { start: 2, end: 4 }, text: "const a = 1;", language: "typescript" };
    const blocks = blocksOf([selection], { embeddedContext: true });
    assert.deepEqual(blocks[1], {
      type: "resource",
      resource: { uri: `${pathToFileURL(path.join(cwd, "src/a.ts")).href}#L2-4`, text: "const a = 1;", mimeType: "text/plain" },
    });
  });

  it("writes a selection into the text, fenced with its place, when the agent takes no embedded context", () => {
    const selection: PromptPart = { kind: "selection", path: "src/a.ts", lines: { start: 2, end: 2 }, text: "const a = 1;", language: "typescript" };
    const blocks = blocksOf([selection], undefined);
    assert.deepEqual(blocks[1], { type: "text", text: "Selected text (src/a.ts:2):\n```typescript\nconst a = 1;\n```" });
  });

  it("sends an image as an image block to an agent that takes images", () => {
    const blocks = blocksOf([{ kind: "image", mimeType: "image/png", data: PNG, name: "shot.png" }], { image: true });
    assert.deepEqual(blocks[1], { type: "image", mimeType: "image/png", data: PNG });
  });

  it("refuses the whole prompt, naming the agent, when it has an image and the agent takes none", () => {
    const prompt = acpPrompt("Look", [{ kind: "file", path: "a.ts" }, { kind: "image", mimeType: "image/png", data: PNG, name: "shot.png" }], { embeddedContext: true }, "Qwen Code", cwd);
    assert.deepEqual(prompt, { ok: false, refusal: "Qwen Code does not take images: remove the image to send this prompt (nothing was sent)." });
  });
});
