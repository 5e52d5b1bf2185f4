import { strict as assert } from "node:assert";
import { LocusAdapter } from "../../../src/dialects/locus-adapter";
import { PROTOCOL_ERROR_CODES } from "../../../src/protocol/events";
import type { Problem } from "../../../src/protocol/transcript";
import { EventDecoder } from "../../../src/stream/event-decoder";
import { MAX_JSON_DEPTH, formatBytes } from "../../../src/stream/json-line";
import type { CliStreamEvent } from "../../../src/protocol/events";
import { JsonLineReader } from "../../../src/stream/json-line-reader";
import { SESSION_ID, T0, start, textDelta } from "../../helpers/stream-builder";

/** The examples of ../shared/protocols/locus-json-stream.md, verbatim: they carry only `type` and `payload`. */
const PROTOCOL_EXAMPLES: readonly { readonly name: string; readonly json: string }[] = [
  {
    name: "start",
    json: `{"type": "start", "payload": {"command": "exec", "model": "claude-sonnet-4-5-20250929", "provider": "anthropic", "cwd": "/home/user/project"}}`,
  },
  { name: "text_delta", json: `{"type": "text_delta", "payload": {"content": "The authentication flow works by..."}}` },
  { name: "thinking", json: `{"type": "thinking", "payload": {"content": "Let me analyze the auth middleware..."}}` },
  {
    name: "tool_started",
    json: `{"type": "tool_started", "payload": {"tool": "Read", "toolId": "toolu_abc123", "parameters": {"file_path": "/src/auth/middleware.ts"}}}`,
  },
  {
    name: "tool_completed (success)",
    json: `{"type": "tool_completed", "payload": {"tool": "Read", "toolId": "toolu_abc123", "success": true, "duration": 42}}`,
  },
  {
    name: "tool_completed (failure)",
    json: `{"type": "tool_completed", "payload": {"tool": "Read", "toolId": "toolu_abc123", "success": false, "error": "File not found"}}`,
  },
  { name: "status", json: `{"type": "status", "payload": {"status": "streaming", "message": "Streaming AI response"}}` },
  {
    name: "error",
    json: `{"type": "error", "payload": {"error": {"code": "NETWORK_TIMEOUT", "message": "Request timed out after 30s", "recoverable": false}}}`,
  },
  {
    name: "done",
    json: `{"type": "done", "payload": {"exitCode": 0, "duration": 12345, "toolsUsed": ["Read", "Grep", "Edit"], "success": true}}`,
  },
];

/** Payloads that set every field protocol 1 defines, optional ones too. */
const FULL_PAYLOADS: Readonly<Record<string, Record<string, unknown>>> = {
  start: { command: "exec", model: "m", provider: "p", cwd: "/" },
  text_delta: { content: "hi" },
  thinking: { content: "hmm" },
  tool_started: { tool: "Read", toolId: "t1", parameters: { file_path: "/a" } },
  tool_completed: { tool: "Read", toolId: "t1", success: false, duration: 4, error: "nope" },
  status: { status: "streaming", message: "m" },
  error: { error: { code: "UNKNOWN", message: "m", recoverable: true } },
  done: { exitCode: 0, duration: 1, toolsUsed: ["Read"], tokensUsed: 10, success: true },
};

const CODES = PROTOCOL_ERROR_CODES.map((code) => JSON.stringify(code)).join(" | ");

