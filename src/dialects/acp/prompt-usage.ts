// The token counts an agent gives in its answer to `session/prompt` (ACP's unstable `usage`, which claude-agent-acp
// sends), read once for the live client's wire and a recorded log: the SDK's stable schema drops them.
import * as z from "zod/mini";
import type { TurnUsage } from "../../protocol/usage";

/** A whole count within what a JSON number holds exactly (`z.int()` is a safe integer). */
const Tokens = z.number().check(z.int(), z.nonnegative());
const PromptUsage = z.object({
  inputTokens: Tokens,
  outputTokens: Tokens,
  cachedReadTokens: z.optional(z.nullable(Tokens)),
  cachedWriteTokens: z.optional(z.nullable(Tokens)),
});

export type PromptTokens = Pick<TurnUsage, "inputTokens" | "outputTokens" | "cacheReadTokens">;

/** The turn's tokens from the answer's `usage`; undefined when it has none, or one the agent got wrong (no guess). */
export function promptTokens(usage: unknown): PromptTokens | undefined {
  const read = PromptUsage.safeParse(usage);
  if (!read.success) return undefined;
  const { inputTokens, outputTokens, cachedReadTokens, cachedWriteTokens } = read.data;
  // ACP's `inputTokens` leaves out the prompt's cached part, which the meter counts as input too.
  return { inputTokens: inputTokens + (cachedReadTokens ?? 0) + (cachedWriteTokens ?? 0), outputTokens, cacheReadTokens: cachedReadTokens ?? null };
}
