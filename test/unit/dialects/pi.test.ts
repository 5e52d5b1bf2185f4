import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { AutoAdapter } from "../../../src/dialects/auto-adapter";
import type { DialectDefinition, StreamEnding } from "../../../src/dialects/dialect";
import { LocusAdapter } from "../../../src/dialects/locus-adapter";
import { PiAdapter, indusagiDialect, piDialect, type PiProgram } from "../../../src/dialects/pi-adapter";
import type { Transcript } from "../../../src/protocol/transcript";
import { replayStream } from "../../../src/session/replay";
import { Session } from "../../../src/session/session";
import { createSessionFeed } from "../../../src/session/session-feed";
import { EventDecoder } from "../../../src/stream/event-decoder";
import * as harness from "../../helpers/dialect-harness";
import { FIXTURES, assertClaimsNone, errors, inFolders, kinds, lines, ndjsonFiles, texts, tools } from "../../helpers/dialect-harness";
import { chunksOf } from "../../helpers/stream-builder";

const SID = "5f0c2a9e-8d41-4b7a-9c3e-1a2b3c4d5e6f";
/** A clock that stands still: durations come from the CLI's own timestamps, tool durations are 0. */
const STILL = () => 1_000;

const fixture = (dialect: PiProgram, name: string) => harness.fixture(dialect, name);
const transcriptOf = (ndjson: string, dialect: PiProgram = "pi"): Promise<Transcript> => harness.transcriptOf(ndjson, new PiAdapter(dialect, STILL));

/** A live run: the lines, then the process's exit (the adapter hears it first, then the session). */
function liveTranscriptOf(ndjson: string, ending: StreamEnding, stoppedByUser = false): Transcript {
  const session = new Session({ dialect: "pi" });
  const feed = createSessionFeed(session, new EventDecoder(new PiAdapter("pi", STILL)));
  session.begin();
  feed.push(Buffer.from(ndjson));
  if (stoppedByUser) session.stopRequested("user");
  feed.end(ending);
  session.processEnded({ reason: stoppedByUser ? "stopped" : "exited", exitCode: ending.exitCode, signal: ending.signal as NodeJS.Signals | null, stderrTail: "" });
  return session.toTranscript();
}

/** What the adapter says about values, without a session in between. */
const decodeAll = (values: unknown[], ending?: StreamEnding | null, now: () => number = STILL) => harness.decodeAll(new PiAdapter("pi", now), values, ending);

// Lines as pi writes them, for the tests that build their own streams.
const header = { type: "session", version: 3, id: SID, timestamp: "2025-01-15T10:30:00.000Z", cwd: "/home/ada/project" };
const agentStart = { type: "agent_start" };
const agentEnd = { type: "agent_end", messages: [] };
const userMessage = (text: string) => ({ type: "message_end", message: { role: "user", content: [{ type: "text", text }], timestamp: 1736937000040 } });
const assistantStart = () => ({ type: "message_start", message: { role: "assistant", content: [], provider: "anthropic", model: "claude-sonnet-4-20250514", stopReason: "stop", timestamp: 1736937000100 } });
const update = (assistantMessageEvent: object) => ({ type: "message_update", message: {}, assistantMessageEvent });
const textDelta = (delta: string, contentIndex: number | undefined = 0) => update({ type: "text_delta", contentIndex, delta });
const assistantEnd = (content: unknown[], extra: object = {}) => ({
  type: "message_end",
  message: { role: "assistant", content, provider: "anthropic", model: "claude-sonnet-4-20250514", stopReason: "stop", timestamp: 1736937000100, ...extra },
});
const failedCall = (errorMessage: string, stopReason = "error") => assistantEnd([], { stopReason, errorMessage });
const toolCall = (id: string, name: string, args: object) => ({ type: "toolCall", id, name, arguments: args });
const toolStart = (toolCallId: string, toolName: string, args: object) => ({ type: "tool_execution_start", toolCallId, toolName, args });
const toolEnd = (toolCallId: string, toolName: string, text: string, isError: boolean) => ({
  type: "tool_execution_end",
  toolCallId,
  toolName,
  result: { content: [{ type: "text", text }], details: {} },
  isError,
});
/** One prompt answered: the run from agent_start to agent_end around the given lines. */
const run = (...inside: unknown[]) => [agentStart, { type: "turn_start" }, ...inside, { type: "turn_end", message: {}, toolResults: [] }, agentEnd];

