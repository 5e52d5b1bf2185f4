// `agent-stream transcript --format json` on the stream CLIs' real recordings: each edit card's `diffs` and each
// tool's `output`, as the chat shows them (the same adapters), in the documented JSON shape.
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { TranscriptSchema, type ToolCard } from "../../../src/protocol/transcript";
import { agentStream } from "../../helpers/agent-stream-cli";
import { repoRoot } from "../../helpers/repo";

const recording = (folder: string) => path.join(repoRoot, "test", "fixtures", folder, "tool-edit.ndjson");

async function cardsOf(folder: string): Promise<ToolCard[]> {
  const result = await agentStream(["transcript", recording(folder), "--format", "json"]);
  assert.equal(result.code, 0, result.stderr);
  const json: unknown = JSON.parse(result.stdout);
  const transcript = TranscriptSchema.parse(json);
  assert.deepEqual(json, transcript, "no keys beyond the documented ones");
  return transcript.blocks.filter((block): block is ToolCard => block.kind === "tool");
}

/** Each card as its tool, the files it changed (name, excerpt or whole) and whether it has output. */
const summary = (cards: readonly ToolCard[]) =>
  cards.map((card) => ({
    tool: card.tool,
    files: card.diffs.map((diff) => `${path.basename(diff.path)}${diff.oldText === null ? " new" : diff.excerpt === true ? " excerpt" : " whole"}`),
    output: card.output !== null,
  }));

describe("agent-stream transcript --format json: the stream CLIs' diffs and output", function () {
  this.timeout(60_000);

  it("fills Claude Code's edit cards with whole-file diffs and every tool's output", async () => {
    const cards = await cardsOf("claude-recorded/2.1.330");
    assert.deepEqual(summary(cards), [
      { tool: "Read", files: [], output: true },
      { tool: "Edit", files: ["notes.txt whole"], output: true },
      { tool: "Write", files: ["todo.md new"], output: true },
      { tool: "Read", files: [], output: true },
      { tool: "NotebookEdit", files: ["cells.ipynb whole"], output: true },
      { tool: "Bash", files: [], output: true },
      { tool: "Read", files: [], output: true },
    ]);
    assert.equal(cards[5]?.output, "Before\n```ts\nconst x = 1;\n```\nAfter");
  });

  it("fills pi's, Gemini CLI's, Qwen Code's and opencode's edit cards", async () => {
    assert.deepEqual(summary(await cardsOf("pi-recorded/0.73.1")), [
      { tool: "edit", files: ["notes.txt excerpt"], output: true },
      { tool: "write", files: ["todo.md new"], output: true },
      { tool: "bash", files: [], output: true },
    ]);
    assert.deepEqual(
      summary(await cardsOf("gemini-recorded/0.61.0")).map((card) => card.files),
      [["notes.txt excerpt"], ["todo.md new"]],
    );
    assert.deepEqual(
      summary(await cardsOf("qwen-recorded/0.24.4")).map((card) => card.files),
      [[], ["notes.txt excerpt"], ["todo.md new"]],
    );
    assert.deepEqual(
      summary(await cardsOf("opencode-recorded/1.18.33")).map((card) => card.files),
      [["notes.txt excerpt"], ["todo.md new"]],
    );
  });
});
