// The limits a run keeps whatever a setting or an option says: a timeout too long to time is off, and the line
// limit stays a limit. Shared by the editor's settings and `agent-stream`'s options, so both clamp alike.
import { MAX_TIMER_DELAY_MS } from "../process/inactivity-timer";

/**
 * The largest line limit. A line is decoded into one string before it is parsed, and V8 cannot make a string of
 * 2^29 − 24 characters (~512 MiB) or more; half of that leaves room for the copy the parse makes.
 */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

/** Milliseconds of silence before a run is stopped, 0 = off, or undefined for nonsense (negative, NaN). */
export function clampInactivityTimeoutMs(ms: number): number | undefined {
  if (Number.isNaN(ms) || ms < 0) return undefined;
  // setTimeout fires at once (and warns) for a longer delay; nobody waits 24.8 days for output, so it means "never".
  return ms > MAX_TIMER_DELAY_MS ? 0 : ms;
}

/** What a run stopped by its inactivity timeout says, a stream CLI's and an ACP agent's turn alike. */
export function inactivityTimeoutMessage(timeout: string): string {
  return `The CLI produced no output for ${timeout} and was stopped. Retry, or raise the inactivity timeout.`;
}

/** The longest line read, in whole bytes, at most MAX_LINE_BYTES; undefined for nonsense (below 1 byte, NaN). */
export function clampMaxLineBytes(bytes: number): number | undefined {
  if (!(bytes >= 1)) return undefined;
  return Math.min(Math.floor(bytes), MAX_LINE_BYTES);
}
