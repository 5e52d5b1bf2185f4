// How full the agent's context is while a turn runs, as the views hear it: batched, and let go when a turn's usage
// says it.
import * as assert from "node:assert/strict";
import { LiveContext } from "../../../src/panel/live-context";
import type { ContextUse, TurnUsage } from "../../../src/protocol/usage";
import { VirtualScheduler } from "../../helpers/virtual-scheduler";

const FRAME_MS = 16;
const usage = (contextUsed: number | null): TurnUsage => ({ inputTokens: 10, outputTokens: 2, cacheReadTokens: null, cost: null, contextUsed, contextSize: contextUsed === null ? null : 200_000 });

function liveContext(): { live: LiveContext; sent: (ContextUse | null)[]; clock: VirtualScheduler } {
  const sent: (ContextUse | null)[] = [];
  const clock = new VirtualScheduler();
  return { live: new LiveContext((context) => sent.push(context), clock, FRAME_MS), sent, clock };
}

describe("LiveContext", () => {
  it("sends what the agent said last within a frame, once the frame is over", () => {
    const { live, sent, clock } = liveContext();
    live.update({ used: 1000, size: 200_000 });
    live.update({ used: 3000, size: 200_000 });
    assert.deepEqual(sent, []);
    clock.advance(FRAME_MS);
    assert.deepEqual(sent, [{ used: 3000, size: 200_000 }]);
    assert.deepEqual(live.current, { used: 3000, size: 200_000 });
  });

  it("lets go of it when a turn ends with a context of its own, and tells the views at once", () => {
    const { live, sent, clock } = liveContext();
    live.update({ used: 3000, size: 200_000 });
    clock.advance(FRAME_MS);
    live.turnEnded(usage(3000));
    assert.deepEqual(sent, [{ used: 3000, size: 200_000 }, null]);
    assert.equal(live.current, null);
  });

  it("keeps it when the turn's end says no context (a failed turn, an agent that counts only tokens)", () => {
    const { live, sent, clock } = liveContext();
    live.update({ used: 3000, size: 200_000 });
    clock.advance(FRAME_MS);
    live.turnEnded(usage(null));
    live.turnEnded(null);
    assert.deepEqual(sent, [{ used: 3000, size: 200_000 }]);
    assert.deepEqual(live.current, { used: 3000, size: 200_000 });
  });

  it("sends nothing after it was disposed", () => {
    const { live, sent, clock } = liveContext();
    live.update({ used: 3000, size: 200_000 });
    live.dispose();
    clock.advance(FRAME_MS * 10);
    assert.deepEqual(sent, []);
  });
});
