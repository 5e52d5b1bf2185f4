import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { ClaudeAdapter, claudeDialect } from "../../../src/dialects/claude-adapter";
import type { StreamEnding } from "../../../src/dialects/dialect";
import type { Transcript } from "../../../src/protocol/transcript";
import { Session } from "../../../src/session/session";
import { createSessionFeed } from "../../../src/session/session-feed";
import { EventDecoder } from "../../../src/stream/event-decoder";
import { awaitsItsDialect } from "../../helpers/repo";
import * as harness from "../../helpers/dialect-harness";
import { FIXTURES, assertClaimsNone, inFolders, kinds, lines, ndjsonFiles, texts, tools } from "../../helpers/dialect-harness";

const SID = "0f8b5d2e-6c1a-4e7b-9a3d-2b7c4e9f1a60";

const fixture = (name: string) => harness.fixture("claude", name);
const transcriptOf = (ndjson: string): Promise<Transcript> => harness.transcriptOf(ndjson, new ClaudeAdapter());
/** What the adapter says about values, without a session in between. */
const decodeAll = (values: unknown[], ending?: StreamEnding | null) => harness.decodeAll(new ClaudeAdapter(() => 1_000), values, ending);

// Lines as Claude Code writes them, for the tests that build their own streams.
const init = { type: "system", subtype: "init", session_id: SID, model: "claude-sonnet-4-5-20250929", cwd: "/home/user/project", tools: [] };
const streamEvent = (event: unknown, extra: object = {}) => ({ type: "stream_event", event, session_id: SID, parent_tool_use_id: null, ...extra });
const messageStart = (id: string) => streamEvent({ type: "message_start", message: { id, role: "assistant", content: [] } });
const toolStart = (index: number, id: string, name: string) => streamEvent({ type: "content_block_start", index, content_block: { type: "tool_use", id, name, input: {} } });
const inputDelta = (index: number, partial_json: string) => streamEvent({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } });
const blockStop = (index: number) => streamEvent({ type: "content_block_stop", index });
const assistant = (id: string, content: unknown[], extra: object = {}) => ({ type: "assistant", message: { id, role: "assistant", model: "claude-sonnet-4-5-20250929", content }, session_id: SID, parent_tool_use_id: null, ...extra });
const synthetic = (text: string, extra: object = {}) => ({ type: "assistant", message: { id: "2f1c", role: "assistant", model: "<synthetic>", content: [{ type: "text", text }] }, session_id: SID, parent_tool_use_id: null, ...extra });
const toolResult = (tool_use_id: string, content: unknown, is_error?: boolean) => ({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id, content, ...(is_error === undefined ? {} : { is_error }) }] }, session_id: SID, parent_tool_use_id: null });
const result = (fields: object = {}) => ({ type: "result", subtype: "success", is_error: false, duration_ms: 1500, num_turns: 1, session_id: SID, ...fields });
/** The CLI's echo of a user message it read from stdin (`--replay-user-messages`). */
const userEcho = (text: string) => ({ type: "user", message: { role: "user", content: [{ type: "text", text }] }, session_id: SID, parent_tool_use_id: null, isReplay: true });
/** One streamed text answer: its message's start, one text block with one delta, and the block's stop. */
const answer = (id: string, text: string) => [
  messageStart(id),
  streamEvent({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
  streamEvent({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }),
  blockStop(0),
];
const usage = (input_tokens: number, output_tokens: number) => ({ input_tokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens });

describe("the claude dialect", () => {
  describe("fixtures", () => {
    it("shows a plain answer once, emoji, CJK and code block intact, though the CLI repeats it whole", async () => {
      const transcript = await transcriptOf(fixture("plain-answer.ndjson"));
      assert.equal(transcript.status, "completed");
      assert.equal(transcript.sessionId, SID);
      assert.deepEqual(transcript.blocks, [
        { kind: "text", text: 'Here is a greeting in three languages 👋:\n\n- English: Hello\n- 日本語: こんにちは\n- 中文: 你好\n\n```ts\nconsole.log("héllo, 世界");\n```\nDone ✅' },
        { kind: "status", status: "usage", message: "1,870 tokens · $0.0031" },
      ]);
      assert.equal(transcript.done.tokensUsed, 1870);
      assert.equal(transcript.done.durationMs, 2140);
      assert.deepEqual(transcript.problems, []);
    });

    it("shows thinking before the answer and nothing of the thinking block's signature", async () => {
      const transcript = await transcriptOf(fixture("thinking.ndjson"));
      assert.deepEqual(transcript.blocks.slice(0, 2), [
        { kind: "thinking", text: "The user asks for 17 × 23. 17 × 20 = 340 and 17 × 3 = 51, so 391." },
        { kind: "text", text: "17 × 23 = **391**." },
      ]);
      assert.equal(transcript.status, "completed");
      assert.deepEqual(transcript.problems, []);
    });

    it("shows each tool call once, with its whole parameters, completed by its result", async () => {
      const transcript = await transcriptOf(fixture("tool-use-two-turns.ndjson"));
      assert.deepEqual(kinds(transcript.blocks), ["text", "tool", "text", "tool", "text", "status"]);
      const [read, bash] = tools(transcript.blocks);
      assert.deepEqual(
        { tool: read.tool, toolId: read.toolId, parameters: read.parameters, status: read.status, error: read.error },
        { tool: "Read", toolId: "toolu_01ReadNotes", parameters: { file_path: "/home/user/project/NOTES.md" }, status: "failed", error: "File does not exist." },
      );
      assert.deepEqual(
        { tool: bash.tool, parameters: bash.parameters, status: bash.status, error: bash.error },
        { tool: "Bash", parameters: { command: "echo hi", description: "Print hi" }, status: "succeeded", error: null },
      );
      assert.equal(typeof bash.durationMs, "number", "a duration measured from our own stamps");
      assert.deepEqual(texts(transcript.blocks), [
        "I'll read the notes first.",
        "There is no NOTES.md; let me try the shell.",
        "NOTES.md does not exist, and `echo hi` printed **hi**.",
      ]);
      assert.deepEqual(transcript.done.toolsUsed, ["Read", "Bash"]);
      assert.equal(transcript.done.tokensUsed, 5920);
      assert.equal(transcript.status, "completed");
      assert.deepEqual(transcript.problems, []);
    });

    it("shows a refused API key as the error it is, not as the assistant's answer", async () => {
      const transcript = await transcriptOf(fixture("auth-error.ndjson"));
      assert.deepEqual(transcript.blocks, [
        {
          kind: "error",
          code: "AUTH_EXPIRED",
          message: 'API Error: 401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":null} · Please run /login',
          recoverable: false,
        },
      ]);
      assert.equal(transcript.status, "failed");
      assert.equal(transcript.done.exitCode, 1);
      assert.equal(transcript.done.synthesized, false);
      assert.deepEqual(transcript.problems, []);
    });

    it("shows retries as statuses and an overloaded API that never recovered as a network error", async () => {
      const transcript = await transcriptOf(fixture("overload-retries.ndjson"));
      assert.deepEqual(transcript.blocks, [
        { kind: "status", status: "retrying", message: "The model request failed (HTTP 529, overloaded); retrying in 0.5 s (attempt 1 of 2)." },
        { kind: "status", status: "retrying", message: "The model request failed (HTTP 529, overloaded); retrying in 1.2 s (attempt 2 of 2)." },
        {
          kind: "error",
          code: "NETWORK_TIMEOUT",
          message: 'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":null}',
          recoverable: false,
        },
      ]);
      assert.equal(transcript.status, "failed");
      assert.deepEqual(transcript.problems, []);
    });

    it("drops a tool call cut off by a retry and shows the answer of the attempt that worked", async () => {
      const transcript = await transcriptOf(fixture("server-error-retried.ndjson"));
      assert.deepEqual(transcript.blocks, [
        { kind: "status", status: "retrying", message: "The model request failed (HTTP 500, server error); retrying in 0.6 s (attempt 1 of 10)." },
        { kind: "status", status: "retrying", message: "The model request failed; retrying in 1.3 s (attempt 2 of 10)." },
        { kind: "text", text: "The README says to run `npm test`." },
        { kind: "status", status: "usage", message: "1,829 tokens · $0.0019" },
      ]);
      assert.equal(transcript.status, "completed");
      assert.deepEqual(transcript.problems, []);
    });

    it("shows an answer streamed without partial messages from its whole assistant messages", async () => {
      const transcript = await transcriptOf(fixture("no-partial-messages.ndjson"));
      assert.deepEqual(kinds(transcript.blocks), ["text", "tool", "text", "status"]);
      assert.deepEqual(texts(transcript.blocks), ["Let me list the files.", "There are two entries: `README.md` and `src/`."]);
      const [bash] = tools(transcript.blocks);
      assert.deepEqual([bash.tool, bash.parameters, bash.status], ["Bash", { command: "ls", description: "List files" }, "succeeded"]);
      assert.equal(transcript.status, "completed");
      assert.deepEqual(transcript.problems, []);
    });

    it("reads an interrupted run as failed with a plain reason, skipping the interrupt's acknowledgement", async () => {
      const transcript = await transcriptOf(fixture("interrupted.ndjson"));
      assert.deepEqual(texts(transcript.blocks), ["Let me walk through the whole codebase"]);
      assert.deepEqual(transcript.blocks.at(-1), { kind: "error", code: "UNKNOWN", message: "The run was interrupted before it finished.", recoverable: false });
      assert.equal(transcript.status, "failed");
      assert.deepEqual(transcript.problems, []);
    });

    it("ends a run the user stopped as canceled, without the CLI's words about the interruption", () => {
      const session = new Session({ dialect: "claude" });
      const feed = createSessionFeed(session, new EventDecoder(new ClaudeAdapter()));
      session.begin();
      const [firstHalf, secondHalf] = splitLines(fixture("interrupted.ndjson"), 5);
      feed.push(Buffer.from(firstHalf));
      session.stopRequested("user");
      feed.push(Buffer.from(secondHalf));
      feed.end({ exitCode: 0, signal: null });
      session.processEnded({ reason: "stopped", exitCode: 0, signal: null, stderrTail: "" });
      const transcript = session.toTranscript();
      assert.equal(transcript.status, "canceled");
      assert.deepEqual(kinds(transcript.blocks), ["text", "status"]);
    });

    it("reports each bad line by the field that is wrong, and shows what the good lines say", async () => {
      const transcript = await transcriptOf(fixture("bad-lines.ndjson"));
      assert.deepEqual(
        transcript.problems.map((p) => `${p.line} ${p.code} ${p.message}`),
        [
          "2 MALFORMED_EVENT expected a JSON object, got array",
          "3 MALFORMED_EVENT type: expected string, got number",
          "4 MALFORMED_EVENT stream_event: event: expected object, got string",
          "8 MALFORMED_EVENT stream_event: event.delta.text: expected string, got number",
          '14 MALFORMED_EVENT stream_event: the input of tool_use toolu_01Broken (Bash) is not a JSON object: "{\\"command\\": \\"echo hi"; the tool is shown without parameters',
          "17 MALFORMED_EVENT user: message.content[0].tool_use_id: missing, expected string",
          "18 MALFORMED_EVENT assistant: message.content: expected array, got string",
        ],
      );
      assert.deepEqual(texts(transcript.blocks), ["Still here."]);
      const [bash] = tools(transcript.blocks);
      assert.deepEqual([bash.tool, bash.parameters], ["Bash", null]);
      assert.equal(transcript.status, "completed");
    });
  });

  describe("tool calls", () => {
    it("shows a tool once its input is whole, not per fragment", () => {
      const { events } = decodeAll([init, messageStart("m1"), toolStart(0, "toolu_1", "Read"), inputDelta(0, '{"file_path":'), inputDelta(0, ' "/a.ts"}')]);
      assert.deepEqual(events.map((e) => e.type), ["start"]);
      const { events: stopped } = decodeAll([init, messageStart("m1"), toolStart(0, "toolu_1", "Read"), inputDelta(0, '{"file_path":'), inputDelta(0, ' "/a.ts"}'), blockStop(0)]);
      assert.deepEqual(stopped.at(-1)?.payload, { tool: "Read", toolId: "toolu_1", parameters: { file_path: "/a.ts" } });
    });

    it("gives a tool that takes no input empty parameters", () => {
      const { events, problems } = decodeAll([init, messageStart("m1"), toolStart(0, "toolu_1", "TaskList"), blockStop(0)]);
      assert.deepEqual(events.at(-1)?.payload, { tool: "TaskList", toolId: "toolu_1", parameters: {} });
      assert.deepEqual(problems, []);
    });

    it("keeps the input of two tool blocks of one message apart", async () => {
      const transcript = await transcriptOf(
        lines(init, messageStart("m1"), toolStart(0, "toolu_a", "Read"), toolStart(1, "toolu_b", "Read"), inputDelta(1, '{"file_path":"/b"}'), inputDelta(0, '{"file_path":"/a"}'), blockStop(0), blockStop(1), result()),
      );
      assert.deepEqual(tools(transcript.blocks).map((t) => [t.toolId, t.parameters]), [["toolu_a", { file_path: "/a" }], ["toolu_b", { file_path: "/b" }]]);
    });

    it("does not show a tool twice when its whole message arrives before its block stops, as Claude Code 2.1 sends it", async () => {
      const transcript = await transcriptOf(
        lines(init, messageStart("m1"), toolStart(0, "toolu_1", "Bash"), inputDelta(0, '{"command":"echo hi"}'), assistant("m1", [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "echo hi" } }]), blockStop(0), toolResult("toolu_1", "hi", false), result()),
      );
      assert.deepEqual(tools(transcript.blocks).map((t) => [t.tool, t.parameters, t.status]), [["Bash", { command: "echo hi" }, "succeeded"]]);
      assert.deepEqual(transcript.problems, []);
    });

    it("shows a failed tool's error text from a list of content blocks", async () => {
      const transcript = await transcriptOf(
        lines(init, assistant("m1", [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "false" } }]), toolResult("toolu_1", [{ type: "text", text: "Exit code 1" }], true), result()),
      );
      assert.deepEqual(tools(transcript.blocks).map((t) => [t.status, t.error]), [["failed", "Exit code 1"]]);
    });

    it("shows a subagent's tool calls but not its words, which are its tool's result", async () => {
      const sub = { parent_tool_use_id: "toolu_task" };
      const transcript = await transcriptOf(
        lines(
          init,
          assistant("m1", [{ type: "tool_use", id: "toolu_task", name: "Task", input: { prompt: "look around" } }]),
          streamEvent({ type: "message_start", message: { id: "m_sub", content: [] } }, sub),
          streamEvent({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, sub),
          streamEvent({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "subagent chatter" } }, sub),
          assistant("m_sub", [{ type: "text", text: "subagent chatter" }, { type: "tool_use", id: "toolu_ls", name: "Bash", input: { command: "ls" } }], sub),
          { ...toolResult("toolu_ls", "README.md", false), ...sub },
          toolResult("toolu_task", [{ type: "text", text: "Found a README." }], false),
          assistant("m2", [{ type: "text", text: "There is a README." }]),
          result(),
        ),
      );
      assert.deepEqual(texts(transcript.blocks), ["There is a README."]);
      assert.deepEqual(tools(transcript.blocks).map((t) => [t.tool, t.status]), [["Task", "succeeded"], ["Bash", "succeeded"]]);
    });
  });

  describe("results and errors", () => {
    it("ends the session as failed when the CLI says success after a failed model call", async () => {
      const transcript = await transcriptOf(lines(init, synthetic("API Error: 500 Internal server error"), result({ is_error: false, result: "" })));
      assert.equal(transcript.status, "failed");
      assert.deepEqual(kinds(transcript.blocks), ["error"]);
      assert.equal(transcript.done.success, false);
    });

    it("ends the session as failed when the CLI exits 0 after a failed model call without a result", () => {
      const session = new Session({ dialect: "claude" });
      const feed = createSessionFeed(session, new EventDecoder(new ClaudeAdapter()));
      session.begin();
      feed.push(Buffer.from(lines(init, synthetic("API Error: 529 Overloaded"))));
      feed.end({ exitCode: 0, signal: null });
      session.processEnded({ reason: "exited", exitCode: 0, signal: null, stderrTail: "" });
      const transcript = session.toTranscript();
      assert.equal(transcript.status, "failed");
      assert.deepEqual(transcript.blocks, [{ kind: "error", code: "NETWORK_TIMEOUT", message: "API Error: 529 Overloaded", recoverable: false }]);
      assert.deepEqual([transcript.done.exitCode, transcript.done.success, transcript.done.synthesized], [0, false, false]);
    });

    it("shows one error, not two, when the result repeats the made-up message", async () => {
      const text = "Invalid API key · Fix external API key";
      const transcript = await transcriptOf(lines(init, synthetic(text, { error: "authentication_failed", api_error_status: 401 }), result({ is_error: true, result: text, api_error_status: 401 })));
      assert.deepEqual(transcript.blocks, [{ kind: "error", code: "AUTH_EXPIRED", message: text, recoverable: false }]);
    });

    it("keeps a failed call the CLI went on from as a recoverable error", async () => {
      const transcript = await transcriptOf(lines(init, synthetic("API Error: Connection error."), assistant("m2", [{ type: "text", text: "Back again." }]), result()));
      assert.deepEqual(transcript.blocks.slice(0, 2), [
        { kind: "error", code: "NETWORK_TIMEOUT", message: "API Error: Connection error.", recoverable: true },
        { kind: "text", text: "Back again." },
      ]);
      assert.equal(transcript.status, "completed");
    });

    it("does not take the CLI's stand-in for an empty answer for an error", async () => {
      const transcript = await transcriptOf(lines(init, synthetic("No response requested."), result()));
      assert.deepEqual(transcript.blocks, []);
      assert.equal(transcript.status, "completed");
    });

    it("says why a run stopped at its turn limit", async () => {
      const transcript = await transcriptOf(lines(init, result({ subtype: "error_max_turns", is_error: true, num_turns: 3 })));
      assert.deepEqual(transcript.blocks, [{ kind: "error", code: "UNKNOWN", message: "Claude Code stopped: it reached the maximum number of turns.", recoverable: false }]);
    });

    it("reads a session that could not be resumed, which fails before its init", async () => {
      const transcript = await transcriptOf(
        lines(result({ subtype: "error_during_execution", is_error: true, num_turns: 0, total_cost_usd: 0, errors: [`No conversation found with session ID: ${SID}`] })),
      );
      assert.deepEqual(transcript.blocks, [{ kind: "error", code: "SESSION_NOT_FOUND", message: `No conversation found with session ID: ${SID}`, recoverable: false }]);
      assert.equal(transcript.sessionId, SID);
      assert.deepEqual(transcript.problems, []);
    });

    it("counts tokens from the stream when the result gives none", async () => {
      const transcript = await transcriptOf(
        lines(
          init,
          streamEvent({ type: "message_start", message: { id: "m1", content: [], usage: { input_tokens: 100, cache_read_input_tokens: 900, output_tokens: 1 } } }),
          streamEvent({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 25 } }),
          result({ usage: undefined }),
        ),
      );
      assert.equal(transcript.done.tokensUsed, 1025);
      assert.deepEqual(transcript.blocks, [{ kind: "status", status: "usage", message: "1,025 tokens" }]);
    });

    it("says when the conversation was summarised to fit the context", async () => {
      const transcript = await transcriptOf(lines(init, { type: "system", subtype: "compact_boundary", session_id: SID, compact_metadata: { trigger: "auto", pre_tokens: 180000 } }, result()));
      assert.deepEqual(transcript.blocks, [{ kind: "status", status: "compacted", message: "The conversation was summarised to fit the model's context." }]);
    });

    it("starts the session with the CLI's session id, model and folder", () => {
      const { events } = decodeAll([init]);
      assert.deepEqual(events.map((e) => [e.type, e.sessionId, e.payload]), [["start", SID, { command: "exec", model: "claude-sonnet-4-5-20250929", cwd: "/home/user/project" }]]);
    });

    it("says the mode its init line names in the start", () => {
      const { events } = decodeAll([{ ...init, permissionMode: "plan" }]);
      assert.deepEqual(events.map((e) => e.type === "start" && e.payload.mode), ["plan"]);
    });

    it("says in the turn that Claude approves by itself when its init line names such a mode, and nothing for one that asks", () => {
      const notes = (permissionMode: string) =>
        decodeAll([{ ...init, permissionMode }]).events.flatMap((e) => (e.type === "status" ? [[e.payload.status, e.payload.message]] : []));
      assert.deepEqual(notes("bypassPermissions"), [
        ["mode", "The agent is in mode Bypass permissions (bypassPermissions), in which it approves edits or commands by itself, without asking you."],
      ]);
      assert.equal(notes("acceptEdits").length, 1);
      assert.deepEqual([notes("default"), notes("plan"), notes("dontAsk")], [[], [], []]);
    });

    it("starts once when a multi-turn run says init again", () => {
      const { events } = decodeAll([init, init]);
      assert.deepEqual(events.map((e) => e.type), ["start"]);
    });
  });

  describe("several messages in one stream (stream-json input)", () => {
    const twoMessages = [
      init,
      userEcho("My name is Ada."),
      ...answer("m1", "Nice to meet you, Ada!"),
      result({ duration_ms: 1200, usage: usage(100, 20) }),
      init,
      userEcho("What is my name?"),
      ...answer("m2", "Your name is Ada."),
      result({ duration_ms: 300, usage: usage(130, 5) }),
    ];

    it("ends two answered messages with one done, after the second answer, with their tokens summed", () => {
      const { events, problems } = decodeAll(twoMessages, { exitCode: 0, signal: null });
      const dones = events.filter((e) => e.type === "done");
      assert.equal(dones.length, 1);
      assert.equal(events.at(-1), dones[0]);
      assert.deepEqual(dones[0].payload, { exitCode: 0, duration: 1500, success: true, tokensUsed: 255, usage: { inputTokens: 230, outputTokens: 25, cacheReadTokens: 0, cost: null, contextUsed: null, contextSize: null } });
      assert.deepEqual(problems, []);
    });

    it("shows both answers as separate text blocks, the second after a status naming its message", async () => {
      const transcript = await transcriptOf(lines(...twoMessages));
      assert.deepEqual(transcript.blocks, [
        { kind: "text", text: "Nice to meet you, Ada!" },
        { kind: "status", status: "usage", message: "120 tokens" },
        { kind: "status", status: "prompt", message: "What is my name?" },
        { kind: "text", text: "Your name is Ada." },
        { kind: "status", status: "usage", message: "135 tokens" },
      ]);
      assert.equal(transcript.status, "completed");
      assert.deepEqual(transcript.problems, []);
    });

    it("numbers the next message when the CLI echoes it only after the answer, as 2.1.197 does", async () => {
      const transcript = await transcriptOf(
        lines(init, ...answer("m1", "Nice to meet you."), userEcho("Hi."), result(), init, ...answer("m2", "Hello again."), userEcho("Hi again."), result()),
      );
      assert.deepEqual(
        transcript.blocks.map((b) => (b.kind === "text" ? b.text : b.kind === "status" ? `${b.status}: ${b.message}` : b.kind)),
        ["Nice to meet you.", "next message: Message 2", "Hello again."],
      );
    });

    it("begins the next message's turn at its echo or its message start when no init comes first", async () => {
      const transcript = await transcriptOf(lines(init, ...answer("m1", "One."), result(), userEcho("Two?"), ...answer("m2", "Two."), result(), ...answer("m3", "Three."), result()));
      assert.deepEqual(
        transcript.blocks.map((b) => (b.kind === "text" ? b.text : b.kind === "status" ? `${b.status}: ${b.message}` : b.kind)),
        ["One.", "prompt: Two?", "Two.", "next message: Message 3", "Three."],
      );
      assert.equal(transcript.done.synthesized, false);
      assert.deepEqual(transcript.problems, []);
    });

    it("counts the tools of every message's answer", async () => {
      const transcript = await transcriptOf(
        lines(
          init,
          assistant("m1", [{ type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "/a" } }]),
          toolResult("toolu_1", "a", false),
          result(),
          init,
          assistant("m2", [{ type: "tool_use", id: "toolu_2", name: "Bash", input: { command: "ls" } }]),
          toolResult("toolu_2", "a", false),
          result(),
        ),
      );
      assert.deepEqual(transcript.done.toolsUsed, ["Read", "Bash"]);
    });

    it("counts a later message's streamed tokens without the earlier message's when its result gives none", () => {
      const { events } = decodeAll(
        [
          init,
          streamEvent({ type: "message_start", message: { id: "m1", content: [], usage: usage(100, 1) } }),
          result({ usage: undefined }),
          init,
          streamEvent({ type: "message_start", message: { id: "m2", content: [], usage: usage(40, 2) } }),
          result({ usage: undefined }),
        ],
        null,
      );
      assert.deepEqual(
        events.flatMap((e) => (e.type === "status" && e.payload.status === "usage" ? [e.payload.message] : [])),
        ["101 tokens", "42 tokens"],
      );
      const done = events.at(-1);
      assert.equal(done?.type, "done");
      assert.equal(done.type === "done" ? done.payload.tokensUsed : undefined, 143);
    });

    it("fails the session when the first message failed and the second succeeded, showing the first error as recoverable", async () => {
      const transcript = await transcriptOf(
        lines(
          init,
          synthetic("API Error: 500 Internal server error"),
          result({ is_error: true, result: "API Error: 500 Internal server error" }),
          init,
          userEcho("Try again?"),
          ...answer("m2", "Here it is."),
          result(),
        ),
      );
      assert.deepEqual(transcript.blocks, [
        { kind: "error", code: "NETWORK_TIMEOUT", message: "API Error: 500 Internal server error", recoverable: true },
        { kind: "status", status: "prompt", message: "Try again?" },
        { kind: "text", text: "Here it is." },
      ]);
      assert.equal(transcript.status, "failed");
      assert.deepEqual([transcript.done.success, transcript.done.exitCode, transcript.done.synthesized], [false, 1, false]);
      assert.deepEqual(transcript.problems, []);
    });

    it("shows the error of a second message that failed as the end of the session", async () => {
      const transcript = await transcriptOf(lines(init, ...answer("m1", "Fine."), result(), init, result({ subtype: "error_max_turns", is_error: true })));
      assert.deepEqual(transcript.blocks, [
        { kind: "text", text: "Fine." },
        { kind: "status", status: "next message", message: "Message 2" },
        { kind: "error", code: "UNKNOWN", message: "Claude Code stopped: it reached the maximum number of turns.", recoverable: false },
      ]);
      assert.equal(transcript.status, "failed");
    });

    it("ends the session at a result followed by a line that begins no new turn, and reports that line", async () => {
      const transcript = await transcriptOf(lines(init, ...answer("m1", "Done."), result(), assistant("m9", [{ type: "text", text: "Late words." }])));
      assert.deepEqual(texts(transcript.blocks), ["Done."]);
      assert.equal(transcript.status, "completed");
      assert.equal(transcript.done.synthesized, false);
      assert.deepEqual(
        transcript.problems.map((p) => `${p.line} ${p.code} ${p.message}`),
        ["7 OUT_OF_ORDER text_delta after done ignored"],
      );
    });

    it("gives the done before the line that begins no new turn", () => {
      const { events } = decodeAll([init, result(), toolResult("toolu_9", "late", false)]);
      assert.deepEqual(events.map((e) => e.type), ["start", "done", "tool_completed"]);
    });

    it("lets lines that show nothing after a result decide nothing", () => {
      const { events } = decodeAll([
        init,
        result(),
        { type: "keep_alive" },
        { type: "control_response", response: { subtype: "success", request_id: "req_1", response: {} } },
        { type: "system", subtype: "hook_started", session_id: SID },
        init,
        ...answer("m2", "Still one session."),
        result(),
      ]);
      assert.deepEqual(events.map((e) => e.type), ["start", "status", "text_delta"]);
    });

    it("ends as canceled when the user stops the second message's answer", () => {
      const session = new Session({ dialect: "claude" });
      const feed = createSessionFeed(session, new EventDecoder(new ClaudeAdapter()));
      session.begin();
      feed.push(Buffer.from(lines(init, ...answer("m1", "First."), result(), init, ...answer("m2", "Second, cut"))));
      session.stopRequested("user");
      feed.push(Buffer.from(lines(userEcho("[Request interrupted by user]"), result({ subtype: "error_during_execution", is_error: true, terminal_reason: "aborted_streaming" }))));
      feed.end({ exitCode: 0, signal: null });
      session.processEnded({ reason: "stopped", exitCode: 0, signal: null, stderrTail: "" });
      const transcript = session.toTranscript();
      assert.equal(transcript.status, "canceled");
      assert.deepEqual(texts(transcript.blocks), ["First.", "Second, cut"]);
      assert.deepEqual(transcript.problems, []);
    });
  });

  describe("the done of a single message", () => {
    const oneMessage = [init, ...answer("m1", "Hello."), result({ usage: usage(90, 10) })];

    it("waits after the result for what comes next", () => {
      const { events } = decodeAll(oneMessage);
      assert.deepEqual(events.map((e) => e.type), ["start", "text_delta", "status"]);
    });

    it("comes at the end of the stream as the result said it", () => {
      const { events } = decodeAll(oneMessage, null);
      assert.deepEqual(events.map((e) => e.type), ["start", "text_delta", "status", "done"]);
      assert.deepEqual(events.at(-1)?.payload, { exitCode: 0, duration: 1500, success: true, tokensUsed: 100, usage: { inputTokens: 90, outputTokens: 10, cacheReadTokens: 0, cost: null, contextUsed: null, contextSize: null } });
    });

    it("takes the process's exit code when it is not 0", () => {
      const { events } = decodeAll(oneMessage, { exitCode: 3, signal: null });
      assert.deepEqual(events.at(-1)?.payload, { exitCode: 3, duration: 1500, success: true, tokensUsed: 100, usage: { inputTokens: 90, outputTokens: 10, cacheReadTokens: 0, cost: null, contextUsed: null, contextSize: null } });
    });

    it("says exit code 1 for a failed run whose process exited 0, as Claude Code does after SIGINT", () => {
      const { events } = decodeAll([init, result({ subtype: "error_during_execution", is_error: true, terminal_reason: "aborted_streaming" })], { exitCode: 0, signal: null });
      assert.deepEqual(events.map((e) => e.type), ["start", "error", "done"]);
      assert.deepEqual(events.at(-1)?.payload, { exitCode: 1, duration: 1500, success: false });
    });
  });

  describe("what a user sees of each error", () => {
    const table: [string, object, string][] = [
      ['API Error: 401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}} · Please run /login', {}, "AUTH_EXPIRED"],
      ["Invalid API key · Fix external API key", { error: "authentication_failed", api_error_status: 401 }, "AUTH_EXPIRED"],
      ["Failed to authenticate: OAuth session expired and could not be refreshed", { error: "authentication_failed" }, "AUTH_EXPIRED"],
      ["API Error: Repeated 529 Overloaded errors. The API is at capacity — this is usually temporary.", { error: "server_error", api_error_status: 529 }, "NETWORK_TIMEOUT"],
      ["API Error: 500 Internal server error. This is a server-side issue, usually temporary.", { error: "server_error" }, "NETWORK_TIMEOUT"],
      ['API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"Number of requests has exceeded your rate limit"}}', {}, "NETWORK_TIMEOUT"],
      ["API Error: Request timed out.", {}, "NETWORK_TIMEOUT"],
      ["API Error: Connection error.", {}, "NETWORK_TIMEOUT"],
      ["API Error: 502 upstream failed", {}, "NETWORK_TIMEOUT"],
      ["Something odd happened upstream", { error: "server_error" }, "NETWORK_TIMEOUT"],
      ["Prompt is too long", { error: "invalid_request" }, "CONTEXT_LIMIT"],
      ['API Error: 413 {"type":"error","error":{"type":"request_too_large"}}', {}, "CONTEXT_LIMIT"],
      ["Credit balance is too low", { error: "billing_error" }, "UNKNOWN"],
    ];
    for (const [text, extra, code] of table) {
      it(`${code} for ${JSON.stringify(text.slice(0, 60))}`, async () => {
        const transcript = await transcriptOf(lines(init, synthetic(text, extra), result({ is_error: true, result: text })));
        assert.deepEqual(transcript.blocks, [{ kind: "error", code, message: text, recoverable: false }]);
        assert.equal(transcript.status, "failed");
      });
    }
  });

  describe("malformed values", () => {
    const table: [string, unknown, string][] = [
      ["a string", "hello", "expected a JSON object, got string"],
      ["null", null, "expected a JSON object, got null"],
      ["no type", { subtype: "init" }, "type: missing, expected string"],
      ["system without subtype", { type: "system", session_id: SID }, "system: subtype: missing, expected string"],
      ["init without session id", { type: "system", subtype: "init" }, "system: session_id: missing, expected string"],
      ["init with a numeric model", { ...init, model: 4 }, "system: model: expected string, got number"],
      ["stream_event without event", { type: "stream_event" }, "stream_event: event: missing, expected object"],
      ["block start without index", streamEvent({ type: "content_block_start", content_block: { type: "text", text: "" } }), "stream_event: event.index: missing, expected non-negative integer"],
      // Text deltas take a fast path first; one it turns away must still be read, and named, as any other line.
      ["text delta with a negative index", streamEvent({ type: "content_block_delta", index: -1, delta: { type: "text_delta", text: "hi" } }), "stream_event: event.index: expected non-negative integer, got number"],
      ["text delta with a fractional index", streamEvent({ type: "content_block_delta", index: 0.5, delta: { type: "text_delta", text: "hi" } }), "stream_event: event.index: expected non-negative integer, got number"],
      ["text delta with numeric text", streamEvent({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: 7 } }), "stream_event: event.delta.text: expected string, got number"],
      ["tool block without name", streamEvent({ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1" } }), "stream_event: event.content_block.name: missing, expected string"],
      ["thinking delta without thinking", streamEvent({ type: "content_block_delta", index: 0, delta: { type: "thinking_delta" } }), "stream_event: event.delta.thinking: missing, expected string"],
      ["input delta for no tool block", streamEvent({ type: "content_block_delta", index: 3, delta: { type: "input_json_delta", partial_json: "{" } }), "stream_event: event.index: no tool_use block 3 is open for this input_json_delta"],
      ["assistant without message", { type: "assistant", session_id: SID }, "assistant: message: missing, expected object"],
      ["tool_use with array input", assistant("m1", [{ type: "tool_use", id: "t", name: "Bash", input: [] }]), "assistant: message.content[0].input: expected object, got array"],
      ["user with numeric content", { type: "user", message: { role: "user", content: 5 } }, "user: message.content: expected array or string, got number"],
      ["tool_result with string is_error", toolResult("toolu_1", "x", "yes" as unknown as boolean), "user: message.content[0].is_error: expected boolean, got string"],
      ["result with string is_error", result({ is_error: "true" }), "result: is_error: expected boolean, got string"],
      ["result with neither subtype nor is_error", { type: "result", session_id: SID }, "result: is_error: missing, expected boolean"],
      ["result with string cost", result({ total_cost_usd: "0.01" }), "result: total_cost_usd: expected number, got string"],
    ];
    for (const [what, value, message] of table) {
      it(`names the field: ${what}`, () => {
        const { problems } = decodeAll([value]);
        assert.deepEqual(problems, [`MALFORMED_EVENT ${message}`]);
      });
    }

    it("skips silently what carries nothing for the user", () => {
      const { events, problems } = decodeAll([
        init,
        { type: "system", subtype: "status", status: "requesting", session_id: SID },
        { type: "system", subtype: "thinking_tokens", estimated_tokens: 7, session_id: SID },
        { type: "system", subtype: "hook_started", session_id: SID },
        { type: "control_response", response: { subtype: "success", request_id: "req_interrupt_1", response: {} } },
        { type: "keep_alive" },
        { type: "user", message: { role: "user", content: "Say hi." }, session_id: SID },
        streamEvent({ type: "ping" }),
        streamEvent({ type: "message_stop" }),
        streamEvent({ type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "EqQB" } }),
      ]);
      assert.deepEqual(events.map((e) => e.type), ["start"]);
      assert.deepEqual(problems, []);
    });
  });

  describe("recognising the stream", () => {
    it("claims the first line of every Claude fixture", () => {
      for (const file of ndjsonFiles(FIXTURES).filter((f) => isClaudeFixture(f) && !f.endsWith("bad-lines.ndjson"))) {
        const firstLine = fs.readFileSync(file, "utf8").split("\n")[0];
        // A recording of a CLI that printed nothing has no first line to claim.
        if (firstLine === "") continue;
        const first = JSON.parse(firstLine) as Record<string, unknown>;
        assert.equal(claudeDialect.recognizes(first), true, path.relative(FIXTURES, file));
      }
    });

    it("claims a stream without partial messages by its assistant lines too", () => {
      assert.equal(claudeDialect.recognizes(assistant("m1", [{ type: "text", text: "hi" }])), true);
      assert.equal(claudeDialect.recognizes(result()), true);
      assert.equal(claudeDialect.recognizes(messageStart("m1")), true);
    });

    it("claims no line of the other dialects' fixtures (of Qwen Code's Claude-shaped stream, none but its init)", () => {
      const others = ndjsonFiles(FIXTURES).filter((f) => !isClaudeFixture(f) && !awaitsItsDialect(f));
      assertClaimsNone(
        others.filter((f) => !inFolders(f, "qwen")),
        claudeDialect,
      );
      // Qwen's other lines are Claude's shapes; auto tells the streams apart by the first line, its init.
      const qwenFirstLines = others.filter((f) => inFolders(f, "qwen")).map((f) => harness.parseObject(fs.readFileSync(f, "utf8").split("\n")[0]));
      assert.ok(qwenFirstLines.length > 0);
      for (const first of qwenFirstLines) assert.equal(first !== undefined && claudeDialect.recognizes(first), false);
    });
  });
});

/** The hand-written fixtures and any recordings of the real CLI (folders named claude…). */
function isClaudeFixture(file: string): boolean {
  return inFolders(file, "claude");
}

function splitLines(text: string, count: number): [string, string] {
  const all = text.split("\n");
  return [all.slice(0, count).join("\n") + "\n", all.slice(count).join("\n")];
}