/** What differs between the two dialects' fixtures: the provider's prices and error words, and the folder. */
const CASES: { dialect: PiProgram; cwd: string; costs: Record<string, string>; auth: string; gaveUp: string; toolIds: string[]; idOf: (scenario: number) => string }[] = [
  {
    dialect: "pi",
    cwd: "/home/ada/project",
    costs: { plain: "$0.0049", thinking: "$0.0044", tools: "$0.0161", retry: "$0.0034", two: "$0.0063" },
    auth: '401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
    gaveUp: '529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}. pi gave up after 2 retries.',
    toolIds: ["toolu_01read_notes", "toolu_02read_todo", "toolu_03bash_echo"],
    idOf: (scenario) =>
      [
        "a1b2c3d4-e5f6-7890-abcd-ef1234567890",
        "b2c3d4e5-f6a7-8901-bcde-f12345678901",
        "c3d4e5f6-a7b8-9012-cdef-123456789012",
        "d4e5f6a7-b8c9-0123-def1-234567890123",
      ][scenario],
  },
  {
    dialect: "indusagi",
    cwd: "/home/ada/indus-project",
    costs: { plain: "$0.0002", thinking: "$0.0002", tools: "$0.0008", retry: "$0.0002", two: "$0.0003" },
    auth: "401 Incorrect API key provided: sk-proj-****1234. You can find your API key at https://platform.openai.com/account/api-keys.",
    gaveUp: "429 Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. indusagi gave up after 2 retries.",
    toolIds: ["call_Kx1readnotes", "call_Kx2readtodo", "call_Kx3bashecho"],
    idOf: (scenario) => `11111111-2222-4333-8444-55555555550${scenario + 1}`,
  },
];

const PLAIN_ANSWER =
  "Hello 👋! In Japanese: こんにちは、世界。 In Chinese: 你好，世界！ Family emoji: 👨‍👩‍👧‍👦 and a flag: 🇯🇵.\n\n" +
  "Here is the code:\n\n```ts\nfunction greet(name: string): string {\n  return `Hi, ${name} 🎉`;\n}\n```\n\nThat's all — 完了 ✅";

