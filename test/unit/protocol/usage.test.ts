import * as assert from "node:assert/strict";
import { DoneSummarySchema } from "../../../src/protocol/transcript";
import { addUsage, totalUsage } from "../../../src/common/usage-totals";
import { turnUsage, type TurnUsage } from "../../../src/protocol/usage";

const usage = (figures: Partial<TurnUsage>): TurnUsage => turnUsage(figures)!;

describe("a turn's usage", () => {
  it("is nothing at all when the agent said no figure, so a done carries no empty usage", () => {
    assert.equal(turnUsage({}), undefined);
    assert.deepEqual(turnUsage({ outputTokens: 0 }), { inputTokens: null, outputTokens: 0, cacheReadTokens: null, cost: null, contextUsed: null, contextSize: null });
  });

  it("leaves out a figure that does not fit rather than the turn's end", () => {
    const odd = turnUsage({ inputTokens: -5, outputTokens: Number.NaN, cost: { amount: 0.01, currency: "X".repeat(100) }, contextUsed: 10 });
    assert.deepEqual(odd, { inputTokens: null, outputTokens: null, cacheReadTokens: null, cost: null, contextUsed: 10, contextSize: null });
  });

  it("adds two turns' tokens and costs, and keeps the context the later one said", () => {
    const first = usage({ inputTokens: 1000, outputTokens: 20, cost: { amount: 0.01, currency: "USD" }, contextUsed: 1020, contextSize: 200_000 });
    const second = usage({ inputTokens: 1500, outputTokens: 40, cacheReadTokens: 900, cost: { amount: 0.02, currency: "USD" }, contextUsed: 1560, contextSize: 200_000 });
    const sum = addUsage(first, second);
    assert.equal(sum.inputTokens, 2500);
    assert.equal(sum.outputTokens, 60);
    assert.equal(sum.cacheReadTokens, 900);
    assert.equal(sum.cost?.currency, "USD");
    assert.ok(Math.abs(sum.cost!.amount - 0.03) < 1e-12);
    assert.deepEqual([sum.contextUsed, sum.contextSize], [1560, 200_000]);
  });

  it("keeps the earlier context when the later turn said none", () => {
    const sum = addUsage(usage({ contextUsed: 5000, contextSize: 128_000 }), usage({ outputTokens: 3 }));
    assert.deepEqual([sum.contextUsed, sum.contextSize], [5000, 128_000]);
  });

  it("does not add costs in two currencies: their sum is not known", () => {
    const sum = addUsage(usage({ cost: { amount: 3, currency: "credits" } }), usage({ cost: { amount: 0.01, currency: "USD" } }));
    assert.equal(sum.cost, null);
  });

  it("totals a session's turns, skipping those that said nothing, and is null when none said any", () => {
    assert.equal(totalUsage([null, null]), null);
    const total = totalUsage([usage({ outputTokens: 5 }), null, usage({ outputTokens: 7, contextUsed: 90 })]);
    assert.deepEqual([total?.outputTokens, total?.contextUsed], [12, 90]);
  });

  it("reads a turn kept before usage was counted as a turn without usage", () => {
    const kept = { exitCode: 0, durationMs: 12, toolsUsed: [], tokensUsed: 40, success: true, synthesized: false };
    assert.equal(DoneSummarySchema.parse(kept).usage, null);
  });
});
