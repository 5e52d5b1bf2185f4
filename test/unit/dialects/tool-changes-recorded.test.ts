// What the tool cards of every stream CLI show, read from the real recordings as `agent-stream transcript` reads them
// (`--dialect auto`): each edit's files with their `+N −M`, whole or an excerpt, and what each tool returned.
import * as assert from "node:assert/strict";
import { diffLines } from "../../../src/common/line-diff";
import { createAdapter } from "../../../src/dialects/registry";
import type { ToolCard, Transcript } from "../../../src/protocol/transcript";
import { replayStream } from "../../../src/session/replay";
import * as harness from "../../helpers/dialect-harness";
import { tools } from "../../helpers/dialect-harness";
import { chunksOf } from "../../helpers/stream-builder";

const transcriptOf = (folder: string, scenario: string): Promise<Transcript> => harness.transcriptOf(harness.fixture(folder, `${scenario}.ndjson`), createAdapter("auto"));

/** Each changed file of a card as "name +N −M", with "(excerpt)" where only the replaced part is known. */
function changes(card: ToolCard | undefined): string[] {
  return (card?.diffs ?? []).map((diff) => {
    const { added, removed } = diffLines(diff.oldText, diff.newText);
    const name = diff.path.split("/").at(-1);
    return `${name}${diff.oldText === null ? " (new)" : ""} +${added} −${removed}${diff.excerpt ? " (excerpt)" : ""}`;
  });
}

const byName = (transcript: Transcript, name: string) => tools(transcript.blocks).filter((card) => card.tool === name);

