import * as assert from "node:assert/strict";
import { buildPromptContext, MAX_SELECTION_CHARS, type EditorSnapshot } from "../../../src/panel/prompt-context";
import { promptWithContext } from "../../../src/panel/conversation";

const editor: EditorSnapshot = {
  workspaceFolder: { name: "shop", path: "/home/ada/shop" },
  activeFile: { path: "src/cart.ts", languageId: "typescript" },
  selection: { startLine: 3, endLine: 5, text: "const total = items\n  .map(price)\n  .reduce(sum);\n" },
};
const all = { workspaceFolder: true, activeFile: true, selection: true };

describe("Ask about Workspace context", () => {
  it("sends the workspace folder, the active file and the selection in a fenced block", () => {
    const context = buildPromptContext(editor, all);
    assert.equal(context?.summary, "workspace shop · src/cart.ts · selection (lines 3–5)");
    assert.equal(
      promptWithContext("Why is the total wrong?", context),
      [
        "Why is the total wrong?",
        "",
        "Context from the editor:",
        "- Workspace folder: /home/ada/shop",
        "- Active file: src/cart.ts (typescript)",
        "- Selected text (src/cart.ts, lines 3–5):",
        "```typescript",
        "const total = items",
        "  .map(price)",
        "  .reduce(sum);",
        "```",
      ].join("\n"),
    );
  });

  it("sends only what the settings allow, and nothing at all when everything is off", () => {
    const fileOnly = buildPromptContext(editor, { workspaceFolder: false, activeFile: true, selection: false });
    assert.equal(fileOnly?.summary, "src/cart.ts");
    assert.doesNotMatch(fileOnly?.text ?? "", /shop|reduce/);
    assert.equal(buildPromptContext(editor, { workspaceFolder: false, activeFile: false, selection: false }), null);
    assert.equal(promptWithContext("plain", null), "plain");
  });

  it("leaves out what is not there: no editor open, an empty or blank selection", () => {
    const noEditor = buildPromptContext({ ...editor, activeFile: null, selection: null }, all);
    assert.equal(noEditor?.summary, "workspace shop");
    const blank = buildPromptContext({ ...editor, selection: { startLine: 1, endLine: 1, text: "  \n" } }, all);
    assert.doesNotMatch(blank?.text ?? "", /Selected/);
    assert.equal(buildPromptContext({ workspaceFolder: null, activeFile: null, selection: null }, all), null);
  });

  it("fences a selection that itself contains a code fence so it cannot end the block early", () => {
    const markdown = "Run:\n```sh\nnpm test\n```\n";
    const text = buildPromptContext({ ...editor, activeFile: { path: "README.md", languageId: "markdown" }, selection: { startLine: 1, endLine: 4, text: markdown } }, all)?.text ?? "";
    assert.match(text, /\n````markdown\nRun:\n```sh\nnpm test\n```\n````$/);
  });

  it("cuts a huge selection (the prompt is one command-line argument) and says so", () => {
    const huge = "x".repeat(MAX_SELECTION_CHARS * 3);
    const text = buildPromptContext({ ...editor, selection: { startLine: 1, endLine: 1, text: huge } }, all)?.text ?? "";
    assert.ok(text.length < MAX_SELECTION_CHARS + 1000, `context is ${text.length} characters`);
    assert.match(text, /line 1, first 32,768 characters\):/);
  });
});
