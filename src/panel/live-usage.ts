// The header's usage while a turn runs: an ACP agent says how full its context is, and the session's cost so far, in
// `usage_update`s mid-turn, and the header shows them then rather than only at the turn's end. Sent at most once per
// interval, as a turn's changes are batched.
import type { ScheduledCall, Scheduler } from "../process/scheduler";
import type { ContextUse, TurnUsage, UsageCost } from "../protocol/usage";
import { costAdded } from "../common/usage-totals";

/**
 * What the agent said since the last turn's end: how full the context is, and what the running turn has added to the
 * session's cost. Each is null once that turn's usage says it (or while nothing was said).
 */
export interface UsageNow {
  readonly context: ContextUse | null;
  readonly cost: UsageCost | null;
}

export class LiveUsage {
  private said: UsageNow = { context: null, cost: null };
  /** The session's cost as the agent last said it (a running total), and as it was when the running turn began. */
  private sessionCost: UsageCost | null = null;
  private costBeforeTurn: UsageCost | null = null;
  private turnRunning = false;
  private timer: ScheduledCall | undefined;

  constructor(
    private readonly send: (now: UsageNow) => void,
    private readonly scheduler: Scheduler,
    private readonly intervalMs: number,
  ) {}

  /** What a view that joins is told, after its snapshot; null when nothing was said since the last turn's end. */
  get current(): UsageNow | null {
    return this.said.context === null && this.said.cost === null ? null : this.said;
  }

  /** A turn began: what the session's cost grows by from here on is the turn's. */
  turnStarted(): void {
    this.turnRunning = true;
    this.costBeforeTurn = this.sessionCost;
  }

  /**
   * The agent said it (`cost`: the session's whole cost so far, null when this update says none): sent with the
   * interval's last word. A cost said between turns is no turn's: the next one counts from it.
   */
  update(context: ContextUse | undefined, cost: UsageCost | null): void {
    if (cost !== null) this.sessionCost = cost;
    const turnCost = cost !== null && this.turnRunning ? (costAdded(this.costBeforeTurn, cost) ?? null) : this.said.cost;
    if (context === undefined && turnCost === this.said.cost) return;
    this.said = { context: context ?? this.said.context, cost: turnCost };
    this.timer ??= this.scheduler.after(this.intervalMs, () => this.flush());
  }

  /**
   * A turn ended: its usage is the later word. A context in it replaces the one said (one that says none leaves what
   * the agent said); the cost the turn added is its usage's now, whatever it says.
   */
  turnEnded(usage: TurnUsage | null): void {
    this.turnRunning = false;
    const context = usage?.contextUsed === null || usage?.contextUsed === undefined ? this.said.context : null;
    if (context === this.said.context && this.said.cost === null) return;
    this.said = { context, cost: null };
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
