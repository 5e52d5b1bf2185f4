import * as assert from "node:assert/strict";
import { crashedError, outcomeOfStopReason, protocolErrorOfRpcError } from "../../../../src/dialects/acp/turn-outcome";
import { assertQuickOn, repeated } from "../../../helpers/hostile-text";

describe("ACP turn outcomes", () => {
  it("maps stop reasons: end_turn completes, cancelled stops, the others fail and say which", () => {
    assert.equal(outcomeOfStopReason("end_turn").status, "completed");
    assert.equal(outcomeOfStopReason("cancelled").status, "canceled");
    for (const reason of ["refusal", "max_tokens", "max_turn_requests", "something_new"]) {
      const outcome = outcomeOfStopReason(reason);
      assert.equal(outcome.status, "failed");
      assert.ok(outcome.status === "failed" && outcome.error.message.includes(reason));
    }
  });

  describe("JSON-RPC errors as real agents send them", () => {
    const cases: [string, { code: number; message: string; data?: unknown }, string][] = [
      ["Gemini: code 401 with the raw body", { code: 401, message: '{"error":{"code":401,"message":"API key not valid.","status":"UNAUTHENTICATED"}}' }, "AUTH_EXPIRED"],
      ["Qwen: -32603 with a 401 in data", { code: -32603, message: "Internal error", data: { details: "401 Incorrect API key provided" } }, "AUTH_EXPIRED"],
      ["opencode: -32603 with a status field", { code: -32603, message: "Internal error", data: { status: 403, message: "Forbidden" } }, "AUTH_EXPIRED"],
      ["the newest Claude adapter: -32000 Authentication required", { code: -32000, message: "Authentication required" }, "AUTH_EXPIRED"],
      ["a 429 in the details", { code: -32603, message: "Internal error", data: { details: "status: 429 rate limited" } }, "NETWORK_TIMEOUT"],
      ["an overloaded model", { code: -32603, message: "Internal error", data: "Overloaded" }, "NETWORK_TIMEOUT"],
      ["a 503 status", { code: -32603, message: "Internal error", data: { statusCode: 503 } }, "NETWORK_TIMEOUT"],
      ["a context overflow", { code: -32603, message: "Internal error", data: { details: "prompt is too long: 210000 tokens" } }, "CONTEXT_LIMIT"],
      ["an unknown session", { code: -32002, message: "Resource not found", data: { uri: "session-9" } }, "SESSION_NOT_FOUND"],
      ["a session not found in words", { code: -32603, message: "Session not found: abc" }, "SESSION_NOT_FOUND"],
      ["anything else", { code: -32603, message: "Internal error", data: { details: "the tool registry is empty" } }, "UNKNOWN"],
    ];
    for (const [name, error, code] of cases) {
      it(`${name} → ${code}`, () => {
        assert.equal(protocolErrorOfRpcError(error).code, code);
      });
    }

    it("reads a 1 MB error of 'session' said again and again in well under a second, as no missing session", () => {
      const error = { code: -32603, message: repeated("session ") };
      assert.equal(assertQuickOn("'session ' × 131,072", () => protocolErrorOfRpcError(error)).code, "UNKNOWN");
    });

    it("reads a 1 MB error of 'status' and blanks in well under a second, as no status", () => {
      for (const unit of ["status ", "status: ", "http \""]) {
        const error = { code: -32603, message: `${unit}${repeated(" ")}x` };
        assert.equal(assertQuickOn(JSON.stringify(unit), () => protocolErrorOfRpcError(error)).code, "UNKNOWN");
      }
    });

    it("reads what a 1 MB error says at its end, and keeps all its words in the message", () => {
      const message = `Internal error${repeated(" ")}: session 4f2c not found`;
      const error = assertQuickOn("a long error", () => protocolErrorOfRpcError({ code: -32603, message }));
      assert.deepEqual(error, { code: "SESSION_NOT_FOUND", message, recoverable: false });
    });

    it("shows an API's JSON error body, as Gemini CLI passes its 401 on, as its words and status", () => {
      const error = protocolErrorOfRpcError({ code: 401, message: '{"error":{"code":401,"message":"API key not valid. Please pass a valid API key.","status":"UNAUTHENTICATED"}}' });
      assert.deepEqual(error, { code: "AUTH_EXPIRED", message: "API key not valid. Please pass a valid API key. (HTTP 401, UNAUTHENTICATED)", recoverable: false });
    });

    it("shows such a body in the details as its words too", () => {
      const error = protocolErrorOfRpcError({ code: -32603, message: "Internal error", data: { details: '{"error":{"code":429,"message":"Quota exceeded.","status":"RESOURCE_EXHAUSTED"}}' } });
      assert.deepEqual([error.code, error.message], ["NETWORK_TIMEOUT", "Quota exceeded. (HTTP 429, RESOURCE_EXHAUSTED)"]);
    });

    it("finds such a body after the agent's own words", () => {
      const error = protocolErrorOfRpcError({ code: -32603, message: 'Internal error: [API Error: {"error":{"code":400,"message":"Model not found."}}]' });
      assert.equal(error.message, "Model not found. (HTTP 400)");
    });

    it("keeps a JSON text that is no error body as it is", () => {
      for (const message of ['{"error":"plain"}', '{"error":{"code":500}}', '{"detail":"x"}', "{not json}"]) {
        assert.equal(protocolErrorOfRpcError({ code: -32603, message }).message, message);
      }
    });

    it("reads an error body nested thousands of levels deep at its top only, in well under a second", () => {
      const deep = `{"error":{"message":"Too deep.","extra":${"[".repeat(20_000)}${"]".repeat(20_000)}}}`;
      assert.equal(assertQuickOn("20,000 levels", () => protocolErrorOfRpcError({ code: -32603, message: deep })).message, "Too deep.");
    });

    it("does not parse a body past 64 KiB: a megabyte of JSON stays the agent's text", () => {
      const huge = `{"error":{"message":"big","pad":"${"x".repeat(1024 * 1024)}"}}`;
      assert.equal(assertQuickOn("1 MB body", () => protocolErrorOfRpcError({ code: -32603, message: huge })).message, huge);
    });

    it("keeps the agent's own words, details included, in the message", () => {
      const error = protocolErrorOfRpcError({ code: -32603, message: "Internal error", data: { details: "the tool registry is empty" } });
      assert.equal(error.message, "Internal error: the tool registry is empty");
    });
  });

  it("a crash names the exit and the last lines of stderr", () => {
    const error = crashedError(3, null, "starting\nfatal: boom\n");
    assert.equal(error.code, "PROCESS_CRASHED");
    assert.match(error.message, /exited with code 3[\s\S]*fatal: boom/);
    assert.match(crashedError(null, "SIGKILL", "").message, /ended by SIGKILL/);
  });
});
