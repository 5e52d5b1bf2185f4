import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { StreamEnding } from "../../../src/dialects/dialect";
import { LocusFlatAdapter, locusFlatDialect } from "../../../src/dialects/locus-flat-adapter";
import type { EventOfType } from "../../../src/protocol/events";
import type { Transcript } from "../../../src/protocol/transcript";
import { LiveSession } from "../../../src/session/live-session";
import { Session } from "../../../src/session/session";
import { createSessionFeed } from "../../../src/session/session-feed";
import { EventDecoder } from "../../../src/stream/event-decoder";
import { awaitsItsDialect, fakeCli } from "../../helpers/repo";
import * as harness from "../../helpers/dialect-harness";
import { FIXTURES, assertClaimsNone, errors, inFolders, lines, ndjsonFiles, tools } from "../../helpers/dialect-harness";

const SID = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

function fixturePath(name: string): string {
  return path.join(FIXTURES, "locus-flat", name);
}

const fixture = (name: string) => harness.fixture("locus-flat", name);
const transcriptOf = (ndjson: string): Promise<Transcript> => harness.transcriptOf(ndjson, new LocusFlatAdapter());

/** The stream as a process that ended with `exitCode` would give it, without running one. */
function transcriptOfRun(ndjson: string, exitCode: number): Transcript {
  const session = new Session({ dialect: "locus-flat" });
  const feed = createSessionFeed(session, new EventDecoder(new LocusFlatAdapter()));
  session.begin();
  feed.push(Buffer.from(ndjson));
  feed.end({ exitCode, signal: null });
  session.processEnded({ reason: "exited", exitCode, signal: null, stderrTail: "" });
  return session.toTranscript();
}

/** A real process: the fake CLI prints the file (nothing for "-"), then `stderr`, and exits with `exitCode`. */
async function transcriptOfProcess(file: string, exitCode: number, stderr?: string): Promise<Transcript> {
  const live = LiveSession.start({
    adapter: new LocusFlatAdapter(),
    process: { command: fakeCli("print-and-exit.js"), args: [file, String(exitCode), ...(stderr === undefined ? [] : [stderr])], cwd: os.tmpdir() },
  });
  return live.finished;
}

/** What the adapter says about values, without a session in between. */
const decodeAll = (values: unknown[], ending?: StreamEnding | null) => harness.decodeAll(new LocusFlatAdapter(() => 1_000), values, ending);

function doneOf(values: unknown[]): EventOfType<"done">["payload"] {
  const done = decodeAll(values).events.find((e): e is EventOfType<"done"> => e.type === "done");
  assert.ok(done, "a done was made");
  return done.payload;
}


// Lines as the later Locus releases write them, for the tests that build their own streams.
const start = { type: "start", sessionId: SID, command: "exec", model: "claude-sonnet-4-5-20250929", timestamp: "2026-05-02T09:14:03.120Z" };
const text = (content: string) => ({ type: "text_delta", content });
const error = (message: string, fields: object = {}) => ({ type: "error", message, ...fields });
const done = (fields: object = {}) => ({ type: "done", sessionId: SID, stats: { duration: 1000 }, ...fields });

