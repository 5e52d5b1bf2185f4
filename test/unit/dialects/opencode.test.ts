// opencode's `run --format json` stream, read from the real recordings (test/fixtures/opencode-recorded/README.md).
import * as assert from "node:assert/strict";
import { OpencodeAdapter, opencodeDialect } from "../../../src/dialects/opencode-adapter";
import { DIALECTS } from "../../../src/dialects/registry";
import type { Transcript } from "../../../src/protocol/transcript";
import * as harness from "../../helpers/dialect-harness";
import { FIXTURES, assertClaimsNone, errors, inFolders, kinds, lines, ndjsonFiles, texts, tools } from "../../helpers/dialect-harness";

const fixture = (name: string) => harness.fixture("opencode-recorded/1.18.33", `${name}.ndjson`);
const transcriptOf = (ndjson: string): Promise<Transcript> => harness.transcriptOf(ndjson, new OpencodeAdapter(() => 1_000));
const cards = (transcript: Transcript) => tools(transcript.blocks).map(({ tool, status, parameters, error }) => ({ tool, status, parameters, error }));

describe("the opencode dialect", () => {
  describe("recorded runs of opencode 1.18.33", () => {
    it("shows the whole answer and the run's tokens, and ends with its last step", async () => {
      const transcript = await transcriptOf(fixture("plain-answer"));
      assert.equal(transcript.status, "completed");
      assert.deepEqual(kinds(transcript.blocks), ["text", "status"]);
      assert.match(texts(transcript.blocks)[0], /^Hello 👋![\s\S]*完了 ✅$/);
      assert.equal(transcript.done.tokensUsed, 129);
      assert.match(transcript.sessionId ?? "", /^ses_/);
      assert.deepEqual(transcript.problems, []);
    });

    it("shows the reasoning part as thinking before the answer", async () => {
      const transcript = await transcriptOf(fixture("thinking"));
      assert.deepEqual(kinds(transcript.blocks), ["thinking", "text", "status"]);
    });

    it("shows each tool as a card with its input, through all the steps of the run, with the tokens of every step", async () => {
      const transcript = await transcriptOf(fixture("tool-use"));
      assert.equal(transcript.status, "completed");
      assert.deepEqual(kinds(transcript.blocks), ["text", "tool", "text", "tool", "text", "status"]);
      assert.deepEqual(cards(transcript), [
        { tool: "read", status: "succeeded", parameters: { filePath: "/tmp/agent-stream-opencode-workspace-xQ4y0c/notes.txt" }, error: null },
        { tool: "bash", status: "succeeded", parameters: { command: "echo hi", description: "Print hi" }, error: null },
      ]);
      assert.equal(transcript.done.tokensUsed, 376);
      assert.deepEqual(
        tools(transcript.blocks).map((card) => card.durationMs),
        [1245, 1438],
        "timed by the part's own start and end",
      );
    });

    it("shows edits as cards with their old and new strings", async () => {
      const transcript = await transcriptOf(fixture("tool-edit"));
      assert.deepEqual(
        cards(transcript).map(({ tool, status, parameters }) => [tool, status, parameters?.newString ?? parameters?.content]),
        [
          ["edit", "succeeded", "the build is red."],
          ["write", "succeeded", "# Todo\n\n- fix the build\n"],
        ],
      );
    });

    it("puts what a tool returned on its card, an edit's change as a diff of the lines it changed, and a write as the file it wrote", async () => {
      const used = tools((await transcriptOf(fixture("tool-use"))).blocks);
      assert.match(used[1]?.output ?? "", /^hi\n?$/);
      const [edit, write] = tools((await transcriptOf(fixture("tool-edit"))).blocks);
      assert.equal(edit?.output, "Edit applied successfully.");
      assert.deepEqual(edit?.diffs, [
        {
          path: "/tmp/agent-stream-opencode-workspace-RdekGa/notes.txt",
          oldText: "Remember: the build is green.\nSecond line: ünïcødé ✓\n",
          newText: "Remember: the build is red.\nSecond line: ünïcødé ✓\n",
          excerpt: true,
        },
      ]);
      // opencode reports no diff for a write: its input is the file it writes.
      assert.deepEqual(write?.diffs, [{ path: "/tmp/agent-stream-opencode-workspace-RdekGa/todo.md", oldText: null, newText: "# Todo\n\n- fix the build\n" }]);
    });

    it("shows a failed tool as failed, with its error", async () => {
      const transcript = await transcriptOf(fixture("tool-error"));
      assert.equal(transcript.status, "completed");
      assert.deepEqual(
        cards(transcript).map(({ status, error }) => [status, error]),
        [["failed", "File not found: /tmp/agent-stream-opencode-workspace-m4uAWR/missing.txt"]],
      );
    });

    it("reads a 401 as AUTH_EXPIRED and the run as failed", async () => {
      const transcript = await transcriptOf(fixture("auth-error"));
      assert.equal(transcript.status, "failed");
      assert.deepEqual(errors(transcript.blocks), [{ kind: "error", code: "AUTH_EXPIRED", message: "Incorrect API key provided: test-key. (HTTP 401)", recoverable: false }]);
      assert.deepEqual(transcript.problems, []);
    });

    it("reads a 500 it gave up on as NETWORK_TIMEOUT", async () => {
      const transcript = await transcriptOf(fixture("server-error-give-up"));
      assert.deepEqual(
        errors(transcript.blocks).map((b) => b.kind === "error" && b.code),
        ["NETWORK_TIMEOUT"],
      );
    });

    for (const scenario of ["sigint", "sigterm"]) {
      it(`does not call a run cut short by ${scenario.toUpperCase()} (a step that never finished) completed`, async () => {
        const transcript = await transcriptOf(fixture(scenario));
        assert.equal(transcript.status, "failed");
        assert.deepEqual(
          transcript.problems.map((p) => p.code),
          ["MISSING_DONE"],
        );
      });
    }
  });

  describe("lines", () => {
    const part = (type: string, fields: object) => ({ type, timestamp: 1, sessionID: "ses_1", part: { type, ...fields } });

    it("opens a card for a tool printed while it runs, and completes the same card", async () => {
      const tool = (status: string) => part("tool_use", { tool: "bash", callID: "c1", state: { status, input: { command: "ls" } } });
      const transcript = await transcriptOf(lines(part("step_start", {}), tool("running"), tool("completed"), part("step_finish", { reason: "stop" })));
      assert.deepEqual(
        cards(transcript).map((card) => [card.tool, card.status]),
        [["bash", "succeeded"]],
      );
    });

    it("does not end the run at a step that finished with tool calls", async () => {
      const transcript = await transcriptOf(lines(part("step_start", {}), part("step_finish", { reason: "tool-calls" })));
      assert.equal(transcript.status, "failed", "the answer to the tools' results never came");
    });
  });

  describe("recognition", () => {
    it("is what auto reads the recordings as", () => {
      const first = harness.parseObject(fixture("plain-answer").split("\n")[0]);
      assert.ok(first);
      assert.equal(DIALECTS.find((dialect) => dialect.recognizes(first))?.name, "opencode");
    });

    it("claims no line of the other dialects' fixtures, and they claim none of its", () => {
      const all = ndjsonFiles(FIXTURES);
      assertClaimsNone(
        all.filter((f) => !inFolders(f, "opencode")),
        opencodeDialect,
      );
      assertClaimsNone(
        all.filter((f) => inFolders(f, "opencode")),
        ...DIALECTS.filter((d) => d !== opencodeDialect),
      );
    });
  });
});
