// Qwen Code's stream-json: Claude Code's shapes, read by the Claude adapter with Qwen's differences, from the real
// recordings of 0.15.10 (a failed model call reported as a success) and 0.24.4 (test/fixtures/qwen-recorded/README.md).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import { createAdapter, DIALECTS } from "../../../src/dialects/registry";
import { qwenDialect } from "../../../src/dialects/qwen-adapter";
import type { Transcript } from "../../../src/protocol/transcript";
import * as harness from "../../helpers/dialect-harness";
import { FIXTURES, assertClaimsNone, errors, inFolders, kinds, lines, ndjsonFiles, texts, tools } from "../../helpers/dialect-harness";

const VERSIONS = ["0.15.10", "0.24.4"] as const;
const fixture = (version: string, name: string) => harness.fixture(`qwen-recorded/${version}`, `${name}.ndjson`);
const transcriptOf = (ndjson: string): Promise<Transcript> => harness.transcriptOf(ndjson, qwenDialect.create());
const codes = (transcript: Transcript) => errors(transcript.blocks).map((b) => b.kind === "error" && [b.code, b.recoverable]);

describe("the qwen dialect", () => {
  for (const version of VERSIONS) {
    describe(`recorded runs of Qwen Code ${version}`, () => {
      it("reads a 401 as AUTH_EXPIRED and the run as failed, with the made-up error text shown as the error, not as an answer", async () => {
        const transcript = await transcriptOf(fixture(version, "auth-error"));
        assert.equal(transcript.status, "failed");
        assert.deepEqual(errors(transcript.blocks), [
          { kind: "error", code: "AUTH_EXPIRED", message: "[API Error: 401 Incorrect API key provided: test-key.]", recoverable: false },
        ]);
        assert.deepEqual(texts(transcript.blocks), []);
        assert.equal(transcript.done.success, false);
      });

      it("reads a 500 it gave up on as NETWORK_TIMEOUT and the run as failed", async () => {
        const transcript = await transcriptOf(fixture(version, "server-error-give-up"));
        assert.equal(transcript.status, "failed");
        assert.deepEqual(codes(transcript), [["NETWORK_TIMEOUT", false]]);
        assert.deepEqual(texts(transcript.blocks), []);
      });

      it("shows thinking and its answer once each, though Qwen repeats every block under a new id", async () => {
        const transcript = await transcriptOf(fixture(version, "thinking"));
        assert.deepEqual(kinds(transcript.blocks), ["thinking", "text", "status"]);
        assert.deepEqual(texts(transcript.blocks), ["17 × 23 = **391**."]);
      });

      it("shows each tool as a card with its streamed parameters, and a failed one with its reason", async () => {
        const used = await transcriptOf(fixture(version, "tool-use"));
        assert.deepEqual(
          tools(used.blocks).map(({ tool, status, parameters }) => [tool, status, parameters?.command ?? parameters?.file_path]),
          [
            ["read_file", "succeeded", tools(used.blocks)[0].parameters?.file_path],
            ["run_shell_command", "succeeded", "echo hi"],
          ],
        );
        assert.match(String(tools(used.blocks)[0].parameters?.file_path), /notes\.txt$/);
        const failed = await transcriptOf(fixture(version, "tool-error"));
        assert.equal(failed.status, "completed");
        assert.deepEqual(
          tools(failed.blocks).map(({ status, error }) => [status, error?.replace(/\/tmp\/\S+\//, "…/")]),
          [["failed", "File not found: …/missing.txt"]],
        );
      });

      it("does not call a run cut short by SIGINT (no result) completed, and keeps what it said", async () => {
        const transcript = await transcriptOf(fixture(version, "sigint"));
        assert.equal(transcript.status, "failed");
        assert.deepEqual(texts(transcript.blocks), ["word1 "]);
      });
    });
  }

  describe("lines", () => {
    const init = { type: "system", subtype: "init", session_id: "s", model: "m", qwen_code_version: "0.15.10" };
    const event = (e: object) => ({ type: "stream_event", session_id: "s", parent_tool_use_id: null, event: e });
    const textBlock = (...deltas: string[]) => [
      event({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
      ...deltas.map((text) => event({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })),
      event({ type: "content_block_stop", index: 0 }),
    ];
    const success = (result: string) => ({ type: "result", subtype: "success", session_id: "s", is_error: false, result, usage: {} });

    it("shows an answer that only begins like an error as the answer it is", async () => {
      const transcript = await transcriptOf(
        lines(init, event({ type: "message_start", message: { id: "m1" } }), ...textBlock("[API Error: 404 example]", " is what the docs show."), event({ type: "message_stop" }), success("x")),
      );
      assert.equal(transcript.status, "completed");
      assert.deepEqual(texts(transcript.blocks), ["[API Error: 404 example] is what the docs show."]);
    });

    it("reads a result that says success with an API error as its text as the failure it is, even unstreamed", async () => {
      const transcript = await transcriptOf(lines(init, success("[API Error: 403 Forbidden]")));
      assert.equal(transcript.status, "failed");
      assert.deepEqual(codes(transcript), [["AUTH_EXPIRED", false]]);
    });

    it("shows an API error Qwen went on after (another message began) as one it recovered from", async () => {
      const transcript = await transcriptOf(
        lines(
          init,
          event({ type: "message_start", message: { id: "m1" } }),
          ...textBlock("[API Error: 500 boom]"),
          event({ type: "message_stop" }),
          event({ type: "message_start", message: { id: "m2" } }),
          ...textBlock("Hi!"),
          event({ type: "message_stop" }),
          success("Hi!"),
        ),
      );
      assert.equal(transcript.status, "completed");
      assert.deepEqual(codes(transcript), [["NETWORK_TIMEOUT", true]]);
      assert.deepEqual(texts(transcript.blocks), ["Hi!"]);
    });

    it("is named qwen in the transcript", async () => {
      assert.equal((await transcriptOf(lines(init, success("ok")))).dialect, "qwen");
    });
  });

  describe("recognition", () => {
    it("is what auto reads every recording as, by its init line, though Claude's dialect reads the same shapes", async () => {
      for (const file of ndjsonFiles(FIXTURES).filter((f) => inFolders(f, "qwen"))) {
        const transcript = await harness.transcriptOf(fs.readFileSync(file, "utf8"), createAdapter("auto"));
        assert.equal(transcript.dialect, "qwen", file);
      }
    });

    it("claims no line of the other dialects' fixtures, and none but Claude's claims any of its", () => {
      const all = ndjsonFiles(FIXTURES);
      assertClaimsNone(
        all.filter((f) => !inFolders(f, "qwen")),
        qwenDialect,
      );
      assertClaimsNone(
        all.filter((f) => inFolders(f, "qwen")),
        ...DIALECTS.filter((d) => d !== qwenDialect && d.name !== "claude"),
      );
    });
  });
});
