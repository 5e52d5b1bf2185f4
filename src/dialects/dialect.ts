// What every dialect adapter is: one parsed JSON value of a CLI's stream in, canonical protocol-1 events out.
// Adapters are pure: no I/O, no timers; per-stream state lives in the adapter object. They emit into a
// sink rather than return arrays because one value may become several events, and most become one.
import type { CliStreamEvent } from "../protocol/events";
import type { ProblemCode } from "../protocol/transcript";

export interface AdapterOutput {
  event(event: CliStreamEvent): void;
  problem(code: ProblemCode, message: string): void;
  /** Something read and ignored on purpose (a method or kind this version does not know): the log's trace level. */
  trace?(message: string): void;
}

/** How the stream ended: the CLI's exit, or null for a recorded stream (a file, stdin). */
export interface StreamEnding {
  exitCode: number | null;
  signal: string | null;
}

export interface DialectAdapter {
  readonly dialect: string;
  decode(value: unknown, out: AdapterOutput): void;
  /**
   * The stream ended and every line was decoded. A last chance to say what the CLI implied but never wrote, for
   * example that a CLI which exited 0 after a failed model call failed (an `error`, then `done`). The session
   * still makes up a missing `done` itself and says why; an adapter need not.
   */
  end?(out: AdapterOutput, ending: StreamEnding | null): void;
}

/**
 * A dialect as the registry knows it: its name, its line in the settings, how to make a fresh adapter, and how
 * `auto` recognises it.
 */
export interface DialectDefinition<Name extends string = string> {
  /** What `agentStream.dialect` and `--dialect` call it. */
  readonly name: Name;
  /** Its line in the settings' list of dialects (markdown): which CLI writes it, and how that CLI is started. */
  readonly summary: string;
  create(): DialectAdapter;
  /**
   * Whether this parsed value is one this dialect's CLI writes and the others do not: looked at for the first
   * values of a stream, in the registry's order, until one dialect claims one.
   */
  recognizes(value: Record<string, unknown>): boolean;
}

/** Keeps a dialect's name as its literal type, so the list of names is derived from the registry. */
export function defineDialect<const Name extends string>(definition: DialectDefinition<Name>): DialectDefinition<Name> {
  return definition;
}
