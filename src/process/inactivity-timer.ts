// Fires once after a stretch of unpaused time with no recorded activity.
import { realScheduler, type ScheduledCall, type Scheduler } from "./scheduler";

/** setTimeout's largest delay: a longer one fires after 1 ms instead (with a TimeoutOverflowWarning). */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

export class InactivityTimer {
  private lastActivity: number;
  private pausedAt: number | undefined;
  private timer: ScheduledCall | undefined;
  private disposed = false;

  private constructor(
    private readonly limitMs: number,
    private readonly onInactive: () => void,
    private readonly scheduler: Scheduler,
  ) {
    this.lastActivity = scheduler.now();
    this.arm(limitMs);
  }

  static start(limitMs: number, onInactive: () => void, scheduler: Scheduler = realScheduler): InactivityTimer {
    return new InactivityTimer(limitMs, onInactive, scheduler);
  }

  /** Cheap enough for every chunk: only a timestamp; the one timer re-arms itself when it wakes early. */
  recordActivity(): void {
    this.lastActivity = this.scheduler.now();
  }

  /** Paused time does not count: the other side is holding the data back, not the process. */
  pause(): void {
    if (this.disposed || this.pausedAt !== undefined) return;
    this.pausedAt = this.scheduler.now();
    this.clear();
  }

  resume(): void {
    if (this.disposed || this.pausedAt === undefined) return;
    this.lastActivity += this.scheduler.now() - this.pausedAt;
    this.pausedAt = undefined;
    this.arm(this.limitMs - this.idleMs());
  }

  dispose(): void {
    this.disposed = true;
    this.clear();
  }

  private idleMs(): number {
    return this.scheduler.now() - this.lastActivity;
  }

  private arm(delayMs: number): void {
    // Too long to time means off: armed, it would wake every millisecond and never fire.
    if (!(this.limitMs <= MAX_TIMER_DELAY_MS)) return;
    this.timer = this.scheduler.after(Math.max(1, Math.ceil(delayMs)), () => this.check());
  }

  private check(): void {
    this.timer = undefined;
    if (this.disposed || this.pausedAt !== undefined) return;
    const idle = this.idleMs();
    if (idle < this.limitMs) {
      this.arm(this.limitMs - idle);
      return;
    }
    this.disposed = true;
    this.onInactive();
  }

  private clear(): void {
    if (this.timer === undefined) return;
    this.timer.cancel();
    this.timer = undefined;
  }
}
