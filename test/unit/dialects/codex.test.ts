// Codex's `exec --json` stream, read from the real recordings (test/fixtures/codex-recorded/README.md).
import * as assert from "node:assert/strict";
import { CodexAdapter, codexDialect } from "../../../src/dialects/codex-adapter";
import { DIALECTS } from "../../../src/dialects/registry";
import type { Transcript } from "../../../src/protocol/transcript";
import * as harness from "../../helpers/dialect-harness";
import { FIXTURES, assertClaimsNone, decodeAll, errors, inFolders, kinds, lines, ndjsonFiles, texts, tools } from "../../helpers/dialect-harness";
import { assertQuickOn, repeated } from "../../helpers/hostile-text";

const fixture = (name: string) => harness.fixture("codex-recorded/0.169.0", `${name}.ndjson`);
const transcriptOf = (ndjson: string): Promise<Transcript> => harness.transcriptOf(ndjson, new CodexAdapter(() => 1_000));
const cards = (transcript: Transcript) => tools(transcript.blocks).map(({ tool, status, parameters, error }) => ({ tool, status, parameters, error }));
const WARNING = "Model metadata for `mock-model` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.";

describe("the codex dialect", () => {
  describe("recorded runs of Codex 0.169.0", () => {
    it("shows the whole answer, its tokens, and the error item as a warning of a run that completed", async () => {
      const transcript = await transcriptOf(fixture("plain-answer"));
      assert.equal(transcript.status, "completed");
      assert.deepEqual(transcript.blocks[0], { kind: "status", status: "warning", message: WARNING });
      assert.deepEqual(errors(transcript.blocks), [], "a warning is not a failure");
      assert.match(texts(transcript.blocks)[0], /^Hello 👋![\s\S]*完了 ✅$/);
      assert.equal(transcript.done.tokensUsed, 130);
      assert.deepEqual(transcript.problems, []);
    });

    it("shows the reasoning summary as thinking before the answer", async () => {
      const transcript = await transcriptOf(fixture("thinking"));
      assert.deepEqual(kinds(transcript.blocks), ["status", "thinking", "text", "status"]);
      assert.equal(transcript.blocks[1].kind === "thinking" && transcript.blocks[1].text, "The user asks for 17 × 23. 17 × 20 = 340, 17 × 3 = 51, 340 + 51 = 391.");
    });

    it("shows each command as a card with the command line, between the messages around it", async () => {
      const transcript = await transcriptOf(fixture("tool-use"));
      assert.deepEqual(kinds(transcript.blocks), ["status", "text", "tool", "text", "tool", "text", "status"]);
      assert.deepEqual(cards(transcript), [
        { tool: "shell", status: "succeeded", parameters: { command: "/bin/bash -lc 'cat notes.txt'" }, error: null },
        { tool: "shell", status: "succeeded", parameters: { command: "/bin/bash -lc 'echo hi'" }, error: null },
      ]);
    });

    it("puts what each command printed on its card, and the files a patch touches as its locations", async () => {
      const [read, echo] = tools((await transcriptOf(fixture("tool-use"))).blocks);
      assert.match(read?.output ?? "", /the build is green/);
      assert.equal(echo?.output?.trim(), "hi");
      const patch = tools((await transcriptOf(fixture("tool-edit"))).blocks).find((card) => card.tool === "apply_patch");
      assert.deepEqual(
        patch?.locations.map((location) => location.path.split("/").pop()),
        ["notes.txt", "todo.md"],
        "a patch card lists the files it touches (Codex sends no diff text)",
      );
    });

    it("shows a command that exited non-zero as failed, with what it printed", async () => {
      const transcript = await transcriptOf(fixture("tool-error"));
      assert.equal(transcript.status, "completed");
      assert.deepEqual(cards(transcript), [
        { tool: "shell", status: "failed", parameters: { command: "/bin/bash -lc 'cat missing.txt'" }, error: "cat: missing.txt: No such file or directory" },
      ]);
    });

    it("shows a file_change as one patch card listing each path and its kind of change", async () => {
      const transcript = await transcriptOf(fixture("tool-edit"));
      assert.deepEqual(cards(transcript), [
        {
          tool: "apply_patch",
          status: "succeeded",
          parameters: {
            changes: [
              { path: "/tmp/agent-stream-codex-workspace-lHAEW8/notes.txt", kind: "update" },
              { path: "/tmp/agent-stream-codex-workspace-lHAEW8/todo.md", kind: "add" },
            ],
          },
          error: null,
        },
      ]);
    });

    it("reads a 401 as AUTH_EXPIRED after the retry Codex announced, and the run as failed", async () => {
      const transcript = await transcriptOf(fixture("auth-error"));
      assert.equal(transcript.status, "failed");
      assert.deepEqual(
        transcript.blocks.filter((b) => b.kind === "status" && b.status === "retrying").length,
        1,
      );
      assert.deepEqual(
        errors(transcript.blocks).map((b) => b.kind === "error" && [b.code, b.recoverable]),
        [["AUTH_EXPIRED", false]],
      );
      assert.deepEqual(texts(transcript.blocks), []);
    });

    it("reads Codex's words for a 500 it gave up on (\"high demand\") as NETWORK_TIMEOUT", async () => {
      const transcript = await transcriptOf(fixture("server-error-give-up"));
      assert.equal(transcript.status, "failed");
      assert.deepEqual(
        errors(transcript.blocks).map((b) => b.kind === "error" && b.code),
        ["NETWORK_TIMEOUT"],
      );
    });

    it("reads a 429 retried inside a turn that then answered as a completed run with no error", async () => {
      const transcript = await transcriptOf(fixture("rate-limited"));
      assert.equal(transcript.status, "completed");
      assert.deepEqual(errors(transcript.blocks), []);
      assert.deepEqual(texts(transcript.blocks), ["Hi there!"]);
    });

    for (const scenario of ["sigint", "sigterm"]) {
      it(`does not call a run cut short by ${scenario.toUpperCase()} (no turn.completed) completed; its command never finished`, async () => {
        const transcript = await transcriptOf(fixture(scenario));
        assert.equal(transcript.status, "failed");
        assert.deepEqual(texts(transcript.blocks), ["Let me wait."]);
        assert.deepEqual(
          tools(transcript.blocks).map((card) => card.status),
          ["abandoned"],
        );
      });
    }
  });

  describe("lines", () => {
    const started = [{ type: "thread.started", thread_id: "t" }, { type: "turn.started" }];

    it("shows an MCP tool call under its server's name, with its arguments and its error", async () => {
      const call = { id: "item_1", type: "mcp_tool_call", server: "docs", tool: "search", arguments: { q: "x" }, status: "in_progress" };
      const transcript = await transcriptOf(
        lines(
          ...started,
          { type: "item.started", item: call },
          { type: "item.completed", item: { ...call, status: "failed", error: { message: "server gone" } } },
          { type: "turn.completed", usage: { input_tokens: 1, output_tokens: 1 } },
        ),
      );
      assert.deepEqual(cards(transcript), [{ tool: "docs.search", status: "failed", parameters: { q: "x" }, error: "server gone" }]);
    });

    it("keeps one card for a todo list updated in place, done when its item completes", async () => {
      const list = (completed: boolean) => ({ id: "item_1", type: "todo_list", items: [{ text: "fix", completed }] });
      const transcript = await transcriptOf(
        lines(
          ...started,
          { type: "item.started", item: list(false) },
          { type: "item.updated", item: list(false) },
          { type: "item.completed", item: list(true) },
          { type: "turn.completed", usage: {} },
        ),
      );
      assert.deepEqual(
        cards(transcript).map((card) => [card.tool, card.status]),
        [["todo_list", "succeeded"]],
      );
    });

    it("keeps two messages apart as paragraphs", async () => {
      const message = (id: string, text: string) => ({ type: "item.completed", item: { id, type: "agent_message", text } });
      const transcript = await transcriptOf(lines(...started, message("item_1", "One."), message("item_2", "Two."), { type: "turn.completed", usage: {} }));
      assert.deepEqual(texts(transcript.blocks), ["One.\n\nTwo."]);
    });

    it("reads a 'Reconnecting...' line padded with 1 MB of blanks before other words in well under a second, as an error", () => {
      const message = `Reconnecting... 1/1${repeated(" ")}then gave up`;
      const { events } = assertQuickOn("a padded reconnect line", () =>
        decodeAll(new CodexAdapter(() => 0), [...started, { type: "error", message }, { type: "turn.failed" }]),
      );
      assert.deepEqual(
        events.filter((e) => e.type === "status").map((e) => e.type === "status" && e.payload.status),
        [],
      );
      assert.deepEqual(
        events.filter((e) => e.type === "error").map((e) => e.type === "error" && e.payload.error.message),
        [message],
      );
    });

    it("reads a reconnect whose reason is 1 MB of blanks and brackets in well under a second, as the retry it is", () => {
      const { events } = assertQuickOn("a reconnect with a huge reason", () =>
        decodeAll(new CodexAdapter(() => 0), [...started, { type: "error", message: `Reconnecting... 2/5 (${repeated(" )")})  ` }]),
      );
      assert.deepEqual(
        events.filter((e) => e.type === "status").map((e) => e.type === "status" && e.payload.status),
        ["retrying"],
      );
    });

    it("shows a final error that Codex went on after as one it recovered from", async () => {
      const transcript = await transcriptOf(
        lines(...started, { type: "error", message: "stream disconnected" }, { type: "item.completed", item: { id: "item_1", type: "agent_message", text: "ok" } }, { type: "turn.completed", usage: {} }),
      );
      assert.equal(transcript.status, "completed");
      assert.deepEqual(
        errors(transcript.blocks).map((b) => b.kind === "error" && b.recoverable),
        [true],
      );
    });
  });

  describe("recognition", () => {
    it("is what auto reads the recordings as", () => {
      const first = harness.parseObject(fixture("plain-answer").split("\n")[0]);
      assert.ok(first);
      assert.equal(DIALECTS.find((dialect) => dialect.recognizes(first))?.name, "codex");
    });

    it("claims no line of the other dialects' fixtures, and they claim none of its", () => {
      const all = ndjsonFiles(FIXTURES);
      assertClaimsNone(
        all.filter((f) => !inFolders(f, "codex")),
        codexDialect,
      );
      assertClaimsNone(
        all.filter((f) => inFolders(f, "codex")),
        ...DIALECTS.filter((d) => d !== codexDialect),
      );
    });
  });
});