/** Each payload field given a value of the wrong type, and the message that must name it. */
const WRONG_TYPES: readonly { type: string; path: string[]; value: unknown; message: string }[] = [
  { type: "start", path: ["command"], value: 42, message: "payload.command: expected string, got number" },
  { type: "start", path: ["model"], value: true, message: "payload.model: expected string, got boolean" },
  { type: "start", path: ["provider"], value: null, message: "payload.provider: expected string, got null" },
  { type: "start", path: ["cwd"], value: ["/"], message: "payload.cwd: expected string, got array" },
  { type: "text_delta", path: ["content"], value: 42, message: "payload.content: expected string, got number" },
  { type: "thinking", path: ["content"], value: { text: "x" }, message: "payload.content: expected string, got object" },
  { type: "tool_started", path: ["tool"], value: 1, message: "payload.tool: expected string, got number" },
  { type: "tool_started", path: ["toolId"], value: 7, message: "payload.toolId: expected string, got number" },
  { type: "tool_started", path: ["parameters"], value: "a=1", message: "payload.parameters: expected object, got string" },
  { type: "tool_completed", path: ["tool"], value: false, message: "payload.tool: expected string, got boolean" },
  { type: "tool_completed", path: ["toolId"], value: null, message: "payload.toolId: expected string, got null" },
  { type: "tool_completed", path: ["success"], value: "true", message: "payload.success: expected boolean, got string" },
  { type: "tool_completed", path: ["duration"], value: "42ms", message: "payload.duration: expected number, got string" },
  { type: "tool_completed", path: ["error"], value: { message: "x" }, message: "payload.error: expected string, got object" },
  { type: "status", path: ["status"], value: 3, message: "payload.status: expected string, got number" },
  { type: "status", path: ["message"], value: 3, message: "payload.message: expected string, got number" },
  { type: "error", path: ["error"], value: "boom", message: "payload.error: expected object, got string" },
  { type: "error", path: ["error", "code"], value: 500, message: `payload.error.code: expected ${CODES}, got 500` },
  { type: "error", path: ["error", "message"], value: 1, message: "payload.error.message: expected string, got number" },
  { type: "error", path: ["error", "recoverable"], value: "no", message: "payload.error.recoverable: expected boolean, got string" },
  { type: "done", path: ["exitCode"], value: "0", message: "payload.exitCode: expected number, got string" },
  { type: "done", path: ["duration"], value: null, message: "payload.duration: expected number, got null" },
  { type: "done", path: ["toolsUsed"], value: "Read", message: "payload.toolsUsed: expected array, got string" },
  { type: "done", path: ["tokensUsed"], value: "10", message: "payload.tokensUsed: expected number, got string" },
  { type: "done", path: ["success"], value: 1, message: "payload.success: expected boolean, got number" },
];

function envelope(type: string, payload: unknown): Record<string, unknown> {
  return { protocol: 1, type, sessionId: SESSION_ID, timestamp: T0, payload };
}

function withField(value: Record<string, unknown>, path: readonly string[], fieldValue: unknown): Record<string, unknown> {
  const copy = structuredClone(value);
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[path[path.length - 1]] = fieldValue;
  return copy;
}

function withoutField(value: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...value };
  delete copy[key];
  return copy;
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? "an" : "a";
}

function newDecoder(): EventDecoder {
  return new EventDecoder(new LocusAdapter());
}

/** What the decoder sent to its sink for one line, in order. */
type DecodedLine = { kind: "event"; event: CliStreamEvent; line: number | null } | { kind: "problem"; problem: Problem };

function decodeLine(decoder: EventDecoder, text: string, line: number): DecodedLine[] {
  const out: DecodedLine[] = [];
  decoder.decodeLine(text, line, {
    event: (event, at) => out.push({ kind: "event", event, line: at }),
    problem: (p) => out.push({ kind: "problem", problem: p }),
  });
  return out;
}

function decode(value: unknown, line = 1): DecodedLine[] {
  return decodeLine(newDecoder(), JSON.stringify(value), line);
}

function problem(code: Problem["code"], message: string, line = 1): DecodedLine {
  return { kind: "problem", problem: { line, code, message } };
}

function malformed(message: string, line = 1): DecodedLine {
  return problem("MALFORMED_EVENT", message, line);
}

