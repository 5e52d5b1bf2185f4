// The agent's stdout as the SDK sees it: what AgentWire hands on, refuses and answers, line by line.
import * as assert from "node:assert/strict";
import type { AnyMessage } from "@agentclientprotocol/sdk";
import { AgentWire } from "../../../src/acp/agent-wire";
import type { PromptTokens } from "../../../src/dialects/acp/prompt-usage";
import type { Problem } from "../../../src/protocol/transcript";

interface WireUnderTest {
  wire: AgentWire;
  /** Lines written to the agent's stdin. */
  written: unknown[];
  problems: Problem[];
  updates: unknown[];
  /** The token counts handed on from answers to our prompts. */
  tokens: PromptTokens[];
  push(...lines: string[]): void;
  /** Sends a request of ours, as the SDK would: a prompt unless told otherwise. */
  ask(id: number | string, method?: string): Promise<void>;
  /** Sends our answer to the agent's request, as the SDK would. */
  answer(id: number | string): Promise<void>;
  /** The next message the SDK reads. */
  next(): Promise<AnyMessage | undefined>;
  /** What the SDK does when the connection closes (its write to a closed stdin failed): stops reading. */
  stopReading(): Promise<void>;
}

function wireUnderTest(onUpdate: (params: unknown) => void = () => {}): WireUnderTest {
  const written: unknown[] = [];
  const problems: Problem[] = [];
  const updates: unknown[] = [];
  const tokens: PromptTokens[] = [];
  const wire = new AgentWire((line) => written.push(JSON.parse(line)) > 0, {
    sessionUpdate: (params) => {
      updates.push(params);
      onUpdate(params);
    },
    problem: (problem) => problems.push(problem),
    promptTokens: (counted) => tokens.push(counted),
  });
  const reader = wire.stream.readable.getReader();
  const writer = wire.stream.writable.getWriter();
  return {
    wire,
    written,
    problems,
    updates,
    tokens,
    push: (...lines) => wire.push(Buffer.from(lines.map((line) => line + "\n").join(""))),
    ask: (id, method = "session/prompt") => writer.write({ jsonrpc: "2.0", id, method, params: {} }),
    answer: (id) => writer.write({ jsonrpc: "2.0", id, result: { content: "text" } }),
    next: async () => (await reader.read()).value,
    stopReading: () => reader.cancel(),
  };
}

const DEEP = "[".repeat(100) + "]".repeat(100);
const update = (text: string) => JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { update: { text } } });

