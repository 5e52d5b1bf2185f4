// Gemini CLI's stream-json, read from the real recordings (test/fixtures/gemini-recorded/README.md).
import * as assert from "node:assert/strict";
import { GeminiAdapter, geminiDialect } from "../../../src/dialects/gemini-adapter";
import type { Transcript } from "../../../src/protocol/transcript";
import * as harness from "../../helpers/dialect-harness";
import { FIXTURES, assertClaimsNone, errors, inFolders, kinds, lines, ndjsonFiles, texts, tools } from "../../helpers/dialect-harness";
import { DIALECTS } from "../../../src/dialects/registry";

const fixture = (name: string) => harness.fixture("gemini-recorded/0.61.0", `${name}.ndjson`);
const transcriptOf = (ndjson: string): Promise<Transcript> => harness.transcriptOf(ndjson, new GeminiAdapter(() => 1_000));
const cards = (transcript: Transcript) => tools(transcript.blocks).map(({ tool, status, parameters, error }) => ({ tool, status, parameters, error }));

describe("the gemini dialect", () => {
  describe("recorded runs of Gemini CLI 0.61.0", () => {
    it("shows the streamed answer as one text, without the prompt it echoes, and the run's tokens", async () => {
      const transcript = await transcriptOf(fixture("plain-answer"));
      assert.equal(transcript.status, "completed");
      assert.deepEqual(kinds(transcript.blocks), ["text", "status"]);
      const [answer] = texts(transcript.blocks);
      assert.match(answer, /^Hello 👋! [\s\S]*👨‍👩‍👧‍👦[\s\S]*```ts\nfunction greet[\s\S]*完了 ✅$/);
      assert.ok(!answer.includes("Greet me in three languages"), "the echoed prompt is not the answer");
      assert.equal(transcript.done.tokensUsed, 129);
      assert.equal(transcript.done.durationMs, 417, "the duration Gemini CLI measured");
      assert.deepEqual(transcript.problems, []);
    });

    it("puts what a shell command printed on its card (Gemini sends nothing for a read)", async () => {
      const [read, shell] = tools((await transcriptOf(fixture("tool-use"))).blocks);
      assert.equal(read?.output, null);
      assert.match(shell?.output ?? "", /hi/);
    });

    it("shows each tool as a card with its parameters between the texts around it", async () => {
      const transcript = await transcriptOf(fixture("tool-use"));
      assert.deepEqual(kinds(transcript.blocks), ["text", "tool", "text", "tool", "text", "status"]);
      assert.deepEqual(
        cards(transcript).map(({ tool, status, parameters }) => ({ tool, status, parameters })),
        [
          { tool: "read_file", status: "succeeded", parameters: { file_path: "/tmp/agent-stream-gemini-workspace-95ybEf/notes.txt" } },
          { tool: "run_shell_command", status: "succeeded", parameters: { command: "echo hi", description: "Print hi" } },
        ],
      );
      assert.deepEqual(texts(transcript.blocks), ["I'll read the notes first.", "Now I'll run the command.", "The notes say the build is green, and `echo hi` printed `hi`."]);
      assert.deepEqual(
        tools(transcript.blocks).map((card) => card.durationMs),
        [284, 210],
        "timed by the CLI's own timestamps",
      );
    });

    it("shows a failed tool as failed, with the CLI's reason, in a run that still completes", async () => {
      const transcript = await transcriptOf(fixture("tool-error"));
      assert.equal(transcript.status, "completed");
      const [card] = cards(transcript);
      assert.equal(card.status, "failed");
      assert.equal(card.error, "File not found: /tmp/agent-stream-gemini-workspace-KBL14r/missing.txt");
    });

    it("shows edits as cards with what they change (the stream carries no diff)", async () => {
      const transcript = await transcriptOf(fixture("tool-edit"));
      assert.deepEqual(
        cards(transcript).map(({ tool, status, parameters }) => [tool, status, parameters?.new_string ?? parameters?.content]),
        [
          ["replace", "succeeded", "the build is red."],
          ["write_file", "succeeded", "# Todo\n\n- fix the build\n"],
        ],
      );
    });

    it("reads a 401 as AUTH_EXPIRED, in the API's own words, and the run as failed", async () => {
      const transcript = await transcriptOf(fixture("auth-error"));
      assert.equal(transcript.status, "failed");
      assert.deepEqual(errors(transcript.blocks), [
        { kind: "error", code: "AUTH_EXPIRED", message: "API key not valid. Please pass a valid API key. (HTTP 401, UNAUTHENTICATED)", recoverable: false },
      ]);
      assert.deepEqual(transcript.problems, []);
    });

    it("reads a 500 it gave up on as NETWORK_TIMEOUT", async () => {
      const transcript = await transcriptOf(fixture("server-error-give-up"));
      assert.equal(transcript.status, "failed");
      assert.deepEqual(
        errors(transcript.blocks).map((b) => b.kind === "error" && b.code),
        ["NETWORK_TIMEOUT"],
      );
    });

    for (const scenario of ["sigint", "sigterm"]) {
      it(`does not call a run cut short by ${scenario.toUpperCase()} (no result) completed, and keeps what it said`, async () => {
        const transcript = await transcriptOf(fixture(scenario));
        assert.equal(transcript.status, "failed");
        assert.match(texts(transcript.blocks).join(""), /^word1 /);
        assert.deepEqual(
          transcript.problems.map((p) => p.code),
          ["MISSING_DONE"],
        );
      });
    }
  });

  describe("lines", () => {
    it("names a tool whose use it did not see from the id the CLI made up", async () => {
      const transcript = await transcriptOf(
        lines(
          { type: "init", session_id: "s", model: "m" },
          { type: "tool_result", tool_id: "glob__glob_1795574295985_0", status: "error", output: "No files." },
          { type: "result", status: "success", stats: {} },
        ),
      );
      assert.deepEqual(cards(transcript), [{ tool: "glob", status: "failed", parameters: null, error: "No files." }]);
    });

    it("reports a tool_use without its id as malformed, naming the field", () => {
      const { problems } = harness.decodeAll(new GeminiAdapter(), [{ type: "tool_use", tool_name: "read_file" }]);
      assert.deepEqual(problems, ["MALFORMED_EVENT tool_use: tool_id: missing, expected string"]);
    });
  });

  describe("recognition", () => {
    it("is what auto reads the recordings as", () => {
      const first = harness.parseObject(fixture("plain-answer").split("\n")[0]);
      assert.ok(first);
      assert.equal(DIALECTS.find((dialect) => dialect.recognizes(first))?.name, "gemini");
    });

    it("claims no line of the other dialects' fixtures, and they claim none of its", () => {
      const all = ndjsonFiles(FIXTURES);
      assertClaimsNone(
        all.filter((f) => !inFolders(f, "gemini")),
        geminiDialect,
      );
      assertClaimsNone(
        all.filter((f) => inFolders(f, "gemini")),
        ...DIALECTS.filter((d) => d !== geminiDialect),
      );
    });
  });
});
