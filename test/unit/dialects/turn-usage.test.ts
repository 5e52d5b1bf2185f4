// Each dialect's usage figures, read from what the real CLIs printed (test/fixtures/*-recorded, recorded against our
// mock model server, whose calls count 120 tokens of input) or, where no recording says them, the hand-written streams.
import * as assert from "node:assert/strict";
import { createAdapter, type DialectName } from "../../../src/dialects/registry";
import type { TurnUsage } from "../../../src/protocol/usage";
import * as harness from "../../helpers/dialect-harness";

async function usageOf(folder: string, name: string, dialect: DialectName): Promise<TurnUsage | null> {
  const transcript = await harness.transcriptOf(harness.fixture(folder, name), createAdapter(dialect));
  return transcript.done.usage;
}

/** Every done the adapter writes for a stream of several turns, in order. */
function doneUsages(folder: string, name: string, dialect: DialectName): (TurnUsage | undefined)[] {
  const values = harness.fixture(folder, name).split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as unknown);
  const { events } = harness.decodeAll(createAdapter(dialect), values, null);
  return events.flatMap((event) => (event.type === "done" ? [event.payload.usage] : []));
}

function near(actual: number | undefined, expected: number): void {
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-9, `${actual} is not ${expected}`);
}

describe("the usage each dialect reads", () => {
  it("claude 2.1.330: tokens of every call, the cost in dollars, the last call's context and the model's window", async () => {
    const usage = await usageOf("claude-recorded/2.1.330", "tool-use.ndjson", "claude");
    assert.deepEqual({ ...usage, cost: null }, { inputTokens: 360, outputTokens: 16, cacheReadTokens: 0, cost: null, contextUsed: 122, contextSize: 1_000_000 });
    assert.equal(usage?.cost?.currency, "USD");
    near(usage?.cost?.amount, 0.00176);
  });

  it("claude: counts the prompt's cached part as input and as read from the cache", async () => {
    // 12 fresh, 1,800 read from the cache, 58 out.
    const usage = await usageOf("claude", "plain-answer.ndjson", "claude");
    assert.deepEqual([usage?.inputTokens, usage?.cacheReadTokens, usage?.outputTokens, usage?.contextUsed], [1812, 1800, 58, 1870]);
  });

  it("qwen (Claude's stream): tokens and the context, no cost and no window", async () => {
    const usage = await usageOf("qwen-recorded/0.24.4", "plain-answer.ndjson", "qwen");
    assert.deepEqual(usage, { inputTokens: 240, outputTokens: 10, cacheReadTokens: 0, cost: null, contextUsed: 129, contextSize: null });
  });

  it("pi: every call's tokens and cost added up, the last call's total as the context", async () => {
    const usage = await usageOf("pi", "tool-use.ndjson", "pi");
    assert.deepEqual({ ...usage, cost: null }, { inputTokens: 4720, outputTokens: 131, cacheReadTokens: 0, cost: null, contextUsed: 1730, contextSize: null });
    near(usage?.cost?.amount, 0.016125);
  });

  it("codex: turn.completed's tokens, the cached ones inside the input", async () => {
    assert.deepEqual(await usageOf("codex-recorded/0.169.0", "tool-use.ndjson", "codex"), {
      inputTokens: 360,
      outputTokens: 17,
      cacheReadTokens: 0,
      cost: null,
      contextUsed: null,
      contextSize: null,
    });
  });

  it("gemini: the result's stats", async () => {
    assert.deepEqual(await usageOf("gemini-recorded/0.61.0", "tool-use.ndjson", "gemini"), {
      inputTokens: 360,
      outputTokens: 8,
      cacheReadTokens: 0,
      cost: null,
      contextUsed: null,
      contextSize: null,
    });
  });

  it("opencode: every step's tokens added up, the last step's total as the context, and no cost where it prices none", async () => {
    assert.deepEqual(await usageOf("opencode-recorded/1.18.33", "tool-use.ndjson", "opencode"), {
      inputTokens: 360,
      outputTokens: 16,
      cacheReadTokens: 0,
      cost: null,
      contextUsed: 122,
      contextSize: null,
    });
  });

  it("agent-code: the turns' tokens and the session's total cost", async () => {
    const usage = await usageOf("agent-code", "plain-answer.ndjson", "agent-code");
    assert.deepEqual([usage?.inputTokens, usage?.outputTokens, usage?.contextUsed], [1520, 84, null]);
    near(usage?.cost?.amount, 0.00582);
  });

  it("a run that failed before any call says no usage", async () => {
    assert.equal(await usageOf("agent-code", "auth-error.ndjson", "agent-code"), null);
  });

  it("acp (claude-agent-acp 0.101.0): each turn's cost is what it added to the session's, with the context and the answer's tokens", () => {
    const [first, second] = doneUsages("acp-recorded/claude-acp/0.101.0", "follow-up.ndjson", "acp");
    assert.deepEqual([first?.inputTokens, first?.outputTokens, first?.contextUsed, first?.contextSize], [120, 2, 122, 1_000_000]);
    near(first?.cost?.amount, 0.00052);
    // The agent said the session's cost was 0.00154 after the second turn.
    near(second?.cost?.amount, 0.00154 - 0.00052);
    assert.equal(second?.cost?.currency, "USD");
  });
});
