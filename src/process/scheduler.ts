// Time as the code that waits sees it: a clock, and a call some milliseconds from now. The product runs on the real
// clock and timers; a test passes a virtual one, and proves that a timer fired or did not without waiting for it.
import { performance } from "node:perf_hooks";

export interface Scheduler {
  /** Milliseconds on a clock that only moves forward (not the time of day). */
  now(): number;
  /** Calls `callback` once, `ms` from now, unless cancelled first. `unref`: the wait alone does not keep Node running. */
  after(ms: number, callback: () => void, options?: { unref?: boolean }): ScheduledCall;
}

export interface ScheduledCall {
  /** Nothing happens if it was made or cancelled already. */
  cancel(): void;
}

export const realScheduler: Scheduler = {
  now: () => performance.now(),
  after(ms, callback, options) {
    const timer = setTimeout(callback, ms);
    if (options?.unref === true) timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};
