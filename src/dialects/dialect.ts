// What every dialect adapter is: one parsed JSON value of a CLI's stream in, canonical protocol-1 events out.
// Adapters are pure: no I/O, no timers; per-stream state lives in the adapter object. They emit into a
// sink rather than return arrays because one value may become several events, and most become one.
import type { CliStreamEvent } from "../protocol/events";
import type { ProblemCode } from "../protocol/transcript";

export interface AdapterOutput {
  event(event: CliStreamEvent): void;
  problem(code: ProblemCode, message: string): void;
}

export interface DialectAdapter {
  readonly dialect: string;
  decode(value: unknown, out: AdapterOutput): void;
}
