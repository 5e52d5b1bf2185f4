// What a turn used, as its agent counted it: tokens in and out, what it cost, and how full the model's context is.
// One shape for every dialect, so the meter, `ask` and `transcript --format json` read the same whichever agent ran.
import * as z from "zod/mini";

const Count = z.number().check(z.nonnegative());

/** A cost in the agent's currency ("USD" for every agent so far), as it said it. */
export const UsageCostSchema = z.object({ amount: z.number().check(z.nonnegative()), currency: z.string().check(z.minLength(1), z.maxLength(16)) });
export type UsageCost = z.infer<typeof UsageCostSchema>;

/** Each figure is null where the agent did not say it. */
export const TurnUsageSchema = z.object({
  /** Every token of the prompts the turn sent, those read from a cache included. */
  inputTokens: z.nullable(Count),
  outputTokens: z.nullable(Count),
  /** The part of `inputTokens` read from the provider's prompt cache. */
  cacheReadTokens: z.nullable(Count),
  cost: z.nullable(UsageCostSchema),
  /** Tokens in the model's context window after the turn, and the window's size. */
  contextUsed: z.nullable(Count),
  contextSize: z.nullable(Count),
});
export type TurnUsage = z.infer<typeof TurnUsageSchema>;

/**
 * A turn's usage from the figures a dialect found; undefined when it found none, so `done` carries no empty usage. A
 * figure that does not fit (a negative count, a currency of a hundred characters) is left out, not the turn's end.
 */
export function turnUsage(figures: Partial<TurnUsage>): TurnUsage | undefined {
  const cost = figures.cost ?? null;
  const usage: TurnUsage = {
    inputTokens: fitting(figures.inputTokens),
    outputTokens: fitting(figures.outputTokens),
    cacheReadTokens: fitting(figures.cacheReadTokens),
    cost: cost !== null && UsageCostSchema.safeParse(cost).success ? { amount: cost.amount, currency: cost.currency } : null,
    contextUsed: fitting(figures.contextUsed),
    contextSize: fitting(figures.contextSize),
  };
  return Object.values(usage).every((figure) => figure === null) ? undefined : usage;
}

/** A cost in US dollars, the currency of every CLI that gives a bare number (`total_cost_usd`, pi's `cost.total`). */
export function dollars(amount: number | undefined): UsageCost | undefined {
  return amount === undefined ? undefined : { amount, currency: "USD" };
}

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

function fitting(count: number | null | undefined): number | null {
  return count !== null && count !== undefined && Count.safeParse(count).success ? count : null;
}

function sum(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : a + b;
}

function addCost(a: UsageCost | null, b: UsageCost | null): UsageCost | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.currency === b.currency ? { amount: a.amount + b.amount, currency: a.currency } : null;
}