describe("AgentWire", () => {
  it("answers a request it refuses with a JSON-RPC error, so the agent is not left waiting", () => {
    const under = wireUnderTest();
    under.push(`{"jsonrpc":"2.0","id":"p1","method":"session/request_permission","params":{"toolCall":{"rawInput":${DEEP}}}}`);
    assert.deepEqual(under.problems, [{ line: 1, code: "MALFORMED_EVENT", message: "nested deeper than 64 levels; skipped" }]);
    assert.deepEqual(under.written, [{ jsonrpc: "2.0", id: "p1", error: { code: -32600, message: "Invalid request: nested deeper than 64 levels; skipped" } }]);
  });

  it("answers nothing for a refused notification or answer: JSON-RPC never answers those", () => {
    const under = wireUnderTest();
    under.push(`{"jsonrpc":"2.0","method":"session/update","params":${DEEP}}`, `{"jsonrpc":"2.0","id":7,"result":${DEEP}}`);
    assert.equal(under.problems.length, 2);
    assert.deepEqual(under.written, []);
  });

  it("reports a line whose handling throws as that line's problem, and reads the next line", () => {
    const under = wireUnderTest((params) => {
      if ((params as { update: { text: string } }).update.text === "boom") throw new RangeError("Maximum call stack size exceeded");
    });
    assert.doesNotThrow(() => under.push(update("boom"), update("after")));
    assert.deepEqual(under.problems, [
      { line: 1, code: "MALFORMED_EVENT", message: 'could not be handled: "RangeError: Maximum call stack size exceeded"; skipped' },
    ]);
    assert.equal(under.updates.length, 2);
  });

  it("hands the SDK an answer to a request of ours, and refuses a second answer to it", async () => {
    const under = wireUnderTest();
    await under.ask(1);
    under.push('{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}', '{"jsonrpc":"2.0","id":1,"result":{}}');
    assert.deepEqual(await under.next(), { jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn" } });
    assert.deepEqual(under.problems, [{ line: 2, code: "MALFORMED_EVENT", message: "an answer to no request of ours (id 1); skipped" }]);
  });

  it("hands on the token counts of the answer to our prompt before the SDK reads that answer", async () => {
    const under = wireUnderTest();
    await under.ask(2);
    under.push('{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn","usage":{"inputTokens":120,"outputTokens":2,"cachedReadTokens":30,"totalTokens":152}}}');
    assert.deepEqual(under.tokens, [{ inputTokens: 150, outputTokens: 2, cacheReadTokens: 30 }]);
    assert.deepEqual(await under.next(), { jsonrpc: "2.0", id: 2, result: { stopReason: "end_turn", usage: { inputTokens: 120, outputTokens: 2, cachedReadTokens: 30, totalTokens: 152 } } });
  });

  it("takes token counts only from the answer to a prompt, and none the agent got wrong", async () => {
    const under = wireUnderTest();
    await under.ask(1, "session/new");
    await under.ask(2);
    await under.ask(3);
    under.push(
      '{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s","usage":{"inputTokens":5,"outputTokens":5}}}',
      '{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn","usage":{"inputTokens":"120","outputTokens":2}}}',
      '{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error","usage":{"inputTokens":5,"outputTokens":5}}}',
      '{"jsonrpc":"2.0","id":4,"result":{"stopReason":"end_turn","usage":{"inputTokens":5,"outputTokens":5}}}',
    );
    assert.deepEqual(under.tokens, []);
  });

  it("ends a request of ours whose answer is not a JSON-RPC response with an error of its own", async () => {
    const under = wireUnderTest();
    await under.ask("a");
    under.push('{"jsonrpc":"2.0","id":"a","error":"\\u001b[2Jboom"}');
    const answer = (await under.next()) as { id: unknown; error: { code: number; message: string } };
    assert.deepEqual([answer.id, answer.error.code], ["a", -32600]);
    assert.match(answer.error.message, /^The agent's answer could not be read: not a JSON-RPC response/);
    assert.doesNotMatch(answer.error.message, /\x1b/);
    assert.equal(under.problems.length, 1);
  });

  it("takes a line with a byte order mark as the message it is", () => {
    const under = wireUnderTest();
    under.push("\ufeff" + update("hi"));
    assert.deepEqual(under.updates, [{ update: { text: "hi" } }]);
    assert.deepEqual(under.problems, []);
  });

  it("drops what the agent says after the SDK stopped reading, without throwing out of the stdout handler", async () => {
    const under = wireUnderTest();
    await under.stopReading();
    assert.doesNotThrow(() => under.push('{"jsonrpc":"2.0","id":3,"method":"fs/read_text_file","params":{}}'));
    assert.doesNotThrow(() => under.wire.end());
  });

  it("counts an answer served as on its way until it is written, each answer to an id the agent used twice once", async () => {
    const under = wireUnderTest();
    under.wire.reserveAnswer("r1", 100);
    under.wire.reserveAnswer("r1", 50);
    under.wire.reserveAnswer(2, 10);
    assert.equal(under.wire.answersOnTheirWay, 160);
    await under.answer("r1");
    assert.equal(under.wire.answersOnTheirWay, 60, "the first answer to r1 is written: stdin counts it now");
    await under.answer(2);
    await under.answer("r1");
    assert.equal(under.wire.answersOnTheirWay, 0);
    await under.answer("r1");
    assert.equal(under.wire.answersOnTheirWay, 0, "an answer nothing was reserved for counts for nothing");
  });

  it("forgets the answers on their way once the agent's stdout ended: nobody will read them", () => {
    const under = wireUnderTest();
    under.wire.reserveAnswer(1, 100);
    under.wire.end();
    assert.equal(under.wire.answersOnTheirWay, 0);
  });
});
