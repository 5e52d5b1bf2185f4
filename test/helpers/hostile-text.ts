// Agent text built to hurt a regular expression or a scan: long runs of one character, a pattern's prefix repeated
// without its suffix. Linear work on a megabyte takes milliseconds; the quadratic work these inputs were built
// against took minutes to hours, so a bound of a second tells the two apart on any machine without flaking. The time
// is this process's CPU time, which other work on a shared machine stretches far less than the time on the clock.
import * as assert from "node:assert/strict";

/** About a megabyte of text: far below the 16 MB a line may have, far above what quadratic work survives. */
export const HOSTILE_CHARS = 1 << 20;

/** How long one call on hostile text may take: linear work on a megabyte needs a tenth of it or less. */
export const HOSTILE_BOUND_MS = 1000;

/** `unit` repeated to `chars` characters (the last repeat may be cut). */
export function repeated(unit: string, chars = HOSTILE_CHARS): string {
  return unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
}

/** CPU milliseconds this process has spent since `started` (a `process.cpuUsage()`). */
export function cpuMsSince(started: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

/** Runs `call` once and fails, saying what it was given, when it took longer than the bound. */
export function assertQuickOn<T>(what: string, call: () => T, boundMs = HOSTILE_BOUND_MS): T {
  const started = process.cpuUsage();
  const result = call();
  const tookMs = cpuMsSince(started);
  assert.ok(tookMs < boundMs, `${what} took ${Math.round(tookMs)} ms of CPU time (bound ${boundMs} ms)`);
  return result;
}

/** The same for work that reads files first: the reading costs a few milliseconds of it. */
export async function assertQuickOnAsync<T>(what: string, call: () => Promise<T>, boundMs = HOSTILE_BOUND_MS): Promise<T> {
  const started = process.cpuUsage();
  const result = await call();
  const tookMs = cpuMsSince(started);
  assert.ok(tookMs < boundMs, `${what} took ${Math.round(tookMs)} ms of CPU time (bound ${boundMs} ms)`);
  return result;
}