describe("the locus-flat dialect", () => {
  describe("fixtures", () => {
    it("shows a plain answer with emoji, CJK and a code block intact, with the figures of its done", async () => {
      const transcript = await transcriptOf(fixture("plain-answer.ndjson"));
      assert.equal(transcript.status, "completed");
      assert.equal(transcript.sessionId, SID);
      assert.deepEqual(transcript.blocks, [
        { kind: "status", status: "streaming", message: "Streaming AI response" },
        { kind: "text", text: 'Here is a greeting in three languages 👋:\n\n- English: Hello\n- 日本語: こんにちは\n- 中文: 你好\n\n```ts\nconsole.log("héllo, 世界");\n```\nDone ✅' },
      ]);
      assert.deepEqual([transcript.done.durationMs, transcript.done.tokensUsed, transcript.done.exitCode, transcript.done.success], [2140, 1873, 0, true]);
      assert.deepEqual(transcript.problems, []);
    });

    it("shows thinking before the answer, and counts tokens given as input and output", async () => {
      const transcript = await transcriptOf(fixture("thinking.ndjson"));
      assert.deepEqual(transcript.blocks, [
        { kind: "status", status: "thinking", message: null },
        { kind: "thinking", text: "The user asks for 17 × 23. 17 × 20 = 340 and 17 × 3 = 51, so 391." },
        { kind: "text", text: "17 × 23 = **391**." },
      ]);
      assert.equal(transcript.done.tokensUsed, 876);
      assert.deepEqual(transcript.problems, []);
    });

    it("shows tool cards with their parameters, the CLI's duration, and a failed tool's error", async () => {
      const transcript = await transcriptOf(fixture("tool-use-failing-tool.ndjson"));
      const failed = tools(transcript.blocks).find((card) => card.toolId === "toolu_def456");
      const measured = failed?.durationMs ?? null;
      assert.ok(measured !== null && Number.isInteger(measured) && measured >= 0, `a measured duration: ${String(measured)}`);
      assert.deepEqual(
        tools(transcript.blocks).map(({ tool, toolId, parameters, status, durationMs, error }) => ({ tool, toolId, parameters, status, durationMs, error })),
        [
          { tool: "Read", toolId: "toolu_abc123", parameters: { file_path: "/src/auth/middleware.ts" }, status: "succeeded", durationMs: 42, error: null },
          // The CLI gave this one no duration: ours is measured between its lines, so what it is depends on the clock.
          { tool: "Read", toolId: "toolu_def456", parameters: { file_path: "/src/auth/missing.ts" }, status: "failed", durationMs: measured, error: "File not found" },
        ],
      );
      assert.deepEqual(transcript.blocks.at(-1), { kind: "text", text: "The authentication flow works by checking the **session token** 🔐." });
      assert.deepEqual(transcript.done.toolsUsed, ["Read"]);
      assert.equal(transcript.status, "completed");
      assert.deepEqual(transcript.problems, []);
    });

    it("shows an auth error with the CLI's own code and ends with its done", async () => {
      const transcript = await transcriptOf(fixture("auth-error.ndjson"));
      assert.deepEqual(transcript.blocks, [{ kind: "error", code: "AUTH_EXPIRED", message: "Not logged in. Run `locus login` first.", recoverable: false }]);
      assert.deepEqual([transcript.done.exitCode, transcript.done.success, transcript.done.synthesized, transcript.status], [1, false, false, "failed"]);
      assert.deepEqual(transcript.problems, []);
    });

    it("keeps a retryable error recoverable and completes when the retry works", async () => {
      const transcript = await transcriptOf(fixture("retryable-error-then-success.ndjson"));
      assert.deepEqual(transcript.blocks.slice(1), [
        { kind: "error", code: "NETWORK_TIMEOUT", message: "Anthropic API overloaded (HTTP 529); retrying in 2s", recoverable: true },
        { kind: "status", status: "retrying", message: "Attempt 2 of 3" },
        { kind: "text", text: "The tests live in `test/unit/` and run with `npm test`." },
      ]);
      assert.equal(transcript.status, "completed");
      assert.deepEqual(transcript.problems, []);
    });

    it("ends a recording that stops at a fatal error without a done as failed, with nothing missing", async () => {
      const transcript = await transcriptOf(fixture("error-without-done.ndjson"));
      assert.deepEqual(transcript.blocks.slice(1), [
        { kind: "text", text: "The auth flow starts in " },
        { kind: "error", code: "NETWORK_TIMEOUT", message: "Request timed out after 30s", recoverable: false },
      ]);
      assert.deepEqual([transcript.done.exitCode, transcript.done.success, transcript.done.synthesized, transcript.status], [1, false, false, "failed"]);
      assert.deepEqual(transcript.problems, []);
    });

    it("reports each bad line by the field that is wrong, and shows what the good lines say", async () => {
      const transcript = await transcriptOf(fixture("bad-lines.ndjson"));
      assert.deepEqual(
        transcript.problems.map((p) => `${p.line} ${p.code} ${p.message}`),
        [
          "2 MALFORMED_EVENT expected a JSON object, got number",
          "3 MALFORMED_EVENT type: missing, expected string",
          "4 MALFORMED_EVENT text_delta: content: expected string, got null",
          "5 MALFORMED_EVENT tool_started: tool: missing, expected string",
          "6 MALFORMED_EVENT tool_started: parameters: expected object, got array",
          "7 MALFORMED_EVENT tool_completed: success: expected boolean, got string",
          "8 MALFORMED_EVENT status: state: missing, expected string",
          "9 MALFORMED_EVENT error: message: missing, expected string",
          "10 MALFORMED_EVENT error: retryable: expected boolean, got string",
          "13 MALFORMED_EVENT done: stats: expected object, got string; the run's figures are not shown",
        ],
      );
      assert.deepEqual(transcript.blocks, [{ kind: "text", text: "Still here." }]);
      assert.equal(transcript.status, "completed", "the done still ends the run");
    });
  });

  describe("what a tool printed and changed", () => {
    it("keeps a tool's output and diffs, protocol 1's fields flattened beside type", async () => {
      const diff = { path: "/src/notes.txt", oldText: "green\n", newText: "red\n" };
      const transcript = await transcriptOf(
        lines(
          { type: "start", sessionId: SID, timestamp: "2026-05-02T09:14:03.120Z" },
          { type: "tool_started", tool: "Edit", toolId: "t1", parameters: { file_path: "/src/notes.txt" } },
          { type: "tool_completed", tool: "Edit", toolId: "t1", success: true, output: "Edited.\n```\nnot a fence\n```", diffs: [diff] },
          { type: "done", sessionId: SID, stats: { duration: 10 } },
        ),
      );
      const [edit] = tools(transcript.blocks);
      assert.equal(edit?.output, "Edited.\n```\nnot a fence\n```");
      assert.deepEqual(edit?.diffs, [diff]);
      assert.deepEqual(transcript.problems, []);
    });

    it("reports diffs of another shape as a problem, naming the field", () => {
      const { problems } = decodeAll([{ type: "tool_completed", tool: "Edit", success: true, diffs: [{ path: "/a" }] }]);
      assert.deepEqual(problems, ["MALFORMED_EVENT tool_completed: diffs[0].oldText: missing, expected string"]);
    });
  });

  describe("how the process ended", () => {
    it("ends as failed when Locus reports a fatal error and exits 0 without a done", async () => {
      const transcript = await transcriptOfProcess(fixturePath("error-without-done.ndjson"), 0);
      assert.deepEqual(errors(transcript.blocks), [{ kind: "error", code: "NETWORK_TIMEOUT", message: "Request timed out after 30s", recoverable: false }]);
      assert.deepEqual([transcript.done.exitCode, transcript.done.success, transcript.done.synthesized, transcript.status], [0, false, false, "failed"]);
      assert.deepEqual(transcript.problems, []);
    });

    it("shows what Locus printed on stderr when it exits 1 before any JSON", async () => {
      const transcript = await transcriptOfProcess("-", 1, "locus: no project found in /tmp\nRun `locus init` first.\n");
      assert.equal(transcript.blocks.length, 1);
      const [crash] = transcript.blocks;
      assert.equal(crash.kind === "error" && crash.code, "PROCESS_CRASHED");
      assert.match(crash.kind === "error" ? crash.message : "", /exited with code 1[\s\S]*locus: no project found in \/tmp\nRun `locus init` first\./);
      assert.deepEqual([transcript.done.exitCode, transcript.status], [1, "failed"]);
    });

    it("ends with the exit code the process gave after a fatal error", () => {
      const transcript = transcriptOfRun(lines(start, error("Invalid API key", { retryable: false })), 2);
      assert.deepEqual([transcript.done.exitCode, transcript.done.synthesized], [2, false]);
      assert.deepEqual(errors(transcript.blocks), [{ kind: "error", code: "AUTH_EXPIRED", message: "Invalid API key", recoverable: false }]);
    });

    it("leaves a clean exit with neither error nor done to the session, which says the stream stopped short", () => {
      const transcript = transcriptOfRun(lines(start, text("All good so far")), 0);
      assert.equal(errors(transcript.blocks)[0].kind === "error" && errors(transcript.blocks)[0].code, "PROCESS_CRASHED");
      assert.deepEqual([transcript.done.synthesized, transcript.status], [true, "failed"]);
    });

    it("does not end the run for Locus after an error it said it would retry", () => {
      const { events } = decodeAll([start, error("overloaded", { retryable: true })], { exitCode: 0, signal: null });
      assert.deepEqual(events.map((e) => e.type), ["start", "error"]);
    });

    it("adds nothing once a done was seen", () => {
      const { events } = decodeAll([start, error("boom"), done()], { exitCode: 1, signal: null });
      assert.deepEqual(events.map((e) => e.type), ["start", "error", "done"]);
    });
  });

  describe("errors", () => {
    const table: [string, object, string][] = [
      ["Not logged in", { code: "AUTH_EXPIRED" }, "AUTH_EXPIRED"],
      ["Request timed out after 30s", { code: "CONTEXT_LIMIT" }, "CONTEXT_LIMIT"],
      ["Request timed out after 30s", { code: "TIMEOUT" }, "NETWORK_TIMEOUT"],
      ["Request failed", { code: "RATE_LIMIT" }, "NETWORK_TIMEOUT"],
      ["Request failed", { code: "BOGUS" }, "UNKNOWN"],
      ["401 Unauthorized: invalid x-api-key", {}, "AUTH_EXPIRED"],
      ["Your OAuth token has expired. Please run locus login again", {}, "AUTH_EXPIRED"],
      ["prompt is too long: 210000 tokens > 200000 maximum", {}, "CONTEXT_LIMIT"],
      ["fetch failed", {}, "NETWORK_TIMEOUT"],
      ["No conversation found with session ID: abc", {}, "SESSION_NOT_FOUND"],
      ["Something odd happened", {}, "UNKNOWN"],
    ];
    for (const [message, fields, code] of table) {
      it(`${code} for ${JSON.stringify(message)}${"code" in fields ? ` with code ${JSON.stringify(fields.code)}` : ""}`, async () => {
        const transcript = await transcriptOf(lines(start, error(message, fields), done()));
        assert.deepEqual(transcript.blocks, [{ kind: "error", code, message, recoverable: false }]);
        assert.equal(transcript.status, "failed");
      });
    }

    it("treats an error that does not say it is retryable as fatal", async () => {
      const transcript = await transcriptOf(lines(start, error("Something odd happened"), done()));
      assert.deepEqual(errors(transcript.blocks), [{ kind: "error", code: "UNKNOWN", message: "Something odd happened", recoverable: false }]);
      assert.equal(transcript.status, "failed");
    });

    it("ends as failed when a done says success after a fatal error", async () => {
      const transcript = await transcriptOf(lines(start, error("Request timed out after 30s"), done({ success: true, exitCode: 0 })));
      assert.deepEqual([transcript.status, transcript.done.exitCode, transcript.done.success], ["failed", 0, false]);
    });
  });

  describe("the figures of done", () => {
    it("takes a breakdown's total as its tokens", () => {
      assert.equal(doneOf([done({ stats: { tokens: { input: 100, output: 20, total: 125 } } })]).tokensUsed, 125);
    });

    it("reads tools given as records, once each", () => {
      assert.deepEqual(doneOf([done({ stats: { tools: [{ name: "Read" }, { tool: "Bash" }, "Read", 7] } })]).toolsUsed, ["Read", "Bash"]);
    });

    it("reads a duration named durationMs and an exit code beside stats", () => {
      const payload = doneOf([done({ exitCode: 3, stats: { durationMs: 321 } })]);
      assert.deepEqual([payload.duration, payload.exitCode, payload.success], [321, 3, false]);
    });

    it("measures the duration itself and leaves out what a done without stats does not say", () => {
      assert.deepEqual(doneOf([{ type: "done", sessionId: SID }]), { exitCode: 0, duration: 0, success: true });
    });

    it("ignores a tool count and tokens it cannot read", () => {
      const payload = doneOf([done({ stats: { tools: 3, tokens: "many", duration: -5 } })]);
      assert.deepEqual([payload.toolsUsed, payload.tokensUsed, payload.duration], [undefined, undefined, 0]);
    });

    it("takes the session id from done when start gave none", () => {
      const { events } = decodeAll([{ type: "start", timestamp: "2026-05-02T09:14:03.120Z" }, done()]);
      assert.deepEqual(events.map((e) => e.sessionId), ["", SID]);
    });
  });

  describe("malformed values", () => {
    const table: [string, unknown, string][] = [
      ["an array", [1], "expected a JSON object, got array"],
      ["null", null, "expected a JSON object, got null"],
      ["a numeric type", { type: 1 }, "type: expected string, got number"],
      ["start with a numeric session id", { ...start, sessionId: 9 }, "start: sessionId: expected string, got number"],
      ["start with an object model", { ...start, model: {} }, "start: model: expected string, got object"],
      ["thinking without content", { type: "thinking" }, "thinking: content: missing, expected string"],
      ["tool_started with a numeric toolId", { type: "tool_started", tool: "Read", toolId: 1 }, "tool_started: toolId: expected string, got number"],
      ["tool_completed without success", { type: "tool_completed", tool: "Read" }, "tool_completed: success: missing, expected boolean"],
      ["tool_completed with a text duration", { type: "tool_completed", tool: "Read", success: true, duration: "42ms" }, "tool_completed: duration: expected non-negative number, got string"],
      ["tool_completed with an object error", { type: "tool_completed", tool: "Read", success: false, error: { message: "x" } }, "tool_completed: error: expected string, got object"],
      ["status with a numeric message", { type: "status", state: "streaming", message: 3 }, "status: message: expected string, got number"],
      ["error with a numeric code", { type: "error", message: "x", code: 401 }, "error: code: expected string, got number"],
      ["done with a numeric session id", { type: "done", sessionId: 5 }, "done: sessionId: expected string, got number"],
    ];
    for (const [what, value, message] of table) {
      it(`names the field: ${what}`, () => {
        const { problems } = decodeAll([value]);
        assert.deepEqual(problems, [`MALFORMED_EVENT ${message}`]);
      });
    }

    it("skips silently what carries nothing for the user", () => {
      const { events, problems } = decodeAll([start, { type: "heartbeat" }, { type: "usage", tokens: 5 }, text("")]);
      assert.deepEqual(events.map((e) => e.type), ["start"]);
      assert.deepEqual(problems, []);
    });

    it("starts the session with the CLI's session id, model, provider and folder", () => {
      const { events } = decodeAll([{ ...start, provider: "anthropic", cwd: "/home/user/project" }]);
      assert.deepEqual(
        events.map((e) => [e.type, e.sessionId, e.payload]),
        [["start", SID, { command: "exec", model: "claude-sonnet-4-5-20250929", provider: "anthropic", cwd: "/home/user/project" }]],
      );
    });
  });

  describe("recognising the stream", () => {
    it("claims the first line of every locus-flat fixture", () => {
      for (const file of ndjsonFiles(FIXTURES).filter(isLocusFlatFixture)) {
        const first = JSON.parse(fs.readFileSync(file, "utf8").split("\n")[0]) as Record<string, unknown>;
        assert.equal(locusFlatDialect.recognizes(first), true, path.relative(FIXTURES, file));
      }
    });

    it("claims its later lines too, but not protocol 1's", () => {
      assert.equal(locusFlatDialect.recognizes(text("hi")), true);
      assert.equal(locusFlatDialect.recognizes(error("x", { retryable: true })), true);
      assert.equal(locusFlatDialect.recognizes(done()), true);
      assert.equal(locusFlatDialect.recognizes({ protocol: 1, type: "text_delta", sessionId: SID, timestamp: 1, payload: { content: "hi" } }), false);
      assert.equal(locusFlatDialect.recognizes({ type: "text_delta", content: "hi", turn: 1 }), false, "agent-code's line");
    });

    it("claims no line of the other dialects' fixtures", () => {
      const others = ndjsonFiles(FIXTURES).filter((f) => !isLocusFlatFixture(f) && !awaitsItsDialect(f));
      assert.ok(others.some((f) => path.relative(FIXTURES, f).startsWith(`locus${path.sep}`)), "protocol-1 Locus fixtures are among them");
      assertClaimsNone(others, locusFlatDialect);
    });

  });
});

/** The hand-written fixtures and any recordings (folders named locus-flat…). */
function isLocusFlatFixture(file: string): boolean {
  return inFolders(file, "locus-flat");
}
