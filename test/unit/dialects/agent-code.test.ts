import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { AgentCodeAdapter, agentCodeDialect } from "../../../src/dialects/agent-code-adapter";
import type { StreamEnding } from "../../../src/dialects/dialect";
import type { Transcript } from "../../../src/protocol/transcript";
import { LiveSession } from "../../../src/session/live-session";
import { Session } from "../../../src/session/session";
import { createSessionFeed } from "../../../src/session/session-feed";
import { EventDecoder } from "../../../src/stream/event-decoder";
import { fakeCli } from "../../helpers/repo";
import * as harness from "../../helpers/dialect-harness";
import { FIXTURES, assertClaimsNone, errors, inFolders, kinds, lines, ndjsonFiles, tools } from "../../helpers/dialect-harness";

const SID = "5f0c2a8e-3b7d-4e19-9c61-0d4a7b2e8f13";

const fixture = (name: string) => harness.fixture("agent-code", name);
const transcriptOf = (ndjson: string): Promise<Transcript> => harness.transcriptOf(ndjson, new AgentCodeAdapter());

/** The stream as a process that ended with `exitCode` would give it, without running one. */
function transcriptOfRun(ndjson: string, exitCode: number, stderrTail = ""): Transcript {
  const session = new Session({ dialect: "agent-code" });
  const feed = createSessionFeed(session, new EventDecoder(new AgentCodeAdapter()));
  session.begin();
  feed.push(Buffer.from(ndjson));
  feed.end({ exitCode, signal: null });
  session.processEnded({ reason: "exited", exitCode, signal: null, stderrTail });
  return session.toTranscript();
}

/** A real process: the fake CLI prints the file, then `stderr`, and exits with `exitCode`. */
async function transcriptOfProcess(file: string, exitCode: number, stderr?: string): Promise<Transcript> {
  const live = LiveSession.start({
    adapter: new AgentCodeAdapter(),
    process: { command: fakeCli("print-and-exit.js"), args: [file, String(exitCode), ...(stderr === undefined ? [] : [stderr])], cwd: os.tmpdir() },
  });
  return live.finished;
}

/** What the adapter says about values, without a session in between. */
const decodeAll = (values: unknown[], ending?: StreamEnding | null) => harness.decodeAll(new AgentCodeAdapter(() => 1_000), values, ending);

// Lines as agent-code writes them (crates/cli/src/output.rs), for the tests that build their own streams.
const sessionStart = { type: "session_start", session_id: SID, model: "claude-sonnet-4-5", timestamp: "2026-04-16T03:22:41.512337+00:00" };
const text = (content: string, turn = 1) => ({ type: "text_delta", content, turn });
const error = (message: string, turn = 1) => ({ type: "error", message, turn });
const toolCall = (tool: string, input: unknown, turn = 1) => ({ type: "tool_call", tool, input, turn });
const toolResult = (tool: string, output: string, is_error: boolean, turn = 1) => ({ type: "tool_result", tool, output, is_error, turn });
const turnComplete = (fields: object = {}) => ({ type: "turn_complete", turn: 1, input_tokens: 100, output_tokens: 20, cost_usd: 0.001, ...fields });
const sessionEnd = (exit_code: unknown, fields: object = {}) => ({ type: "session_end", turns: 1, total_cost_usd: 0.001, exit_code, ...fields });

