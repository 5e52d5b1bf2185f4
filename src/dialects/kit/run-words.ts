// The statuses every dialect words alike (what a run cost, that a model call is tried again) and the clock that
// times a run: one wording for every CLI, so the panel reads the same whichever one ran.

/** "1,870 tokens · $0.0031": each figure the caller gives; a caller leaves out what its CLI does not count. */
export function usageMessage(figures: { tokens?: number; cost?: number }): string {
  const parts: string[] = [];
  if (figures.tokens !== undefined) parts.push(`${figures.tokens.toLocaleString("en-US")} tokens`);
  if (figures.cost !== undefined) parts.push(`$${figures.cost.toFixed(4)}`);
  return parts.join(" · ");
}

export interface Retry {
  /** Why the last attempt failed, in the CLI's words; a final full stop is dropped. */
  reason?: string;
  delayMs?: number;
  attempt?: number;
  maxAttempts?: number;
}

/** "The model request failed (HTTP 529, overloaded); retrying in 2.0 s (attempt 1 of 10)." */
export function retryMessage(retry: Retry): string {
  const why = retry.reason === undefined ? "" : ` (${retry.reason.replace(/\.$/, "")})`;
  const delay = retry.delayMs === undefined ? "" : ` in ${(retry.delayMs / 1000).toFixed(1)} s`;
  const attempt = retry.attempt === undefined ? "" : retry.maxAttempts === undefined ? ` (attempt ${retry.attempt})` : ` (attempt ${retry.attempt} of ${retry.maxAttempts})`;
  return `The model request failed${why}; retrying${delay}${attempt}.`;
}

/** How long a run took on our clock: from the first line it wrote (or the last restart) to now. */
export class Stopwatch {
  private startedAt: number | null = null;

  constructor(private readonly now: () => number) {}

  /** Starts the clock at the first call; later calls leave it running. */
  start(): void {
    this.startedAt ??= this.now();
  }

  restart(): void {
    this.startedAt = this.now();
  }

  elapsed(): number {
    return this.startedAt === null ? 0 : Math.max(0, this.now() - this.startedAt);
  }
}

/** Said in the turn when the agent runs in a mode in which nobody is asked before it acts (ACP's modes, Claude's). */
export function selfApprovingModeMessage(mode: { id: string; name: string }): string {
  return `The agent is in mode ${mode.name} (${mode.id}), in which it approves edits or commands by itself, without asking you.`;
}
