// A usage's figures in words, compact for the chat's footer, header and `ask`, and in full for a tooltip and screen
// readers: one wording wherever they are shown.
import type { TurnUsage, UsageCost } from "../protocol/usage";

/** "950", "1.2k", "46k", "1.2M": a count that fits in a footer. */
export function compactCount(count: number): string {
  if (count < 1000) return String(Math.round(count));
  for (const [size, unit] of [
    [1e9, "G"],
    [1e6, "M"],
    [1e3, "k"],
  ] as const) {
    // 999,600 rounds to 1000k: it reads 1M.
    if (count < size * 0.9995) continue;
    const scaled = count / size;
    // One decimal while it says something ("1.2k"), none once the number is long enough ("46k").
    const text = scaled < 10 ? oneDecimal(scaled) : String(Math.round(scaled));
    return `${text}${unit}`;
  }
  return String(count);
}

/** "1.2", "3" (not "3.0"). */
function oneDecimal(value: number): string {
  const text = value.toFixed(1);
  return text.endsWith(".0") ? text.slice(0, -2) : text;
}

/** "$0.0174", "$1.24", "3.5 credits": the currency as the agent gives it, US dollars with their sign. */
export function costText(cost: UsageCost): string {
  const digits = cost.amount < 1 ? 4 : 2;
  const amount = cost.amount.toFixed(digits);
  return cost.currency.toUpperCase() === "USD" ? `$${amount}` : `${amount} ${cost.currency}`;
}

/** "23% of 200k context", "46k context" (no window said), or null when the agent said nothing of it. */
export function contextText(usage: TurnUsage): string | null {
  if (usage.contextUsed === null) return null;
  if (usage.contextSize === null || usage.contextSize === 0) return `${compactCount(usage.contextUsed)} context`;
  return `${contextPercent(usage.contextUsed, usage.contextSize)}% of ${compactCount(usage.contextSize)} context`;
}

/** The figures the agent said, compact: ["1.2k in", "340 out", "$0.0174", "23% of 200k context"]. */
export function usageFacts(usage: TurnUsage): string[] {
  const facts: string[] = [];
  if (usage.inputTokens !== null) facts.push(`${compactCount(usage.inputTokens)} in`);
  if (usage.outputTokens !== null) facts.push(`${compactCount(usage.outputTokens)} out`);
  if (usage.cost !== null) facts.push(costText(usage.cost));
  const context = contextText(usage);
  if (context !== null) facts.push(context);
  return facts;
}

/** The figures on one line, as `ask` prints a turn's and a markdown transcript shows it; null when the agent said none. */
export function usageLine(usage: TurnUsage): string | null {
  const facts = usageFacts(usage);
  return facts.length === 0 ? null : facts.join(" · ");
}

/** Every figure in full: "1,234 input tokens (900 from the cache), 340 output tokens, cost $0.0174, …". */
export function usageDetail(usage: TurnUsage): string {
  const parts: string[] = [];
  if (usage.inputTokens !== null) {
    const cached = usage.cacheReadTokens !== null && usage.cacheReadTokens > 0 ? ` (${whole(usage.cacheReadTokens)} from the cache)` : "";
    parts.push(`${whole(usage.inputTokens)} input tokens${cached}`);
  }
  if (usage.outputTokens !== null) parts.push(`${whole(usage.outputTokens)} output tokens`);
  if (usage.cost !== null) parts.push(`cost ${costText(usage.cost)}`);
  if (usage.contextUsed !== null) {
    parts.push(
      usage.contextSize === null || usage.contextSize === 0
        ? `${whole(usage.contextUsed)} tokens in the context`
        : `${whole(usage.contextUsed)} of ${whole(usage.contextSize)} context tokens used (${contextPercent(usage.contextUsed, usage.contextSize)}%)`,
    );
  }
  return parts.join(", ");
}

/** A whole percentage; a context that is used at all reads "<1", not 0. */
function contextPercent(used: number, size: number): string {
  const percent = (used / size) * 100;
  if (percent > 0 && percent < 1) return "<1";
  return String(Math.min(100, Math.round(percent)));
}

function whole(count: number): string {
  return Math.round(count).toLocaleString("en-US");
}
