// A session's usage from its turns': tokens and costs added up, the context as it was last said. Plain code (the
// schema is the protocol's), so the webview's bundle adds it up without zod.
import type { ContextUse, TurnUsage, UsageCost } from "../protocol/usage";

/**
 * Two spans' usage as one: tokens and cost added up, the context as the later one last said it. Costs in two
 * currencies do not add up, so their sum is not known.
 */
export function addUsage(earlier: TurnUsage, later: TurnUsage): TurnUsage {
  return {
    inputTokens: sum(earlier.inputTokens, later.inputTokens),
    outputTokens: sum(earlier.outputTokens, later.outputTokens),
    cacheReadTokens: sum(earlier.cacheReadTokens, later.cacheReadTokens),
    cost: addCost(earlier.cost, later.cost),
    contextUsed: later.contextUsed ?? earlier.contextUsed,
    contextSize: later.contextUsed !== null ? later.contextSize : (later.contextSize ?? earlier.contextSize),
  };
}

/** The session's usage: its turns' added up (null when no turn said any). */
export function totalUsage(usages: Iterable<TurnUsage | null>): TurnUsage | null {
  let total: TurnUsage | null = null;
  for (const usage of usages) {
    if (usage !== null) total = total === null ? usage : addUsage(total, usage);
  }
  return total;
}

function sum(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : a + b;
}

function addCost(a: UsageCost | null, b: UsageCost | null): UsageCost | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.currency === b.currency ? { amount: a.amount + b.amount, currency: a.currency } : null;
}

/** What a session's cost grew by since `before`; unknown when the currency changed or the agent said no cost. */
export function costAdded(before: UsageCost | null, now: UsageCost | null): UsageCost | undefined {
  if (now === null) return undefined;
  if (before === null) return { ...now };
  if (before.currency !== now.currency) return undefined;
  return { amount: Math.max(0, now.amount - before.amount), currency: now.currency };
}

/**
 * The session's usage with what the agent said since its last turn ended (mid-turn), the later word: how full the
 * context is, and what the running turn has cost so far.
 */
export function withUsageNow(total: TurnUsage | null, context: ContextUse | null, cost: UsageCost | null): TurnUsage | null {
  if (context === null && cost === null) return total;
  const now: TurnUsage = { inputTokens: null, outputTokens: null, cacheReadTokens: null, cost, contextUsed: context?.used ?? null, contextSize: context?.size ?? null };
  return total === null ? now : addUsage(total, now);
}
