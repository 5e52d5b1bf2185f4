// A clock that moves only when a test says so: "two timeouts later" costs nothing, and a timer that must not fire is
// proven silent over any stretch of time instead of a real sleep. Real processes still run in real time beside it.
import { MAX_TIMER_DELAY_MS } from "../../src/process/inactivity-timer";
import type { ScheduledCall, Scheduler } from "../../src/process/scheduler";

interface Call {
  at: number;
  /** Calls due at the same time run in the order they were made, as Node's timers do. */
  order: number;
  callback: () => void;
}

export class VirtualScheduler implements Scheduler {
  private time = 0;
  private made = 0;
  private calls: Call[] = [];

  now(): number {
    return this.time;
  }

  after(ms: number, callback: () => void): ScheduledCall {
    // Node would fire such a delay after 1 ms: a bug in the code under test, not a wait.
    if (!(ms >= 0 && ms <= MAX_TIMER_DELAY_MS)) throw new Error(`a delay setTimeout cannot wait: ${ms} ms`);
    const call: Call = { at: this.time + Math.max(1, ms), order: this.made++, callback };
    this.calls.push(call);
    return {
      cancel: () => {
        this.calls = this.calls.filter((c) => c !== call);
      },
    };
  }

  /** Moves the clock `ms` on, calling every call that falls due on the way at its own time, the ones they make too. */
  advance(ms: number): void {
    const until = this.time + ms;
    for (let next = this.nextDue(until); next !== undefined; next = this.nextDue(until)) {
      this.calls = this.calls.filter((c) => c !== next);
      this.time = next.at;
      next.callback();
    }
    this.time = until;
  }

  /** How many calls wait to be made. */
  get waiting(): number {
    return this.calls.length;
  }

  private nextDue(until: number): Call | undefined {
    let first: Call | undefined;
    for (const call of this.calls) {
      if (call.at <= until && (first === undefined || call.at < first.at || (call.at === first.at && call.order < first.order))) first = call;
    }
    return first;
  }
}