describe("the agent-code dialect", () => {
  describe("fixtures", () => {
    it("shows a plain answer with emoji, CJK and a code block intact, then its tokens and cost", async () => {
      const transcript = await transcriptOf(fixture("plain-answer.ndjson"));
      assert.equal(transcript.status, "completed");
      assert.equal(transcript.sessionId, SID);
      assert.deepEqual(transcript.blocks, [
        { kind: "text", text: 'Here is a greeting in three languages 👋:\n\n- English: Hello\n- 日本語: こんにちは\n- 中文: 你好\n\n```rust\nfn main() {\n    println!("héllo, 世界");\n}\n```\nDone ✅' },
        { kind: "status", status: "usage", message: "1,604 tokens · $0.0058" },
      ]);
      assert.equal(transcript.done.tokensUsed, 1604);
      assert.equal(transcript.done.exitCode, 0);
      assert.deepEqual(transcript.problems, []);
    });

    it("shows thinking before the answer", async () => {
      const transcript = await transcriptOf(fixture("thinking.ndjson"));
      assert.deepEqual(transcript.blocks.slice(0, 2), [
        { kind: "thinking", text: "The user asks for 17 × 23. 17 × 20 = 340 and 17 × 3 = 51, so 391." },
        { kind: "text", text: "17 × 23 = **391**." },
      ]);
      assert.equal(transcript.status, "completed");
      assert.deepEqual(transcript.problems, []);
    });

    it("completes each tool card with its parameters by the next result of its name, a failed one with its error", async () => {
      const transcript = await transcriptOf(fixture("tool-use-failing-tool.ndjson"));
      assert.deepEqual(kinds(transcript.blocks), ["text", "tool", "text", "tool", "tool", "tool", "text", "status"]);
      assert.deepEqual(
        tools(transcript.blocks).map(({ tool, parameters, status, error }) => ({ tool, parameters, status, error })),
        [
          { tool: "FileRead", parameters: { file_path: "/home/user/project/NOTES.md" }, status: "failed", error: "File not found: /home/user/project/NOTES.md" },
          { tool: "Grep", parameters: { pattern: "TODO", path: "src" }, status: "succeeded", error: null },
          { tool: "Grep", parameters: { pattern: "FIXME(", path: "src" }, status: "failed", error: "regex parse error:\n    FIXME(\n         ^\nerror: unclosed group" },
          { tool: "Bash", parameters: { command: "echo hi" }, status: "succeeded", error: null },
        ],
      );
      for (const card of tools(transcript.blocks)) assert.equal(typeof card.durationMs, "number", `${card.tool}: a duration measured from our own stamps`);
      assert.deepEqual(transcript.done.toolsUsed, ["FileRead", "Grep", "Bash"]);
      // Tokens from the turn_complete lines; the cost from session_end's total.
      assert.deepEqual(transcript.blocks.at(-1), { kind: "status", status: "usage", message: "4,522 tokens · $0.0410" });
      assert.equal(transcript.status, "completed");
      assert.deepEqual(transcript.problems, []);
    });

    it("shows a refused API key as a log-in error and ends with the CLI's exit code", async () => {
      const transcript = await transcriptOf(fixture("auth-error.ndjson"));
      assert.deepEqual(transcript.blocks, [
        {
          kind: "error",
          code: "AUTH_EXPIRED",
          message: 'auth: {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
          recoverable: false,
        },
      ]);
      assert.equal(transcript.status, "failed");
      assert.deepEqual([transcript.done.exitCode, transcript.done.success, transcript.done.synthesized], [4, false, false]);
      assert.deepEqual(transcript.problems, []);
    });

    it("keeps a prompt-too-long error the CLI recovered from by compacting as recoverable, and completes", async () => {
      const transcript = await transcriptOf(fixture("context-too-long-recovered.ndjson"));
      assert.deepEqual(transcript.blocks.slice(0, 3), [
        { kind: "error", code: "CONTEXT_LIMIT", message: "prompt is too long: 203822 tokens > 200000 maximum", recoverable: true },
        { kind: "status", status: "compacted", message: "Older parts of the conversation were compacted to fit the model's context (about 18,450 tokens freed)." },
        { kind: "text", text: 'The failing test expects `parse("")` to return `None`; it panics instead.' },
      ]);
      assert.equal(transcript.status, "completed");
      assert.deepEqual(transcript.problems, []);
    });

    it("shows a rate-limit backoff warning as a retry", async () => {
      const transcript = await transcriptOf(fixture("rate-limit-warning.ndjson"));
      assert.deepEqual(transcript.blocks.slice(0, 2), [
        { kind: "status", status: "retrying", message: "Rate limited (attempt 1/5), waiting 1000ms" },
        { kind: "text", text: "All 42 tests pass." },
      ]);
      assert.equal(transcript.status, "completed");
    });

    it("ends as failed when a stream error cut the answer short, though agent-code says exit code 0", async () => {
      const transcript = await transcriptOf(fixture("exit-0-after-stream-error.ndjson"));
      assert.deepEqual(transcript.blocks, [
        { kind: "text", text: "Let me look at the" },
        { kind: "status", status: "usage", message: "992 tokens · $0.0031" },
        { kind: "error", code: "NETWORK_TIMEOUT", message: "network: error decoding response body", recoverable: false },
      ]);
      assert.equal(transcript.status, "failed");
      assert.deepEqual([transcript.done.exitCode, transcript.done.success, transcript.done.synthesized], [0, false, false]);
    });

    it("shows the CLI's own words for exit code 4, not the code's meaning as well", async () => {
      const transcript = await transcriptOf(fixture("exit-code-4-llm-error.ndjson"));
      assert.deepEqual(errors(transcript.blocks), [{ kind: "error", code: "NETWORK_TIMEOUT", message: "Server overloaded, giving up", recoverable: false }]);
      assert.equal(transcript.done.exitCode, 4);
      assert.equal(transcript.status, "failed");
    });

    const exitCodeFixtures: [string, number, string][] = [
      ["exit-code-3-tool-failure.ndjson", 3, "agent-code stopped: a tool failed (exit code 3)."],
      ["exit-code-5-cost-limit.ndjson", 5, "agent-code stopped: the run reached its cost limit (exit code 5)."],
      ["exit-code-6-turn-limit.ndjson", 6, "agent-code stopped: the run reached its turn limit (exit code 6)."],
      ["exit-code-7-permission-denied.ndjson", 7, "agent-code stopped: a tool was refused by its permission rules (exit code 7)."],
    ];
    for (const [file, exitCode, message] of exitCodeFixtures) {
      it(`says what exit code ${exitCode} means when the stream gave no error (${file})`, async () => {
        const transcript = await transcriptOf(fixture(file));
        assert.deepEqual(transcript.blocks.at(-1), { kind: "error", code: "UNKNOWN", message, recoverable: false });
        assert.deepEqual([transcript.done.exitCode, transcript.done.success, transcript.status], [exitCode, false, "failed"]);
        assert.deepEqual(transcript.problems, []);
      });
    }

    it("shows the tool that failed and the warnings before a run that stopped at a limit", async () => {
      assert.deepEqual(tools((await transcriptOf(fixture("exit-code-3-tool-failure.ndjson"))).blocks)[0].error, 'error: could not compile `demo` (bin "demo") due to 2 previous errors');
      const costLimited = await transcriptOf(fixture("exit-code-5-cost-limit.ndjson"));
      assert.deepEqual(costLimited.blocks[1], { kind: "status", status: "warning", message: "Budget approaching: $0.95 of $1.00 spent" });
      const turnLimited = await transcriptOf(fixture("exit-code-6-turn-limit.ndjson"));
      assert.deepEqual(turnLimited.blocks[2], { kind: "status", status: "warning", message: "Agent stopped after 2 turns" });
    });

    it("reports each bad line by the field that is wrong, and shows what the good lines say", async () => {
      const transcript = await transcriptOf(fixture("bad-lines.ndjson"));
      assert.deepEqual(
        transcript.problems.map((p) => `${p.line} ${p.code} ${p.message}`),
        [
          "2 MALFORMED_EVENT expected a JSON object, got array",
          "3 MALFORMED_EVENT type: expected string, got number",
          "4 MALFORMED_EVENT text_delta: content: expected string, got number",
          "5 MALFORMED_EVENT tool_call: tool: missing, expected string",
          "6 MALFORMED_EVENT tool_call: input: expected object, got string; the tool is shown without parameters",
          "7 MALFORMED_EVENT tool_result: is_error: missing, expected boolean",
          "9 MALFORMED_EVENT turn_complete: input_tokens: expected non-negative number, got string",
          "13 MALFORMED_EVENT session_end: exit_code: expected integer from 0 to 255, got string",
        ],
      );
      assert.deepEqual(
        transcript.blocks.map((b) => (b.kind === "tool" ? `${b.tool} ${b.status} ${JSON.stringify(b.parameters)}` : b.kind === "text" ? b.text : b.kind)),
        ["Bash succeeded null", "Still here.", "status"],
      );
      assert.equal(transcript.status, "completed");
    });
  });

  describe("how the process ended", () => {
    it("says what exit code 1 means when agent-code failed before writing any JSON", () => {
      const transcript = transcriptOfRun("", 1, "Error: no API key configured\n");
      assert.deepEqual(transcript.blocks, [
        { kind: "error", code: "UNKNOWN", message: "agent-code stopped: its configuration is missing or invalid (exit code 1). What it printed on stderr says why.", recoverable: false },
      ]);
      assert.deepEqual([transcript.done.exitCode, transcript.done.synthesized, transcript.status], [1, false, "failed"]);
      assert.deepEqual(transcript.problems, [], "the adapter starts the session itself: no start was missing");
    });

    it("says what exit code 2 means (the arguments it was given) for a real process that printed only to stderr, and shows that stderr", async () => {
      const transcript = await transcriptOfProcess("-", 2, "error: unexpected argument '--frobnicate' found\n");
      assert.deepEqual(errors(transcript.blocks), [
        {
          kind: "error",
          code: "UNKNOWN",
          message:
            "agent-code stopped: it did not accept its input (exit code 2). What it printed on stderr says why.\nLast lines of stderr:\nerror: unexpected argument '--frobnicate' found",
          recoverable: false,
        },
      ]);
      assert.equal(transcript.done.exitCode, 2);
      assert.equal(transcript.status, "failed");
    });

    it("leaves a crash with an undocumented exit code to the session, which shows the CLI's stderr", async () => {
      const partial = path.join(os.tmpdir(), `agent-code-partial-${process.pid}.ndjson`);
      fs.writeFileSync(partial, lines(sessionStart, text("Reading the")));
      try {
        const transcript = await transcriptOfProcess(partial, 101, "thread 'main' panicked at crates/cli/src/main.rs:12:5:\nindex out of bounds\n");
        const [crash] = errors(transcript.blocks);
        assert.equal(crash.kind === "error" && crash.code, "PROCESS_CRASHED");
        assert.match(crash.kind === "error" ? crash.message : "", /exited with code 101[\s\S]*thread 'main' panicked[\s\S]*index out of bounds/);
        assert.deepEqual([transcript.done.exitCode, transcript.done.synthesized], [101, true]);
      } finally {
        fs.rmSync(partial, { force: true });
      }
    });

    it("ends as failed when agent-code exits 0 after an error without a session_end", () => {
      const transcript = transcriptOfRun(lines(sessionStart, text("Half an"), error("network: connection reset by peer")), 0);
      assert.deepEqual(transcript.blocks.at(-1), { kind: "error", code: "NETWORK_TIMEOUT", message: "network: connection reset by peer", recoverable: false });
      assert.deepEqual([transcript.done.exitCode, transcript.done.success, transcript.done.synthesized], [0, false, false]);
    });

    it("ends with the process's documented exit code after an error, showing the error once", () => {
      const transcript = transcriptOfRun(lines(sessionStart, error("Rate limited 5 times, giving up")), 4);
      assert.deepEqual(errors(transcript.blocks), [{ kind: "error", code: "NETWORK_TIMEOUT", message: "Rate limited 5 times, giving up", recoverable: false }]);
      assert.equal(transcript.done.exitCode, 4);
    });

    it("leaves a clean exit without a session_end to the session, which says the stream stopped short", () => {
      const transcript = transcriptOfRun(lines(sessionStart, text("All good so far")), 0);
      assert.equal(errors(transcript.blocks)[0].kind === "error" && errors(transcript.blocks)[0].code, "PROCESS_CRASHED");
      assert.deepEqual([transcript.done.synthesized, transcript.status], [true, "failed"]);
    });

    it("shows a recording's last error as fatal and leaves the missing session_end to the session", async () => {
      const transcript = await transcriptOf(lines(sessionStart, error("server overloaded")));
      assert.deepEqual(transcript.blocks, [{ kind: "error", code: "NETWORK_TIMEOUT", message: "server overloaded", recoverable: false }]);
      assert.deepEqual(transcript.problems.map((p) => p.code), ["MISSING_DONE"]);
    });

    it("adds nothing once session_end was seen", () => {
      const { events } = decodeAll([sessionStart, sessionEnd(0)], { exitCode: 3, signal: null });
      assert.deepEqual(events.map((e) => e.type), ["start", "status", "done"]);
    });
  });

  describe("errors", () => {
    it("keeps an error the CLI went on from as recoverable", async () => {
      const transcript = await transcriptOf(lines(sessionStart, text("Partial"), error("max_tokens reached"), text(" and the rest.", 2), turnComplete(), sessionEnd(0)));
      assert.deepEqual(errors(transcript.blocks), [{ kind: "error", code: "UNKNOWN", message: "max_tokens reached", recoverable: true }]);
      assert.equal(transcript.status, "completed");
    });

    it("makes only the last of two errors in a row the fatal one", async () => {
      const transcript = await transcriptOf(lines(sessionStart, error("Context too large and compaction failed"), error("Server overloaded, giving up"), sessionEnd(4)));
      assert.deepEqual(
        errors(transcript.blocks).map((b) => (b.kind === "error" ? [b.code, b.recoverable] : [])),
        [
          ["CONTEXT_LIMIT", true],
          ["NETWORK_TIMEOUT", false],
        ],
      );
      assert.deepEqual(transcript.problems, []);
    });

    it("says what an exit code means when session_end gives one without an error", async () => {
      const transcript = await transcriptOf(lines(sessionStart, sessionEnd(4, { total_cost_usd: 0 })));
      assert.deepEqual(transcript.blocks, [{ kind: "error", code: "UNKNOWN", message: "agent-code stopped: the model call failed (exit code 4).", recoverable: false }]);
    });

    it("gives an undocumented exit code in session_end as it is", async () => {
      const transcript = await transcriptOf(lines(sessionStart, sessionEnd(9, { total_cost_usd: 0 })));
      assert.deepEqual(errors(transcript.blocks), [{ kind: "error", code: "UNKNOWN", message: "agent-code ended the run with exit code 9.", recoverable: false }]);
      assert.equal(transcript.done.exitCode, 9);
    });

    describe("what a user sees of each error", () => {
      const table: [string, string][] = [
        ['auth: {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}', "AUTH_EXPIRED"],
        ['auth: {"error":{"message":"Incorrect API key provided: sk-***","code":"invalid_api_key"}}', "AUTH_EXPIRED"],
        ["auth: ", "AUTH_EXPIRED"],
        ["auth: 403 Forbidden", "AUTH_EXPIRED"],
        ["Rate limited 5 times, giving up", "NETWORK_TIMEOUT"],
        ["rate limited (retry in 1000ms)", "NETWORK_TIMEOUT"],
        ["Server overloaded, giving up", "NETWORK_TIMEOUT"],
        ["network: error sending request for url (http://127.0.0.1:4096/v1/messages)", "NETWORK_TIMEOUT"],
        ["network: 500 Internal Server Error: {}", "NETWORK_TIMEOUT"],
        ["prompt is too long: 203822 tokens > 200000 maximum", "CONTEXT_LIMIT"],
        ["Context too large and compaction failed", "CONTEXT_LIMIT"],
        ['request too large: {"type":"error","error":{"type":"request_too_large"}}', "CONTEXT_LIMIT"],
        ["network: 400 Bad Request: This model's maximum context length is 128000 tokens", "CONTEXT_LIMIT"],
        ["invalid response: missing field `choices`", "UNKNOWN"],
      ];
      for (const [message, code] of table) {
        it(`${code} for ${JSON.stringify(message.slice(0, 60))}`, async () => {
          const transcript = await transcriptOf(lines(sessionStart, error(message), sessionEnd(4, { total_cost_usd: 0 })));
          assert.deepEqual(transcript.blocks, [{ kind: "error", code, message, recoverable: false }]);
          assert.equal(transcript.status, "failed");
        });
      }
    });
  });

  describe("usage", () => {
    it("adds up the tokens of every turn_complete and takes the cost from session_end", async () => {
      const transcript = await transcriptOf(
        lines(sessionStart, turnComplete({ input_tokens: 1000, output_tokens: 200 }), turnComplete({ turn: 2, input_tokens: 3000, output_tokens: 34 }), sessionEnd(0, { total_cost_usd: 0.25 })),
      );
      assert.equal(transcript.done.tokensUsed, 4234);
      assert.deepEqual(transcript.blocks, [{ kind: "status", status: "usage", message: "4,234 tokens · $0.2500" }]);
    });

    it("adds up the turns' costs when session_end gives no total", async () => {
      const transcript = await transcriptOf(lines(sessionStart, turnComplete({ cost_usd: 0.01 }), turnComplete({ cost_usd: 0.02 }), { type: "session_end", turns: 2, exit_code: 0 }));
      assert.deepEqual(transcript.blocks, [{ kind: "status", status: "usage", message: "240 tokens · $0.0300" }]);
    });

    it("shows no usage for a run that spent nothing", async () => {
      const transcript = await transcriptOf(lines(sessionStart, text("Hi."), sessionEnd(0, { total_cost_usd: 0 })));
      assert.deepEqual(kinds(transcript.blocks), ["text"]);
      assert.equal(transcript.done.tokensUsed, null);
    });
  });

  describe("malformed values", () => {
    const table: [string, unknown, string][] = [
      ["a string", "hello", "expected a JSON object, got string"],
      ["null", null, "expected a JSON object, got null"],
      ["no type", { content: "hi" }, "type: missing, expected string"],
      ["session_start without a session id", { type: "session_start", model: "m" }, "session_start: session_id: missing, expected string"],
      ["session_start with a numeric model", { ...sessionStart, model: 4 }, "session_start: model: expected string, got number"],
      ["thinking without content", { type: "thinking", turn: 1 }, "thinking: content: missing, expected string"],
      ["tool_result with a string is_error", { ...toolResult("Bash", "x", false), is_error: "false" }, "tool_result: is_error: expected boolean, got string"],
      ["tool_result with object output", { ...toolResult("Bash", "x", true), output: { text: "x" } }, "tool_result: output: expected string, got object"],
      ["turn_complete with a negative cost", turnComplete({ cost_usd: -1 }), "turn_complete: cost_usd: expected non-negative number, got number"],
      ["error without a message", { type: "error", turn: 1 }, "error: message: missing, expected string"],
      ["warning with a numeric message", { type: "warning", message: 5, turn: 1 }, "warning: message: expected string, got number"],
      ["compact with text freed_tokens", { type: "compact", freed_tokens: "lots", turn: 1 }, "compact: freed_tokens: expected non-negative number, got string"],
      ["session_end without an exit code", { type: "session_end", turns: 1, total_cost_usd: 0 }, "session_end: exit_code: missing, expected integer from 0 to 255"],
      ["session_end with a text cost", sessionEnd(0, { total_cost_usd: "0.01" }), "session_end: total_cost_usd: expected non-negative number, got string"],
    ];
    for (const [what, value, message] of table) {
      it(`names the field: ${what}`, () => {
        const { problems } = decodeAll([value]);
        assert.deepEqual(problems, [`MALFORMED_EVENT ${message}`]);
      });
    }

    it("skips silently what carries nothing for the user", () => {
      const { events, problems } = decodeAll([sessionStart, { type: "turn_start", turn: 1 }, { type: "heartbeat" }, { type: "context_usage", used: 5, max: 10 }, text("")]);
      assert.deepEqual(events.map((e) => e.type), ["start"]);
      assert.deepEqual(problems, []);
    });

    it("starts the session with the CLI's session id and model", () => {
      const { events } = decodeAll([sessionStart, sessionStart]);
      assert.deepEqual(
        events.map((e) => [e.type, e.sessionId, e.payload]),
        [["start", SID, { command: "exec", model: "claude-sonnet-4-5" }]],
      );
    });

    it("shows a tool call without input as a card without parameters", async () => {
      const transcript = await transcriptOf(lines(sessionStart, toolCall("TodoRead", null), toolResult("TodoRead", "[]", false), sessionEnd(0)));
      assert.deepEqual(
        tools(transcript.blocks).map((c) => [c.tool, c.parameters, c.status]),
        [["TodoRead", null, "succeeded"]],
      );
      assert.deepEqual(transcript.problems, []);
    });
  });

  describe("recognising the stream", () => {
    it("claims the first line of every agent-code fixture", () => {
      for (const file of ndjsonFiles(FIXTURES).filter(isAgentCodeFixture)) {
        const first = JSON.parse(fs.readFileSync(file, "utf8").split("\n")[0]) as Record<string, unknown>;
        assert.equal(agentCodeDialect.recognizes(first), true, path.relative(FIXTURES, file));
      }
    });

    it("claims the lines it shares a name with by their turn number", () => {
      assert.equal(agentCodeDialect.recognizes(text("hi")), true);
      assert.equal(agentCodeDialect.recognizes(error("auth: ")), true);
      assert.equal(agentCodeDialect.recognizes({ type: "text_delta", content: "hi" }), false);
      assert.equal(agentCodeDialect.recognizes({ type: "turn_start" }), false, "pi's turn_start has no number");
    });

    it("claims no line of the other dialects' fixtures", () => {
      assertClaimsNone(
        ndjsonFiles(FIXTURES).filter((f) => !isAgentCodeFixture(f)),
        agentCodeDialect,
      );
    });

  });
});

/** The hand-written fixtures and any recordings (folders named agent-code…). */
function isAgentCodeFixture(file: string): boolean {
  return inFolders(file, "agent-code");
}
