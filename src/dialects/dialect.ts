// What every dialect adapter is: one parsed JSON value of a CLI's stream in, canonical protocol-1 events out.
// Adapters are pure: no I/O, no timers; per-stream state lives in the adapter object.
import type { CliStreamEvent } from "../protocol/events";
import type { ProblemCode } from "../protocol/transcript";

export type DecodedItem =
  | { readonly kind: "event"; readonly event: CliStreamEvent }
  | { readonly kind: "problem"; readonly code: ProblemCode; readonly message: string };

export interface DialectAdapter {
  readonly dialect: string;
  decode(value: unknown): DecodedItem[];
}
