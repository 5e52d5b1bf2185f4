// One way for every suite to wait for a fact that no event announces (a process gone, a file written, a record made
// by another process): poll it until it holds, or fail naming what was awaited once the deadline passes. Never a
// sleep standing in for an event: the poll ends the moment the fact holds.

/** How often a fact is checked again; short enough to add nothing a person would notice to a test's time. */
const POLL_MS = 20;

/** What `eventually` rejects with once its deadline passes: a caller that reports what is left can tell it apart. */
export class TimedOut extends Error {}

/**
 * Resolves with `check`'s first value other than `undefined` or `false` (so a finder's result can be returned), or
 * rejects with "timed out after N ms waiting for <what>" once `deadlineMs` has passed without one.
 */
export async function eventually<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  deadlineMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() >= deadline) throw new TimedOut(`timed out after ${deadlineMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
