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

/** How full the model's context is as the agent just said it (ACP `usage_update`): the tokens in it, the window's size. */
export const ContextUseSchema = z.object({ used: Count, size: Count });
export type ContextUse = z.infer<typeof ContextUseSchema>;

/** The context as the agent said it, or undefined for figures that do not fit (a negative count). */
export function contextUse(used: number, size: number): ContextUse | undefined {
  const read = ContextUseSchema.safeParse({ used, size });
  return read.success ? read.data : undefined;
}

/** The cost as the agent said it, or null for one that does not fit (a negative amount, a currency of a hundred characters). */
export function usageCost(cost: UsageCost | null | undefined): UsageCost | null {
  const read = UsageCostSchema.safeParse(cost);
  return read.success ? { amount: read.data.amount, currency: read.data.currency } : null;
}

/**
 * A turn's usage from the figures a dialect found; undefined when it found none, so `done` carries no empty usage. A
 * figure that does not fit (a negative count, a currency of a hundred characters) is left out, not the turn's end.
 */
export function turnUsage(figures: Partial<TurnUsage>): TurnUsage | undefined {
  const usage: TurnUsage = {
    inputTokens: fitting(figures.inputTokens),
    outputTokens: fitting(figures.outputTokens),
    cacheReadTokens: fitting(figures.cacheReadTokens),
    cost: usageCost(figures.cost),
    contextUsed: fitting(figures.contextUsed),
    contextSize: fitting(figures.contextSize),
  };
  return Object.values(usage).every((figure) => figure === null) ? undefined : usage;
}

/** A cost in US dollars, the currency of every CLI that gives a bare number (`total_cost_usd`, pi's `cost.total`). */
export function dollars(amount: number | undefined): UsageCost | undefined {
  return amount === undefined ? undefined : { amount, currency: "USD" };
}

function fitting(count: number | null | undefined): number | null {
  return count !== null && count !== undefined && Count.safeParse(count).success ? count : null;
}