describe("edits as diffs and output on the cards, from the real CLIs' recordings", () => {
  for (const version of ["2.1.197", "2.1.330"]) {
    describe(`Claude Code ${version}`, () => {
      const folder = `claude-recorded/${version}`;
      let transcript: Transcript;
      before(async () => {
        transcript = await transcriptOf(folder, "tool-edit");
      });

      it("shows an Edit as the whole file before and after, from the file its result reports", () => {
        const [edit] = byName(transcript, "Edit");
        assert.deepEqual(changes(edit), ["notes.txt +1 −1"]);
        assert.equal(edit?.diffs[0]?.oldText, "Remember: the build is green.\nSecond line: ünïcødé ✓\n");
        assert.equal(edit?.diffs[0]?.newText, "Remember: the build is red.\nSecond line: ünïcødé ✓\n");
      });

      it("shows a Write of a new file as a new file, and a NotebookEdit as the notebook before and after", () => {
        assert.deepEqual(changes(byName(transcript, "Write")[0]), ["todo.md (new) +3 −0"]);
        const [notebook] = byName(transcript, "NotebookEdit");
        assert.deepEqual(changes(notebook), ["cells.ipynb +1 −3"]);
        assert.match(notebook?.diffs[0]?.newText ?? "", /"source": "print\('red'\)\\n"/);
      });

      it("puts what each tool returned on its card: a command's output with its code fence as it is, an image as one line", () => {
        assert.equal(byName(transcript, "Bash")[0]?.output, "Before\n```ts\nconst x = 1;\n```\nAfter");
        const reads = byName(transcript, "Read").map((card) => card.output);
        assert.deepEqual(reads.at(-1), "[image: image/png, not shown]");
        assert.match(reads[0] ?? "", /^1\tRemember: the build is green\./);
        assert.ok(transcript.blocks.every((block) => !JSON.stringify(block).includes("iVBORw0KGgo")), "no image data reaches the transcript");
      });

      it("shows an edit's proposed change while it waits, before its result says more", async () => {
        const stream = harness.fixture(folder, "tool-edit.ndjson");
        const untilEditResult = stream.slice(0, stream.indexOf('"tool_use_id":"toolu_mock_edit_02","type":"tool_result"'));
        const cut = await harness.transcriptOf(untilEditResult.slice(0, untilEditResult.lastIndexOf("\n") + 1), createAdapter("auto"));
        const [edit] = byName(cut, "Edit");
        assert.equal(edit?.status, "abandoned");
        assert.deepEqual(changes(edit), ["notes.txt +1 −1 (excerpt)"]);
      });

      it("keeps a command's output up to the transcript's limit, and says how much more there was", async () => {
        const stream = harness.fixture(folder, "tool-edit.ndjson");
        const session = await replayStream(chunksOf([stream]), { adapter: createAdapter("claude"), limits: { blockChars: 10 } });
        const [bash] = byName(session.toTranscript(), "Bash");
        assert.equal(bash?.output, "Before\n```\n… 25 more characters not kept");
      });

      it("keeps a denied command's card without output: its error says why", async () => {
        const denied = await transcriptOf(folder, "tool-permission-denied");
        const [bash] = byName(denied, "Bash");
        assert.equal(bash?.output, null);
        assert.match(bash?.error ?? "", /needs approval|was blocked/);
      });
    });
  }

  it("pi 0.73.1: an edit as the parts it replaced, a write as the file it wrote, a command's output", async () => {
    const transcript = await transcriptOf("pi-recorded/0.73.1", "tool-edit");
    assert.deepEqual(tools(transcript.blocks).map(changes), [["notes.txt +1 −1 (excerpt)"], ["todo.md (new) +3 −0"], []]);
    assert.deepEqual(
      tools(transcript.blocks).map((card) => card.output),
      ["Successfully replaced 1 block(s) in notes.txt.", "Successfully wrote 24 bytes to todo.md", "Before\n```ts\nconst x = 1;\n```\nAfter\n"],
    );
  });

  it("Gemini CLI 0.61.0: replace and write_file from their parameters (their results say nothing of the file)", async () => {
    const transcript = await transcriptOf("gemini-recorded/0.61.0", "tool-edit");
    assert.deepEqual(tools(transcript.blocks).map(changes), [["notes.txt +1 −1 (excerpt)"], ["todo.md (new) +3 −0"]]);
  });

  for (const version of ["0.15.10", "0.24.4"]) {
    it(`Qwen Code ${version}: edit and write_file, and what each returned`, async () => {
      const transcript = await transcriptOf(`qwen-recorded/${version}`, "tool-edit");
      assert.deepEqual(tools(transcript.blocks).map(changes), [[], ["notes.txt +1 −1 (excerpt)"], ["todo.md (new) +3 −0"]]);
      assert.equal(tools(transcript.blocks)[0]?.output, "Remember: the build is green.\nSecond line: ünïcødé ✓\n");
    });
  }

  it("opencode 1.18.33: an edit from its unified diff, a write from its input", async () => {
    const transcript = await transcriptOf("opencode-recorded/1.18.33", "tool-edit");
    assert.deepEqual(tools(transcript.blocks).map(changes), [["notes.txt +1 −1 (excerpt)"], ["todo.md (new) +3 −0"]]);
  });

  it("Codex 0.169.0: a command's output on its card; a patch names its files only (exec --json carries no text)", async () => {
    const used = await transcriptOf("codex-recorded/0.169.0", "tool-use");
    assert.deepEqual(
      tools(used.blocks).map((card) => card.output),
      ["Remember: the build is green.\nSecond line: ünïcødé ✓\n", "hi\n"],
    );
    const edited = await transcriptOf("codex-recorded/0.169.0", "tool-edit");
    const [patch] = byName(edited, "apply_patch");
    assert.deepEqual(patch?.diffs, []);
    assert.match(patch?.output ?? "", /not the change itself: no diff to show here/, "the card says why it has no diff");
    assert.deepEqual(
      patch?.locations.map((place) => place.path.split("/").at(-1)),
      ["notes.txt", "todo.md"],
    );
  });

  it("agent-code (hand-written from its source): FileEdit and FileWrite from their input, and a command's output", async () => {
    const transcript = await harness.transcriptOf(harness.fixture("agent-code", "tool-edit.ndjson"), createAdapter("auto"));
    assert.deepEqual(tools(transcript.blocks).map(changes), [["notes.txt +1 −1 (excerpt)"], ["todo.md (new) +3 −0"], []]);
    assert.equal(tools(transcript.blocks)[2]?.output, "Before\n```ts\nconst x = 1;\n```\nAfter\n");
  });

  it("agent-code: what a tool that succeeded printed", async () => {
    const transcript = await harness.transcriptOf(harness.fixture("agent-code", "tool-use-failing-tool.ndjson"), createAdapter("auto"));
    assert.deepEqual(
      tools(transcript.blocks).map((card) => [card.tool, card.output]),
      [
        ["FileRead", null],
        ["Grep", "src/main.rs:12:    // TODO: handle errors\n"],
        ["Grep", null],
        ["Bash", "hi\n"],
      ],
    );
  });
});