describe("the pi and indusagi dialects", () => {
  for (const c of CASES) {
    describe(`${c.dialect} fixtures`, () => {
      const read = (name: string) => transcriptOf(fixture(c.dialect, name), c.dialect);

      it("shows a plain answer whole, emoji, CJK and code block intact, with its usage and cost", async () => {
        const transcript = await read("plain-answer.ndjson");
        assert.deepEqual(transcript.blocks, [
          { kind: "text", text: PLAIN_ANSWER },
          { kind: "status", status: "usage", message: `1,286 tokens · ${c.costs.plain}` },
        ]);
        assert.equal(transcript.status, "completed");
        assert.equal(transcript.sessionId, c.idOf(0));
        assert.equal(transcript.dialect, c.dialect);
        assert.deepEqual(
          { exitCode: transcript.done.exitCode, success: transcript.done.success, tokensUsed: transcript.done.tokensUsed, synthesized: transcript.done.synthesized },
          { exitCode: 0, success: true, tokensUsed: 1286, synthesized: false },
        );
        assert.equal(transcript.done.durationMs, 140, "by the CLI's own clock, from the header to the last message");
        assert.deepEqual(transcript.problems, []);
      });

      it("shows thinking before the answer", async () => {
        const transcript = await read("thinking.ndjson");
        assert.deepEqual(transcript.blocks, [
          { kind: "thinking", text: "The user asks for 17 × 23. 17 × 20 = 340, 17 × 3 = 51, 340 + 51 = 391." },
          { kind: "text", text: "17 × 23 = **391**." },
          { kind: "status", status: "usage", message: `1,214 tokens · ${c.costs.thinking}` },
        ]);
        assert.equal(transcript.status, "completed");
        assert.deepEqual(transcript.problems, []);
      });

      it("shows each tool call once with its whole arguments, completed by its result, a failed one with its error", async () => {
        const transcript = await read("tool-use.ndjson");
        assert.deepEqual(kinds(transcript.blocks), ["text", "tool", "tool", "text", "tool", "text", "status"]);
        assert.deepEqual(
          tools(transcript.blocks).map(({ tool, toolId, parameters, status, error }) => ({ tool, toolId, parameters, status, error })),
          [
            { tool: "read", toolId: c.toolIds[0], parameters: { path: "notes.txt" }, status: "succeeded", error: null },
            { tool: "read", toolId: c.toolIds[1], parameters: { path: "todo.txt" }, status: "failed", error: `ENOENT: no such file or directory, access '${c.cwd}/todo.txt'` },
            { tool: "bash", toolId: c.toolIds[2], parameters: { command: "echo hi" }, status: "succeeded", error: null },
          ],
        );
        assert.ok(tools(transcript.blocks).every((card) => card.durationMs === 0), "durations measured by our (still) clock");
        assert.deepEqual(texts(transcript.blocks), [
          "I'll read both files first.",
          "todo.txt does not exist. Now I'll run the command.",
          "The notes say the build is green, todo.txt is missing, and `echo hi` printed `hi`.",
        ]);
        assert.deepEqual(transcript.blocks.at(-1), { kind: "status", status: "usage", message: `4,851 tokens · ${c.costs.tools}` });
        assert.deepEqual(transcript.done.toolsUsed, ["read", "bash"]);
        assert.equal(transcript.done.tokensUsed, 4851, "every model call of the run, not only the last");
        assert.equal(transcript.status, "completed", "a failed tool is not a failed session");
        assert.deepEqual(transcript.problems, []);
      });

      it("ends a refused API key as failed, though the process exits 0", async () => {
        const transcript = await read("auth-error.ndjson");
        assert.deepEqual(transcript.blocks, [{ kind: "error", code: "AUTH_EXPIRED", message: c.auth, recoverable: false }]);
        assert.equal(transcript.status, "failed");
        assert.deepEqual(
          { exitCode: transcript.done.exitCode, success: transcript.done.success, tokensUsed: transcript.done.tokensUsed, synthesized: transcript.done.synthesized },
          { exitCode: 0, success: false, tokensUsed: null, synthesized: false },
        );
        assert.deepEqual(transcript.problems, []);
      });

      it("shows a retried server error as a status, then the answer of the attempt that worked", async () => {
        const transcript = await read("server-error-retry.ndjson");
        assert.deepEqual(kinds(transcript.blocks), ["status", "text", "status"]);
        const [retrying] = transcript.blocks;
        assert.equal(retrying.kind === "status" && retrying.status, "retrying");
        assert.match(retrying.kind === "status" ? (retrying.message ?? "") : "", /^The model request failed \(500 .+\); retrying in 2\.0 s \(attempt 1 of 3\)\.$/);
        assert.deepEqual(texts(transcript.blocks), ["Hi there!"]);
        assert.deepEqual(transcript.blocks.at(-1), { kind: "status", status: "usage", message: `1,104 tokens · ${c.costs.retry}` });
        assert.deepEqual(errors(transcript.blocks), [], "a failure pi recovered from is not an error");
        assert.equal(transcript.status, "completed");
        assert.equal(transcript.done.durationMs, 2240, "the retry's wait included");
        assert.deepEqual(transcript.problems, []);
      });

      it("ends as failed, with a network error, when pi gives up retrying", async () => {
        const transcript = await read("server-error-give-up.ndjson");
        assert.deepEqual(kinds(transcript.blocks), ["status", "status", "error"]);
        assert.deepEqual(
          transcript.blocks.flatMap((b) => (b.kind === "status" ? [b.message?.replace(/\(.*\); retrying/, "(…); retrying")] : [])),
          ["The model request failed (…); retrying in 2.0 s (attempt 1 of 2).", "The model request failed (…); retrying in 4.0 s (attempt 2 of 2)."],
        );
        assert.deepEqual(transcript.blocks[2], { kind: "error", code: "NETWORK_TIMEOUT", message: c.gaveUp, recoverable: false });
        assert.equal(transcript.status, "failed");
        assert.deepEqual([transcript.done.exitCode, transcript.done.success, transcript.done.synthesized], [0, false, false]);
        assert.deepEqual(transcript.problems, []);
      });

      it("shows both answers of a two-message conversation, the second prompt between them", async () => {
        const transcript = await read("two-messages.ndjson");
        assert.deepEqual(transcript.blocks, [
          { kind: "text", text: "Nice to meet you, Ada!" },
          { kind: "status", status: "prompt", message: "What is my name?" },
          { kind: "text", text: "Your name is Ada." },
          { kind: "status", status: "usage", message: `2,034 tokens · ${c.costs.two}` },
        ]);
        assert.equal(transcript.status, "completed");
        assert.equal(transcript.done.tokensUsed, 2034);
        assert.deepEqual(transcript.problems, []);
      });

      it("leaves a recording cut off mid-answer to the session, which says the stream ended without done", async () => {
        const transcript = await read("sigint-mid-answer.ndjson");
        assert.deepEqual(transcript.blocks, [{ kind: "text", text: "Once upon a time, in a land far away, there lived " }]);
        assert.equal(transcript.status, "failed");
        assert.equal(transcript.done.synthesized, true);
        assert.deepEqual(transcript.problems.map((p) => p.code), ["MISSING_DONE"]);
      });

      it("lets a run killed by SIGINT (exit 130, no closing events) end as the crash it is", () => {
        const transcript = liveTranscriptOf(fixture(c.dialect, "sigint-mid-answer.ndjson"), { exitCode: 130, signal: null });
        assert.deepEqual(kinds(transcript.blocks), ["text", "error"]);
        assert.equal(errors(transcript.blocks)[0].kind === "error" && errors(transcript.blocks)[0].code, "PROCESS_CRASHED");
        assert.equal(transcript.status, "failed");
        assert.deepEqual([transcript.done.exitCode, transcript.done.synthesized], [130, true]);
      });

      it("ends a run the user stopped as canceled", () => {
        const transcript = liveTranscriptOf(fixture(c.dialect, "sigint-mid-answer.ndjson"), { exitCode: null, signal: "SIGTERM" }, true);
        assert.equal(transcript.status, "canceled");
        assert.deepEqual(kinds(transcript.blocks), ["text"]);
      });
    });
  }

  describe("bad lines", () => {
    it("reports each by the field that is wrong, and shows what the good lines say", async () => {
      const transcript = await transcriptOf(fixture("pi", "bad-lines.ndjson"));
      assert.deepEqual(
        transcript.problems.map((p) => `${p.line} ${p.code} ${p.message}`),
        [
          "2 MALFORMED_EVENT expected a JSON object, got array",
          "9 MALFORMED_EVENT message_update: assistantMessageEvent.delta: expected string, got number",
          "10 MALFORMED_EVENT message_update: assistantMessageEvent: missing, expected object",
          "12 MALFORMED_EVENT message_update: assistantMessageEvent.toolCall.name: missing, expected string",
          "14 MALFORMED_EVENT tool_execution_end: toolCallId: missing, expected string",
          "17 MALFORMED_EVENT type: missing, expected string",
        ],
      );
      assert.deepEqual(texts(transcript.blocks), ["Hi there!"]);
      assert.equal(transcript.status, "completed");
    });
  });

  describe("the document's own example", () => {
    it("reads the stream of pi-json-mode.md's Output Format section as it is written", async () => {
      // Verbatim from ../shared/protocols/pi-json-mode.md: message_update with empty message and partial.
      const documented = [
        '{"type":"session","version":3,"id":"a1b2c3d4-e5f6-7890-abcd-ef1234567890","timestamp":"2025-01-15T10:30:00.000Z","cwd":"/path/to/project"}',
        '{"type":"agent_start"}',
        '{"type":"turn_start"}',
        '{"type":"message_start","message":{"role":"assistant","content":[],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-20250514","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1705312200000}}',
        '{"type":"message_update","message":{},"assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"Hello","partial":{}}}',
        '{"type":"message_update","message":{},"assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":" world!","partial":{}}}',
        '{"type":"message_update","message":{},"assistantMessageEvent":{"type":"done","reason":"stop","message":{}}}',
        '{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"Hello world!"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-20250514","usage":{"input":50,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":55,"cost":{"input":0.001,"output":0.0001,"cacheRead":0,"cacheWrite":0,"total":0.0011}},"stopReason":"stop","timestamp":1705312200000}}',
        '{"type":"turn_end","message":{},"toolResults":[]}',
        '{"type":"agent_end","messages":[]}',
      ];
      const transcript = await transcriptOf(lines(...documented));
      assert.deepEqual(transcript.blocks, [
        { kind: "text", text: "Hello world!" },
        { kind: "status", status: "usage", message: "55 tokens · $0.0011" },
      ]);
      assert.equal(transcript.sessionId, "a1b2c3d4-e5f6-7890-abcd-ef1234567890");
      assert.equal(transcript.status, "completed");
      assert.deepEqual(transcript.problems, []);
    });
  });

  describe("the start", () => {
    it("starts the session at the header, with the CLI's session id and folder", () => {
      const { events } = decodeAll([header]);
      assert.deepEqual(events.map((e) => [e.type, e.sessionId, e.payload]), [["start", SID, { command: "exec", cwd: "/home/ada/project" }]]);
    });

    it("starts once, though a header comes again", () => {
      const { events } = decodeAll([header, { ...header, id: "another" }]);
      assert.deepEqual(events.map((e) => e.type), ["start"]);
    });
  });

  describe("rpc mode (`--mode rpc`, the prompt on stdin)", () => {
    it("starts the session with the run, since rpc mode writes no header, and reads the aborted run without a problem", async () => {
      const transcript = liveTranscriptOf(fs.readFileSync(path.join(FIXTURES, "pi-recorded", "0.73.1", "interrupt.ndjson"), "utf8"), { exitCode: 0, signal: null }, true);
      assert.deepEqual(transcript.problems, []);
      assert.equal(transcript.status, "canceled");
      assert.deepEqual(texts(transcript.blocks), ["word1 "]);
    });

    it("ends the run failed with pi's own words when pi refuses the prompt, by meaning: a missing key is a login problem", () => {
      const refused = { id: "agent-stream-prompt", type: "response", command: "prompt", success: false, error: "No API key found for the selected model.\n\nUse /login to log into a provider via OAuth or API key." };
      const transcript = liveTranscriptOf(lines(refused), { exitCode: 0, signal: null });
      assert.equal(transcript.status, "failed");
      assert.deepEqual(
        transcript.blocks.map((b) => (b.kind === "error" ? [b.code, b.message.split("\n")[0], b.recoverable] : b.kind)),
        [["AUTH_EXPIRED", "No API key found for the selected model.", false]],
      );
      assert.equal(transcript.done.synthesized, false);
      assert.deepEqual(transcript.problems, []);
    });

    it("shows nothing for the answers to other commands", () => {
      const { events, problems } = decodeAll([{ id: "agent-stream-abort", type: "response", command: "abort", success: true }]);
      assert.deepEqual([events, problems], [[], []]);
    });
  });

  describe("tool calls", () => {
    it("shows a tool once its arguments are whole, not per fragment", () => {
      const { events } = decodeAll([
        header,
        assistantStart(),
        update({ type: "toolcall_start", contentIndex: 0 }),
        update({ type: "toolcall_delta", contentIndex: 0, delta: '{"comm' }),
        update({ type: "toolcall_delta", contentIndex: 0, delta: 'and":"echo hi"}' }),
      ]);
      assert.deepEqual(events.map((e) => e.type), ["start"]);
      const { events: after } = decodeAll([header, assistantStart(), update({ type: "toolcall_end", contentIndex: 0, toolCall: toolCall("t1", "bash", { command: "echo hi" }) })]);
      assert.deepEqual(after.map((e) => [e.type, e.payload]), [
        ["start", { command: "exec", cwd: "/home/ada/project" }],
        ["tool_started", { tool: "bash", toolId: "t1", parameters: { command: "echo hi" } }],
      ]);
    });

    it("does not show a tool again when pi runs it, nor when the finished message repeats it", () => {
      const call = toolCall("t1", "bash", { command: "echo hi" });
      const { events } = decodeAll([
        header,
        assistantStart(),
        update({ type: "toolcall_end", contentIndex: 0, toolCall: call }),
        assistantEnd([call], { stopReason: "toolUse" }),
        toolStart("t1", "bash", { command: "echo hi" }),
        toolEnd("t1", "bash", "hi\n", false),
      ]);
      assert.deepEqual(events.map((e) => e.type), ["start", "tool_started", "tool_completed"]);
    });

    it("shows a tool call that was not streamed when its message ends", async () => {
      const transcript = await transcriptOf(lines(header, ...run(assistantStart(), assistantEnd([toolCall("t1", "read", { path: "a.txt" })], { stopReason: "toolUse" }), toolStart("t1", "read", { path: "a.txt" }), toolEnd("t1", "read", "text of a", false))));
      assert.deepEqual(tools(transcript.blocks).map(({ tool, parameters, status }) => ({ tool, parameters, status })), [{ tool: "read", parameters: { path: "a.txt" }, status: "succeeded" }]);
    });

    it("shows a tool pi runs without any tool call before it (an extension's, say) from tool_execution_start", async () => {
      const transcript = await transcriptOf(lines(header, ...run(toolStart("x1", "grep", { pattern: "TODO" }), toolEnd("x1", "grep", "No matches", true))));
      assert.deepEqual(tools(transcript.blocks).map(({ tool, toolId, parameters, status, error }) => ({ tool, toolId, parameters, status, error })), [
        { tool: "grep", toolId: "x1", parameters: { pattern: "TODO" }, status: "failed", error: "No matches" },
      ]);
      assert.deepEqual(transcript.problems, []);
    });

    it("times a tool from when pi began running it, not from when the model asked for it", () => {
      let clock = 0;
      const call = toolCall("t1", "bash", { command: "sleep 1" });
      const { events } = decodeAll(
        [header, assistantStart(), update({ type: "toolcall_end", contentIndex: 0, toolCall: call }), assistantEnd([call]), toolStart("t1", "bash", {}), toolEnd("t1", "bash", "", false)],
        undefined,
        () => (clock += 250),
      );
      const completed = events.find((e) => e.type === "tool_completed");
      assert.deepEqual(completed?.payload, { tool: "bash", toolId: "t1", success: true, duration: 250 });
    });

    it("matches results to calls by id when two calls of one tool run together", async () => {
      const a = toolCall("a", "read", { path: "a.txt" });
      const b = toolCall("b", "read", { path: "b.txt" });
      const transcript = await transcriptOf(
        lines(header, ...run(assistantStart(), assistantEnd([a, b], { stopReason: "toolUse" }), toolStart("a", "read", {}), toolStart("b", "read", {}), toolEnd("b", "read", "no b", true), toolEnd("a", "read", "A", false))),
      );
      assert.deepEqual(tools(transcript.blocks).map(({ toolId, status, error }) => ({ toolId, status, error })), [
        { toolId: "a", status: "succeeded", error: null },
        { toolId: "b", status: "failed", error: "no b" },
      ]);
    });
  });

  describe("text", () => {
    it("shows text a provider did not stream from the finished message, and streamed text once", async () => {
      const transcript = await transcriptOf(
        lines(
          header,
          ...run(
            assistantStart(),
            textDelta("Streamed."),
            assistantEnd([
              { type: "text", text: "Streamed." },
              { type: "thinking", thinking: "Not streamed thought." },
              { type: "text", text: "Not streamed." },
            ]),
          ),
        ),
      );
      assert.deepEqual(transcript.blocks.slice(0, 3), [
        { kind: "text", text: "Streamed." },
        { kind: "thinking", text: "Not streamed thought." },
        { kind: "text", text: "Not streamed." },
      ]);
    });

    it("shows a block given whole at its end (text_end) when it had no deltas", async () => {
      const transcript = await transcriptOf(lines(header, ...run(assistantStart(), update({ type: "text_start", contentIndex: 0 }), update({ type: "text_end", contentIndex: 0, content: "Whole." }), assistantEnd([{ type: "text", text: "Whole." }]))));
      assert.deepEqual(texts(transcript.blocks), ["Whole."]);
    });

    it("does not repeat a message whose deltas name no contentIndex, as indusagi's document shows them", async () => {
      const transcript = await transcriptOf(lines(header, ...run(assistantStart(), textDelta("Hello", undefined), assistantEnd([{ type: "text", text: "Hello" }]))), "indusagi");
      assert.deepEqual(texts(transcript.blocks), ["Hello"]);
    });

    it("says when the model stopped at its output limit", async () => {
      const transcript = await transcriptOf(lines(header, ...run(assistantStart(), textDelta("Once upon"), assistantEnd([{ type: "text", text: "Once upon" }], { stopReason: "length" }))));
      assert.deepEqual(transcript.blocks[1], { kind: "status", status: "truncated", message: "The model reached its output limit; the answer may be cut short." });
      assert.equal(transcript.status, "completed");
    });

    it("says when the conversation is summarised to fit the context, in the document's words and pi 0.73's", async () => {
      const transcript = await transcriptOf(
        lines(
          header,
          { type: "auto_compaction_start", reason: "threshold" },
          { type: "auto_compaction_end", result: { summary: "…" }, aborted: false, willRetry: false },
          { type: "compaction_start", reason: "overflow" },
          { type: "compaction_end", reason: "overflow", aborted: false, willRetry: false, errorMessage: "Compaction failed: 500 oops" },
          ...run(assistantStart(), textDelta("ok"), assistantEnd([{ type: "text", text: "ok" }])),
        ),
      );
      assert.deepEqual(transcript.blocks.slice(0, 4), [
        { kind: "status", status: "compacting", message: "Summarising the conversation to fit the model's context…" },
        { kind: "status", status: "compacted", message: "The conversation was summarised to fit the model's context." },
        { kind: "status", status: "compacting", message: "Summarising the conversation to fit the model's context…" },
        { kind: "status", status: "compaction-failed", message: "Compaction failed: 500 oops" },
      ]);
    });
  });

  describe("the end of the stream", () => {
    it("ends the session as failed when pi exits 0 after a failed model call", () => {
      const transcript = liveTranscriptOf(lines(header, ...run(userMessage("Say hi."), assistantStart(), failedCall("401 Invalid API key"))), { exitCode: 0, signal: null });
      assert.deepEqual(transcript.blocks, [{ kind: "error", code: "AUTH_EXPIRED", message: "401 Invalid API key", recoverable: false }]);
      assert.equal(transcript.status, "failed");
      assert.deepEqual([transcript.done.exitCode, transcript.done.success, transcript.done.synthesized], [0, false, false]);
      assert.deepEqual(transcript.problems, []);
    });

    it("ends a finished run that exited 0 as completed, with the process's exit code", () => {
      const transcript = liveTranscriptOf(lines(header, ...run(assistantStart(), textDelta("Hi"), assistantEnd([{ type: "text", text: "Hi" }]))), { exitCode: 0, signal: null });
      assert.equal(transcript.status, "completed");
      assert.deepEqual([transcript.done.exitCode, transcript.done.synthesized], [0, false]);
    });

    it("leaves a process that exited non-zero after its run to the session, which shows the crash", () => {
      const transcript = liveTranscriptOf(lines(header, ...run(assistantStart(), textDelta("Hi"), assistantEnd([{ type: "text", text: "Hi" }]))), { exitCode: 1, signal: null });
      assert.equal(transcript.status, "failed");
      assert.equal(errors(transcript.blocks)[0]?.kind === "error" && errors(transcript.blocks)[0].code, "PROCESS_CRASHED");
      assert.deepEqual([transcript.done.exitCode, transcript.done.synthesized], [1, true]);
    });

    it("does not invent success for a process that exited 0 before agent_end", () => {
      const transcript = liveTranscriptOf(lines(header, agentStart, assistantStart(), textDelta("Hi")), { exitCode: 0, signal: null });
      assert.equal(transcript.status, "failed");
      assert.equal(transcript.done.synthesized, true);
    });

    it("does not end while pi waits to retry", () => {
      const { events } = decodeAll([header, ...run(failedCall("500 Internal server error")), { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: "500 Internal server error" }], { exitCode: 0, signal: null });
      assert.deepEqual(events.map((e) => e.type), ["start", "status"]);
    });

    it("still shows the failure pi reported when the process then dies", () => {
      const transcript = liveTranscriptOf(lines(header, agentStart, failedCall("401 Invalid API key")), { exitCode: 143, signal: null });
      assert.deepEqual(errors(transcript.blocks).map((b) => b.kind === "error" && b.code), ["AUTH_EXPIRED", "PROCESS_CRASHED"]);
      assert.equal(transcript.status, "failed");
    });

    it("ends an aborted run as failed with a plain reason", async () => {
      const transcript = await transcriptOf(lines(header, ...run(assistantStart(), textDelta("Once"), failedCall("Request was aborted", "aborted"))));
      assert.deepEqual(transcript.blocks, [
        { kind: "text", text: "Once" },
        { kind: "error", code: "UNKNOWN", message: "pi stopped the run before the model finished (Request was aborted).", recoverable: false },
      ]);
      assert.equal(transcript.status, "failed");
    });

    it("names indusagi in what it says for indusagi", async () => {
      const transcript = await transcriptOf(lines(header, ...run(failedCall("", "aborted"))), "indusagi");
      assert.deepEqual(errors(transcript.blocks), [{ kind: "error", code: "UNKNOWN", message: "indusagi stopped the run before the model finished.", recoverable: false }]);
    });

    it("shows an aborted run the user stopped as canceled, without pi's words about it", () => {
      const transcript = liveTranscriptOf(lines(header, ...run(assistantStart(), textDelta("Once"), failedCall("Request was aborted", "aborted"))), { exitCode: 0, signal: null }, true);
      assert.equal(transcript.status, "canceled");
      assert.deepEqual(kinds(transcript.blocks), ["text"]);
    });

    it("keeps a failed first prompt as a recoverable error when pi goes on to the next", async () => {
      const transcript = await transcriptOf(
        lines(header, ...run(userMessage("First"), failedCall("400 Invalid request: unknown field")), ...run(userMessage("Second"), assistantStart(), textDelta("Answer two."), assistantEnd([{ type: "text", text: "Answer two." }]))),
      );
      assert.deepEqual(transcript.blocks.slice(0, 3), [
        { kind: "error", code: "UNKNOWN", message: "400 Invalid request: unknown field", recoverable: true },
        { kind: "status", status: "prompt", message: "Second" },
        { kind: "text", text: "Answer two." },
      ]);
      assert.equal(transcript.status, "completed");
      assert.deepEqual(transcript.problems, []);
    });

    it("says a failed call pi gave no reason for failed", async () => {
      const transcript = await transcriptOf(lines(header, ...run(assistantEnd([], { stopReason: "error" }))));
      assert.deepEqual(errors(transcript.blocks), [{ kind: "error", code: "UNKNOWN", message: "The model call failed; pi gave no reason.", recoverable: false }]);
    });
  });

  describe("what a user sees of each error", () => {
    // The provider SDKs' words as pi passes them on in errorMessage: the HTTP status first, when there is one.
    const table: [string, string][] = [
      ['401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}', "AUTH_EXPIRED"],
      ["401 Incorrect API key provided: test-key.", "AUTH_EXPIRED"],
      ["403 Forbidden", "AUTH_EXPIRED"],
      ["No API key found for anthropic.", "AUTH_EXPIRED"],
      ["500 The server had an error while processing your request.", "NETWORK_TIMEOUT"],
      ["502 Bad Gateway", "NETWORK_TIMEOUT"],
      ['529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', "NETWORK_TIMEOUT"],
      ["429 Rate limit reached for requests", "NETWORK_TIMEOUT"],
      ["Connection error.", "NETWORK_TIMEOUT"],
      ["fetch failed", "NETWORK_TIMEOUT"],
      ["Request timed out.", "NETWORK_TIMEOUT"],
      ['400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}', "CONTEXT_LIMIT"],
      ["400 This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.", "CONTEXT_LIMIT"],
      ["413 Request Entity Too Large", "CONTEXT_LIMIT"],
      ["404 The model `mock-model` does not exist or you do not have access to it.", "UNKNOWN"],
      ["400 Invalid 'messages[1].content': empty", "UNKNOWN"],
    ];
    for (const [text, code] of table) {
      it(`${code} for ${JSON.stringify(text.slice(0, 60))}`, async () => {
        const transcript = await transcriptOf(lines(header, ...run(userMessage("Say hi."), failedCall(text))));
        assert.deepEqual(transcript.blocks, [{ kind: "error", code, message: text, recoverable: false }]);
        assert.equal(transcript.status, "failed");
      });
    }
  });

  describe("malformed values", () => {
    const table: [string, unknown, string][] = [
      ["a string", "hello", "expected a JSON object, got string"],
      ["null", null, "expected a JSON object, got null"],
      ["an array", [1, 2], "expected a JSON object, got array"],
      ["no type", { id: SID }, "type: missing, expected string"],
      ["a numeric type", { type: 7 }, "type: expected string, got number"],
      ["a header without id", { type: "session", version: 3 }, "session: id: missing, expected string"],
      ["a header with a numeric cwd", { ...header, cwd: 1 }, "session: cwd: expected string, got number"],
      ["message_start without message", { type: "message_start" }, "message_start: message: missing, expected object"],
      ["message_end without role", { type: "message_end", message: { content: [] } }, "message_end: message.role: missing, expected string"],
      ["message_update without its event", { type: "message_update", message: {} }, "message_update: assistantMessageEvent: missing, expected object"],
      ["an event without type", update({ delta: "x" }), "message_update: assistantMessageEvent.type: missing, expected string"],
      ["a text delta without delta", update({ type: "text_delta", contentIndex: 0 }), "message_update: assistantMessageEvent.delta: missing, expected string"],
      ["a negative contentIndex", update({ type: "thinking_delta", contentIndex: -1, delta: "x" }), "message_update: assistantMessageEvent.contentIndex: expected non-negative integer, got number"],
      ["toolcall_end without toolCall", update({ type: "toolcall_end", contentIndex: 0 }), "message_update: assistantMessageEvent.toolCall: missing, expected object"],
      ["a tool call with array arguments", update({ type: "toolcall_end", contentIndex: 0, toolCall: { id: "t", name: "bash", arguments: [] } }), "message_update: assistantMessageEvent.toolCall.arguments: expected object, got array"],
      ["assistant content that is a string", assistantEnd("hi" as unknown as unknown[]), "message_end: message.content: expected array, got string"],
      ["a content block without type", assistantEnd([{ text: "x" }]), "message_end: message.content[0].type: missing, expected string"],
      ["a tool call without id", assistantEnd([{ type: "toolCall", name: "bash", arguments: {} }]), "message_end: message.content[0].id: missing, expected string"],
      ["a numeric errorMessage", failedCall(5 as unknown as string), "message_end: message.errorMessage: expected string, got number"],
      ["a user message with numeric content", { type: "message_end", message: { role: "user", content: 5 } }, "message_end: message.content: expected string or array, got number"],
      ["tool_execution_start without toolCallId", { type: "tool_execution_start", toolName: "bash", args: {} }, "tool_execution_start: toolCallId: missing, expected string"],
      ["tool_execution_start with array args", toolStart("t", "bash", [] as unknown as object), "tool_execution_start: args: expected object, got array"],
      ["tool_execution_update without toolName", { type: "tool_execution_update", toolCallId: "t" }, "tool_execution_update: toolName: missing, expected string"],
      ["tool_execution_end with a string isError", { ...toolEnd("t", "bash", "x", false), isError: "no" }, "tool_execution_end: isError: expected boolean, got string"],
      ["auto_retry_start with a numeric errorMessage", { type: "auto_retry_start", attempt: 1, errorMessage: 500 }, "auto_retry_start: errorMessage: expected string, got number"],
      ["auto_retry_end without success", { type: "auto_retry_end", attempt: 1 }, "auto_retry_end: success: missing, expected boolean"],
    ];
    for (const [what, value, message] of table) {
      it(`names the field: ${what}`, () => {
        const { problems } = decodeAll([value]);
        assert.deepEqual(problems, [`MALFORMED_EVENT ${message}`]);
      });
    }

    it("skips silently what carries nothing for the user", () => {
      const { events, problems } = decodeAll([
        header,
        { type: "agent_start" },
        { type: "turn_start" },
        { type: "queue_update", steering: [], followUp: [] },
        { type: "thinking_level_changed", level: "low" },
        { type: "session_info_changed", name: "x" },
        { type: "message_start", message: { role: "user", content: "Say hi." } },
        userMessage("Say hi."),
        assistantStart(),
        update({ type: "start", partial: {} }),
        update({ type: "text_start", contentIndex: 0, partial: {} }),
        update({ type: "toolcall_start", contentIndex: 1, partial: {} }),
        update({ type: "toolcall_delta", contentIndex: 1, delta: "{", partial: {} }),
        update({ type: "done", reason: "stop", message: {} }),
        update({ type: "error", reason: "error", error: {} }),
        { type: "tool_execution_update", toolCallId: "t", toolName: "bash", args: {}, partialResult: { content: [] } },
        { type: "message_end", message: { role: "toolResult", toolCallId: "t", toolName: "bash", content: [], isError: false } },
        { type: "message_end", message: { role: "bashExecution", command: "ls" } },
        { type: "turn_end", message: {}, toolResults: [] },
        { type: "some_future_event" },
      ]);
      assert.deepEqual(events.map((e) => e.type), ["start"]);
      assert.deepEqual(problems, []);
    });
  });

  describe("recognising the stream", () => {
    it("pi claims the first line of every pi and indusagi fixture, and of every recording of pi --mode json", () => {
      const files = ndjsonFiles(FIXTURES).filter((file) => isOurs(file) && !file.endsWith("bad-lines.ndjson") && isJsonModeRecording(file));
      assert.ok(files.length >= 16, "both dialects' fixtures are there");
      for (const file of files) {
        const firstLine = fs.readFileSync(file, "utf8").split("\n")[0];
        // A recording of a CLI that printed nothing has no first line to claim.
        if (firstLine === "") continue;
        assert.equal(piDialect.recognizes(JSON.parse(firstLine) as Record<string, unknown>), true, path.relative(FIXTURES, file));
      }
    });

    it("indusagi claims nothing: its stream is pi's, line for line, so auto reads it as pi", async () => {
      const indusagiLines = fixture("indusagi", "plain-answer.ndjson").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
      assert.ok(indusagiLines.every((value) => !indusagiDialect.recognizes(value)));
      const locus: DialectDefinition = { name: "locus", summary: "locus", create: () => new LocusAdapter(), recognizes: () => false };
      const auto = new AutoAdapter([piDialect, indusagiDialect], locus);
      const session = await replayStream(chunksOf([fixture("indusagi", "plain-answer.ndjson")]), { adapter: auto });
      const transcript = session.toTranscript();
      assert.equal(transcript.dialect, "pi");
      assert.deepEqual(texts(transcript.blocks), [PLAIN_ANSWER]);
      assert.equal(transcript.status, "completed");
    });

    it("neither claims a line of the other dialects' fixtures", () => {
      assertClaimsNone(
        ndjsonFiles(FIXTURES).filter((file) => !isOurs(file)),
        piDialect,
        indusagiDialect,
      );
    });

  });
});

/** The hand-written fixtures of both dialects and any recordings of the real pi (folders named pi… or indusagi…). */
function isOurs(file: string): boolean {
  return inFolders(file, "pi", "indusagi");
}

/** A recording's meta file says how pi was run; `--mode rpc` writes another stream. Hand-written files have none. */
function isJsonModeRecording(file: string): boolean {
  const meta = file.replace(/\.ndjson$/, ".meta.json");
  if (!fs.existsSync(meta)) return true;
  const command: unknown = (JSON.parse(fs.readFileSync(meta, "utf8")) as { command?: unknown }).command;
  return Array.isArray(command) && command.join(" ").includes("--mode json");
}
