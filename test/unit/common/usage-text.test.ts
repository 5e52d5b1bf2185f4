import * as assert from "node:assert/strict";
import { compactCount, costText, usageDetail, usageFacts } from "../../../src/common/usage-text";
import { turnUsage, type TurnUsage } from "../../../src/protocol/usage";

const usage = (figures: Partial<TurnUsage>): TurnUsage => turnUsage(figures)!;

describe("usage in words", () => {
  it("writes counts compactly, with a decimal only while it says something", () => {
    assert.deepEqual([0, 950, 1000, 1234, 9960, 46_200, 200_000, 999_700, 1_250_000].map(compactCount), ["0", "950", "1k", "1.2k", "10k", "46k", "200k", "1M", "1.3M"]);
  });

  it("shows US dollars with their sign and any other currency by its name", () => {
    assert.equal(costText({ amount: 0.01742, currency: "USD" }), "$0.0174");
    assert.equal(costText({ amount: 12.5, currency: "USD" }), "$12.50");
    assert.equal(costText({ amount: 3.5, currency: "credits" }), "3.50 credits");
  });

  it("says a turn's figures in the footer's few words", () => {
    const figures = usage({ inputTokens: 1234, outputTokens: 340, cost: { amount: 0.0174, currency: "USD" }, contextUsed: 46_000, contextSize: 200_000 });
    assert.deepEqual(usageFacts(figures), ["1.2k in", "340 out", "$0.0174", "23% of 200k context"]);
  });

  it("leaves out what the agent did not say, and says a context without a window as a count", () => {
    assert.deepEqual(usageFacts(usage({ outputTokens: 12, contextUsed: 1730 })), ["12 out", "1.7k context"]);
    assert.deepEqual(usageFacts(usage({ contextUsed: 121, contextSize: 1_000_000 })), ["<1% of 1M context"]);
  });

  it("says every figure in full for the tooltip and screen readers", () => {
    const figures = usage({ inputTokens: 1812, cacheReadTokens: 1800, outputTokens: 58, cost: { amount: 0.0031, currency: "USD" }, contextUsed: 1870, contextSize: 200_000 });
    assert.equal(usageDetail(figures), "1,812 input tokens (1,800 from the cache), 58 output tokens, cost $0.0031, 1,870 of 200,000 context tokens used (<1%)");
  });
});
