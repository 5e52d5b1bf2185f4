// The `auto` dialect: reads the first values of a stream until one dialect recognises one as its own, then hands
// everything (those first values included, in order) to that dialect's adapter. A stream no dialect claims is read
// as protocol-1 Locus, the primary contract, which then reports exactly what is wrong with it.
import type { AdapterOutput, DialectAdapter, DialectDefinition, StreamEnding } from "./dialect";
import { readObject } from "./kit/cli-line";

/** Values looked at before giving up on recognising the stream (CLIs say who they are in their first lines). */
export const MAX_UNRECOGNIZED_VALUES = 16;

export class AutoAdapter implements DialectAdapter {
  private chosen: DialectAdapter | undefined;
  private waiting: unknown[] = [];

  constructor(
    private readonly candidates: readonly DialectDefinition[],
    private readonly fallback: DialectDefinition,
  ) {}

  /** The detected dialect's name once known; "auto" until then. */
  get dialect(): string {
    return this.chosen?.dialect ?? "auto";
  }

  decode(value: unknown, out: AdapterOutput): void {
    if (this.chosen !== undefined) {
      this.chosen.decode(value, out);
      return;
    }
    const record = readObject(value, out);
    if (record === undefined) return;
    const match = this.candidates.find((candidate) => candidate.recognizes(record));
    this.waiting.push(value);
    if (match !== undefined) this.choose(match, out);
    else if (this.waiting.length >= MAX_UNRECOGNIZED_VALUES) this.choose(this.fallback, out);
  }

  end(out: AdapterOutput, ending: StreamEnding | null): void {
    if (this.chosen === undefined) this.choose(this.fallback, out);
    this.chosen!.end?.(out, ending);
  }

  private choose(definition: DialectDefinition, out: AdapterOutput): void {
    const adapter = definition.create();
    this.chosen = adapter;
    const waiting = this.waiting;
    this.waiting = [];
    for (const value of waiting) adapter.decode(value, out);
  }
}
