// How full the agent's context is while a turn runs: an ACP agent says it in `usage_update`s mid-turn, and the header
// shows it then rather than only at the turn's end. Sent at most once per interval, as a turn's changes are batched.
import type { ScheduledCall, Scheduler } from "../process/scheduler";
import type { ContextUse, TurnUsage } from "../protocol/usage";

export class LiveContext {
  /** As the agent said it since the last turn's end; null when that turn's usage says it (or nothing was said). */
  private said: ContextUse | null = null;
  private timer: ScheduledCall | undefined;

  constructor(
    private readonly send: (context: ContextUse | null) => void,
    private readonly scheduler: Scheduler,
    private readonly intervalMs: number,
  ) {}

  /** What a view that joins is told, after its snapshot. */
  get current(): ContextUse | null {
    return this.said;
  }

  /** The agent said it: sent with the interval's last word. */
  update(context: ContextUse): void {
    this.said = context;
    this.timer ??= this.scheduler.after(this.intervalMs, () => this.flush());
  }

  /** A turn ended: a context in its usage is the later word (one that says none leaves what the agent said). */
  turnEnded(usage: TurnUsage | null): void {
    if (usage?.contextUsed === null || usage?.contextUsed === undefined || this.said === null) return;
    this.said = null;
    this.flush();
  }

  dispose(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  private flush(): void {
    this.dispose();
    this.send(this.said);
  }
}
