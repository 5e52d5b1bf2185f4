// What the header shows of a turn while it runs, as the views hear it: how full the context is and what the turn has
// cost so far, batched, and let go when the turn's usage says them.
import * as assert from "node:assert/strict";
import { LiveUsage, type UsageNow } from "../../../src/panel/live-usage";
import type { TurnUsage, UsageCost } from "../../../src/protocol/usage";
import { VirtualScheduler } from "../../helpers/virtual-scheduler";

const FRAME_MS = 16;
const usage = (contextUsed: number | null, cost: UsageCost | null = null): TurnUsage => ({ inputTokens: 10, outputTokens: 2, cacheReadTokens: null, cost, contextUsed, contextSize: contextUsed === null ? null : 200_000 });
const usd = (amount: number): UsageCost => ({ amount, currency: "USD" });

function liveUsage(): { live: LiveUsage; sent: UsageNow[]; clock: VirtualScheduler } {
  const sent: UsageNow[] = [];
  const clock = new VirtualScheduler();
  return { live: new LiveUsage((now) => sent.push(now), clock, FRAME_MS), sent, clock };
}

describe("LiveUsage", () => {
  it("sends what the agent said last within a frame, once the frame is over", () => {
    const { live, sent, clock } = liveUsage();
    live.update({ used: 1000, size: 200_000 }, null);
    live.update({ used: 3000, size: 200_000 }, null);
    assert.deepEqual(sent, []);
    clock.advance(FRAME_MS);
    assert.deepEqual(sent, [{ context: { used: 3000, size: 200_000 }, cost: null }]);
    assert.deepEqual(live.current, { context: { used: 3000, size: 200_000 }, cost: null });
  });

  it("lets go of the context when a turn ends with a context of its own, and tells the views at once", () => {
    const { live, sent, clock } = liveUsage();
    live.update({ used: 3000, size: 200_000 }, null);
    clock.advance(FRAME_MS);
    live.turnEnded(usage(3000));
    assert.deepEqual(sent, [{ context: { used: 3000, size: 200_000 }, cost: null }, { context: null, cost: null }]);
    assert.equal(live.current, null);
  });

  it("keeps the context when the turn's end says none (a failed turn, an agent that counts only tokens)", () => {
    const { live, sent, clock } = liveUsage();
    live.update({ used: 3000, size: 200_000 }, null);
    clock.advance(FRAME_MS);
    live.turnEnded(usage(null));
    live.turnEnded(null);
    assert.deepEqual(sent, [{ context: { used: 3000, size: 200_000 }, cost: null }]);
    assert.deepEqual(live.current, { context: { used: 3000, size: 200_000 }, cost: null });
  });

  it("sends what the running turn has added to the session's cost, from the agent's running total", () => {
    const { live, sent, clock } = liveUsage();
    // Said before the turn: what the earlier turns cost.
    live.update(undefined, usd(0.5));
    clock.advance(FRAME_MS);
    live.turnStarted();
    live.update({ used: 3000, size: 200_000 }, usd(0.52));
    clock.advance(FRAME_MS);
    live.update(undefined, usd(0.55));
    clock.advance(FRAME_MS);
    assert.deepEqual(
      sent.map((now) => now.cost?.amount.toFixed(2) ?? null),
      ["0.02", "0.05"],
      "a cost said between turns is no turn's, and the views need not hear of it",
    );
    assert.deepEqual(live.current?.context, { used: 3000, size: 200_000 }, "an update that says only the cost keeps the context said");
  });

  it("lets go of the turn's cost at its end, whatever its usage says: the turn's own figures take over", () => {
    const { live, sent, clock } = liveUsage();
    live.turnStarted();
    live.update(undefined, usd(0.02));
    clock.advance(FRAME_MS);
    live.turnEnded(usage(null, usd(0.02)));
    assert.deepEqual(sent, [{ context: null, cost: usd(0.02) }, { context: null, cost: null }]);
    assert.equal(live.current, null);
    // The next turn counts from the total said last.
    live.turnStarted();
    live.update(undefined, usd(0.03));
    clock.advance(FRAME_MS);
    assert.equal(sent.at(-1)?.cost?.amount.toFixed(2), "0.01");
  });

  it("says no cost for the turn when the agent's currency changed mid-session", () => {
    const { live, sent, clock } = liveUsage();
    live.update(undefined, usd(0.5));
    live.turnStarted();
    live.update({ used: 3000, size: 200_000 }, { amount: 0.6, currency: "EUR" });
    clock.advance(FRAME_MS);
    assert.deepEqual(sent, [{ context: { used: 3000, size: 200_000 }, cost: null }]);
  });

  it("sends nothing after it was disposed", () => {
    const { live, sent, clock } = liveUsage();
    live.update({ used: 3000, size: 200_000 }, usd(0.1));
    live.dispose();
    clock.advance(FRAME_MS * 10);
    assert.deepEqual(sent, []);
  });
});