describe("EventDecoder with the Locus adapter", () => {
  it("names its dialect locus", () => {
    assert.equal(newDecoder().dialect, "locus");
  });

  describe("valid events", () => {
    for (const example of PROTOCOL_EXAMPLES) {
      it(`decodes the protocol document's ${example.name} example once an envelope is added`, () => {
        const value = { protocol: 1, sessionId: SESSION_ID, timestamp: T0, ...JSON.parse(example.json) };
        assert.deepEqual(decodeLine(newDecoder(), JSON.stringify(value), 3), [{ kind: "event", event: value, line: 3 }]);
      });
    }

    for (const [type, payload] of Object.entries(FULL_PAYLOADS)) {
      it(`decodes ${article(type)} ${type} event that sets every optional field`, () => {
        const value = envelope(type, payload);
        assert.deepEqual(decode(value), [{ kind: "event", event: value, line: 1 }]);
      });
    }

    it("accepts a byte-order mark at the start of a line", () => {
      const event = textDelta("after BOM");
      assert.deepEqual(decodeLine(newDecoder(), "\ufeff" + JSON.stringify(event), 1), [{ kind: "event", event, line: 1 }]);
    });

    it("accepts payload fields protocol 1 does not define and passes them through untouched", () => {
      // Forward compatibility: a newer CLI may add fields; they are not an error and are not lost.
      const [decoded] = decode(envelope("text_delta", { content: "x", annotations: [1] }));
      assert.equal(decoded.kind, "event");
      assert.deepEqual(decoded.kind === "event" && decoded.event.payload, { content: "x", annotations: [1] });
    });

    it("tags each event with the line it came from", () => {
      const [decoded] = decodeLine(newDecoder(), JSON.stringify(start()), 42);
      assert.equal(decoded.kind === "event" && decoded.line, 42);
    });
  });

  describe("lines that are not JSON objects", () => {
    it("reports a line that is not JSON as MALFORMED_EVENT quoting it", () => {
      assert.deepEqual(decodeLine(newDecoder(), "Starting locus…", 5), [malformed('not JSON: "Starting locus…"', 5)]);
    });

    it("reports truncated JSON as not JSON", () => {
      assert.deepEqual(decodeLine(newDecoder(), '{"type":"text_delta","payl', 1), [malformed('not JSON: "{\\"type\\":\\"text_delta\\",\\"payl"')]);
    });

    it("quotes at most 60 characters of a bad line", () => {
      const [decoded] = decodeLine(newDecoder(), "x".repeat(500), 1);
      assert.deepEqual(decoded, malformed(`not JSON: "${"x".repeat(60)}…"`));
    });

    it("shows control characters in a bad line as escapes", () => {
      const [decoded] = decodeLine(newDecoder(), "bad\u0007\u001b[0m", 1);
      assert.deepEqual(decoded, malformed('not JSON: "bad\\u0007\\u001b[0m"'));
    });

    it("shows C1 controls, bidi overrides and line separators in a bad line as escapes too", () => {
      const [decoded] = decodeLine(newDecoder(), "bad \u009b31m \u202eevil\u202c \u2028", 1);
      assert.deepEqual(decoded, malformed('not JSON: "bad \\u009b31m \\u202eevil\\u202c \\u2028"'));
    });

    for (const [json, got] of [["[1,2]", "array"], ["null", "null"], ['"text"', "string"], ["42", "number"], ["true", "boolean"]]) {
      it(`reports JSON ${json} as MALFORMED_EVENT: expected a JSON object, got ${got}`, () => {
        assert.deepEqual(decodeLine(newDecoder(), json, 1), [malformed(`expected a JSON object, got ${got}`)]);
      });
    }
  });

  describe("the envelope", () => {
    it("reports a missing type", () => {
      assert.deepEqual(decode({ protocol: 1, payload: {} }), [malformed("type: missing, expected string")]);
    });

    it("reports a type that is not a string", () => {
      assert.deepEqual(decode({ protocol: 1, type: 3, payload: {} }), [malformed("type: expected string, got number")]);
    });

    it("skips an unknown type as UNKNOWN_EVENT_TYPE without an event", () => {
      assert.deepEqual(decode(envelope("file_changed", { path: "/a" })), [
        problem("UNKNOWN_EVENT_TYPE", 'unknown event type "file_changed" skipped'),
      ]);
    });

    it("does not take an inherited property name for an event type", () => {
      assert.deepEqual(decode(envelope("constructor", {})), [problem("UNKNOWN_EVENT_TYPE", 'unknown event type "constructor" skipped')]);
    });

    const envelopeFields: readonly [string, unknown, string][] = [
      ["protocol", "1", "protocol: expected number, got string"],
      ["sessionId", 42, "sessionId: expected string, got number"],
      ["timestamp", "2024-02-12", "timestamp: expected number, got string"],
      ["payload", "hello", "payload: expected object, got string"],
    ];
    for (const [field, value, message] of envelopeFields) {
      it(`names the envelope field in "${message}"`, () => {
        assert.deepEqual(decode({ ...envelope("text_delta", { content: "x" }), [field]: value }), [malformed(message)]);
      });
    }

    for (const field of ["sessionId", "timestamp", "payload"]) {
      it(`reports a missing ${field} as missing`, () => {
        const [decoded] = decode(withoutField(envelope("text_delta", { content: "x" }), field));
        assert.match(decoded.kind === "problem" ? decoded.problem.message : "", new RegExp(`^${field}: missing, expected `));
      });
    }
  });

  describe("payload fields", () => {
    for (const { type, path, value, message } of WRONG_TYPES) {
      it(`reports ${article(type)} ${type} whose ${path.join(".")} has the wrong type as "${message}"`, () => {
        const payload = withField(FULL_PAYLOADS[type], path, value);
        assert.deepEqual(decode(envelope(type, payload)), [malformed(message)]);
      });
    }

    it("reports a missing required field as missing with its expected type", () => {
      assert.deepEqual(decode(envelope("text_delta", {})), [malformed("payload.content: missing, expected string")]);
    });

    it("reports an error code outside the protocol's enum with the allowed values and the value given", () => {
      const payload = { error: { code: "RATE_LIMITED", message: "slow down", recoverable: true } };
      assert.deepEqual(decode(envelope("error", payload)), [malformed(`payload.error.code: expected ${CODES}, got "RATE_LIMITED"`)]);
    });

    it("reports a fractional exitCode as not an integer", () => {
      const payload = { exitCode: 1.5, duration: 5, success: false };
      assert.deepEqual(decode(envelope("done", payload)), [malformed("payload.exitCode: expected an integer, got 1.5")]);
    });

    it("reports a negative duration against its field", () => {
      const [decoded] = decode(envelope("done", { exitCode: 0, duration: -1, success: true }));
      assert.match(decoded.kind === "problem" ? decoded.problem.message : "", /^payload\.duration: .*>=\s?0/);
    });

    it("names the array index of a bad toolsUsed entry", () => {
      const payload = { exitCode: 0, duration: 1, toolsUsed: ["Read", 7], success: true };
      assert.deepEqual(decode(envelope("done", payload)), [malformed("payload.toolsUsed[1]: expected string, got number")]);
    });

    it("lists the first three problems of an event and counts the rest", () => {
      const payload = { exitCode: "0", toolsUsed: [1], tokensUsed: "many", success: null };
      assert.deepEqual(decode(envelope("done", payload)), [
        malformed(
          "payload.exitCode: expected number, got string; payload.duration: missing, expected number; " +
            "payload.toolsUsed[0]: expected string, got number (and 2 more)",
        ),
      ]);
    });
  });

  describe("newer protocols", () => {
    it("reports a newer protocol as UNSUPPORTED_PROTOCOL and still decodes an event that fits", () => {
      const value = envelope("text_delta", { content: "hi" });
      value.protocol = 2;
      assert.deepEqual(decode(value, 1), [
        problem("UNSUPPORTED_PROTOCOL", "stream uses protocol 2; this version of Agent Stream understands protocol 1 and decodes what it can"),
        { kind: "event", event: value, line: 1 },
      ]);
    });

    it("reports a newer protocol once per stream", () => {
      const decoder = newDecoder();
      const lines = [1, 2, 3].map((n) => decodeLine(decoder, JSON.stringify(textDelta(`${n}`, { protocol: 2 })), n));
      const reports = lines.flat().filter((item) => item.kind === "problem" && item.problem.code === "UNSUPPORTED_PROTOCOL");
      assert.equal(reports.length, 1);
      assert.equal(lines.flat().filter((item) => item.kind === "event").length, 3);
    });

    it("reports a newer protocol again for a new stream", () => {
      const line = JSON.stringify(textDelta("x", { protocol: 3 }));
      const codes = [newDecoder(), newDecoder()].map((decoder) => {
        const [first] = decodeLine(decoder, line, 1);
        return first.kind === "problem" ? first.problem.code : first.kind;
      });
      assert.deepEqual(codes, ["UNSUPPORTED_PROTOCOL", "UNSUPPORTED_PROTOCOL"]);
    });

    it("reports a newer-protocol event that does not fit protocol 1 as malformed too", () => {
      const decoded = decode({ protocol: 2, type: "text_delta", sessionId: SESSION_ID, timestamp: T0, payload: { parts: ["x"] } });
      assert.deepEqual(
        decoded.map((item) => item.kind === "problem" && item.problem.code),
        ["UNSUPPORTED_PROTOCOL", "MALFORMED_EVENT"],
      );
    });

    it("rejects protocol 0 as malformed rather than as another protocol", () => {
      const [decoded, ...rest] = decode(textDelta("x", { protocol: 0 }));
      assert.equal(rest.length, 0);
      assert.equal(decoded.kind === "problem" && decoded.problem.code, "MALFORMED_EVENT");
      assert.match(decoded.kind === "problem" ? decoded.problem.message : "", /^protocol: /);
    });
  });

  describe("oversized lines", () => {
    it("reports an oversized line as MALFORMED_EVENT with its size in bytes and the limit", () => {
      const problems: Problem[] = [];
      const reader = new JsonLineReader({ value: () => assert.fail("no line is within the limit"), refused: (problem) => problems.push(problem) }, 16);
      reader.push(Buffer.from("\n".repeat(8) + `"${"x".repeat(40)}"\n`));
      reader.end();
      assert.deepEqual(problems, [{ line: 9, code: "MALFORMED_EVENT", message: "line of 42 bytes (42 bytes) is over the 16 bytes line size limit; skipped" }]);
    });

    it("formats byte counts in bytes, KiB and MiB", () => {
      assert.deepEqual([formatBytes(512), formatBytes(1536), formatBytes(16 * 1024 * 1024), formatBytes(1024 * 1024 + 1)], [
        "512 bytes",
        "1.5 KiB",
        "16 MiB",
        "1 MiB",
      ]);
    });

    it("reports a 50 MB line read in 64 KiB chunks once with its size, then decodes the next line", () => {
      const limit = 16 * 1024 * 1024;
      const size = 50 * 1024 * 1024;
      const decoder = newDecoder();
      const decoded: DecodedLine[] = [];
      const sink = { event: (event: CliStreamEvent, line: number | null) => decoded.push({ kind: "event", event, line }), problem: (problem: Problem) => decoded.push({ kind: "problem", problem }) };
      const reader = new JsonLineReader({ value: (value, line) => decoder.decodeValue(value, line, sink), refused: (problem) => sink.problem(problem) }, limit);
      const chunk = Buffer.alloc(64 * 1024, "x");
      const prefix = Buffer.from('{"type":"text_delta","payload":{"content":"');
      reader.push(prefix);
      for (let fed = prefix.length; fed < size; fed += chunk.length) {
        reader.push(chunk.subarray(0, Math.min(chunk.length, size - fed)));
      }
      const next = textDelta("still here");
      reader.push(Buffer.from("\n" + JSON.stringify(next) + "\n"));
      reader.end();

      assert.deepEqual(decoded, [
        malformed(`line of ${size} bytes (50 MiB) is over the 16 MiB line size limit; skipped`, 1),
        { kind: "event", event: next, line: 2 },
      ]);
    });
  });
});

describe("JSON depth at the decoder", () => {
  function decode(depth: number): Problem[] {
    const problems: Problem[] = [];
    // The line, its payload and the parameters are three levels; the arrays inside make up the rest.
    const parameters = `{"p":${"[".repeat(depth - 3)}${"]".repeat(depth - 3)}}`;
    const line = `{"protocol":1,"type":"tool_started","sessionId":"s","timestamp":1,"payload":{"tool":"Read","parameters":${parameters}}}`;
    new EventDecoder(new LocusAdapter()).decodeLine(line, 1, { event: () => {}, problem: (p) => problems.push(p) });
    return problems;
  }

  it(`accepts a line nested ${MAX_JSON_DEPTH} levels deep and reports one nested deeper`, () => {
    assert.deepEqual(decode(MAX_JSON_DEPTH), []);
    assert.deepEqual(decode(MAX_JSON_DEPTH + 1), [{ line: 1, code: "MALFORMED_EVENT", message: "nested deeper than 64 levels; skipped" }]);
  });
});
