import * as assert from "node:assert/strict";
import { errorCodeFor } from "../../../src/dialects/error-meaning";
import { assertQuickOn, repeated } from "../../helpers/hostile-text";

describe("what another CLI's error means", () => {
  const table: [string, number | null, string][] = [
    ['API Error: 401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}', null, "AUTH_EXPIRED"],
    ["OAuth token has expired. Please run /login", null, "AUTH_EXPIRED"],
    ["Forbidden", 403, "AUTH_EXPIRED"],
    ["Incorrect API key provided", null, "AUTH_EXPIRED"],
    ['API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', null, "NETWORK_TIMEOUT"],
    ["Rate limit reached for requests", null, "NETWORK_TIMEOUT"],
    ["Rate limited 5 times, giving up", null, "NETWORK_TIMEOUT"],
    ["Request timed out after 30s", null, "NETWORK_TIMEOUT"],
    ["connect ECONNREFUSED 127.0.0.1:4000", null, "NETWORK_TIMEOUT"],
    ["Internal server error", 500, "NETWORK_TIMEOUT"],
    // Codex's own words for a 5xx it gave up on.
    ["We’re currently experiencing high demand, which may cause temporary errors.", null, "NETWORK_TIMEOUT"],
    ["prompt is too long: 210000 tokens > 200000 maximum", null, "CONTEXT_LIMIT"],
    ["This model's maximum context length is 128000 tokens", null, "CONTEXT_LIMIT"],
    ["Context too large and compaction failed", null, "CONTEXT_LIMIT"],
    ['request too large: {"type":"error","error":{"type":"invalid_request_error"}}', null, "CONTEXT_LIMIT"],
    ["No conversation found with session ID: 0f8b5d2e-6c1a-4e7b-9a3d-2b7c4e9f1a60", null, "SESSION_NOT_FOUND"],
    ["Tool 'Frobnicate' does not exist", null, "UNKNOWN"],
  ];
  for (const [message, status, code] of table) {
    it(`${code} for ${JSON.stringify(message.slice(0, 50))}${status === null ? "" : ` (HTTP ${status})`}`, () => {
      assert.equal(errorCodeFor(message, status), code);
    });
  }

  it("reads the meaning at either end of a 1 MB error, not from its middle, in well under a second", () => {
    const filler = repeated("x ", 512 * 1024);
    const codeOf = (message: string) => assertQuickOn("a 1 MB error", () => errorCodeFor(message));
    assert.equal(codeOf(`Rate limit reached ${filler}`), "NETWORK_TIMEOUT");
    assert.equal(codeOf(`${filler} Rate limit reached`), "NETWORK_TIMEOUT");
    assert.equal(codeOf(`${filler} Rate limit reached ${filler}`), "UNKNOWN", "a dump's middle says nothing of the error");
  });

  it("an HTTP status decides over the words", () => {
    assert.equal(errorCodeFor("Something failed", 429), "NETWORK_TIMEOUT");
    assert.equal(errorCodeFor("Something failed", 413), "CONTEXT_LIMIT");
  });
});
