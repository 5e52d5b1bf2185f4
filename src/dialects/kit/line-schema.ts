// Validate at the boundary, then translate typed values: an adapter states each kind of line it reads as a zod/mini
// schema, and its handler gets the line typed, or the line's problem in describeIssues' words. The schemas are
// compiled (as protocol 1's are, events.ts) so a text delta costs a few plain checks; only a line that fails is
// parsed again by zod, to say why.
import * as z from "zod/mini";
import { describeIssues } from "../../protocol/describe-issue";
import { isRecord } from "../../protocol/json-record";
import type { AdapterOutput } from "../dialect";
import { openLine, reportVerdict, type CliLine, type Json, type Verdict } from "./cli-line";

/** A line that failed its schema: what is wrong with it, the field named. */
export class Malformed {
  constructor(readonly message: string) {}
}

export class LineSchema<T> {
  private readonly compiled: z.ZodMiniType<T>;

  constructor(private readonly schema: z.ZodMiniType<T>) {
    this.compiled = z.compile(schema);
  }

  /**
   * Whether the value passes: for a fast path that falls back to `read`. Give such a gate zod's own checks only
   * (`gateIndex`, not `index`): zod cannot be sure a check of ours would not have thrown, so when one is in the
   * schema it parses every rejected value a second time, on its slow path, before it answers false.
   */
  matches(value: unknown): value is T {
    return z.validate(this.compiled, value);
  }

  /**
   * The value, typed, when it passes (the same object: nothing is copied); otherwise its first issue, described
   * against `root` with the issue's path under `path` (a block of a line is named from the line's top).
   */
  read(value: unknown, root: unknown = value, path: readonly PropertyKey[] = []): T | Malformed {
    if (z.validate(this.compiled, value)) return value as T;
    const result = this.schema.safeParse(value);
    if (result.success) return value as T;
    // The first thing wrong, as the adapters have always said it: one field, the one a reader meets first.
    const [first] = result.error.issues;
    return new Malformed(describeIssues([{ ...first, path: [...path, ...first.path] }], root));
  }
}

export function lineSchema<S extends z.ZodMiniType>(schema: S): LineSchema<z.output<S>> {
  return new LineSchema<z.output<S>>(schema as z.ZodMiniType<z.output<S>>);
}

type Handler<T> = (line: T, out: AdapterOutput) => Verdict;

/**
 * The kinds of line an adapter reads, each with its schema and typed handler (the ACP SDK's "validate, then typed
 * handler"). A kind not in the table carries nothing to show and is skipped.
 */
export class LineTable {
  private readonly routes = new Map<string, (value: Json, out: AdapterOutput) => Verdict>();
  private other: ((value: Json, out: AdapterOutput) => Verdict) | undefined;

  on<T>(kind: string, schema: LineSchema<T>, handle: Handler<T>): this {
    this.routes.set(kind, (value, out) => {
      const line = schema.read(value);
      return line instanceof Malformed ? line.message : handle(line, out);
    });
    return this;
  }

  /** The same handler for several kinds. */
  onEach<T>(kinds: readonly string[], schema: LineSchema<T>, handle: Handler<T>): this {
    for (const kind of kinds) this.on(kind, schema, handle);
    return this;
  }

  /** What a kind not in the table does (by default, nothing). */
  otherwise(handle: (value: Json, out: AdapterOutput) => Verdict): this {
    this.other = handle;
    return this;
  }

  decode(kind: string, value: Json, out: AdapterOutput): Verdict {
    return (this.routes.get(kind) ?? this.other)?.(value, out);
  }

  /**
   * A whole line of the stream: opened (an object with a string `type`), then `before` (what any line means, as
   * "the CLI went on"), then its kind's handler; what is wrong with it is reported as the line's problem.
   */
  decodeLine(value: unknown, out: AdapterOutput, before?: (line: CliLine) => void): void {
    const line = openLine(value, out);
    if (line === undefined) return;
    before?.(line);
    reportVerdict(out, line.type, this.decode(line.type, line, out));
  }
}

/** A field checked by a test of ours, named in the words a message gives: "expected non-negative integer". */
export function accepted<T>(expected: string, test: (value: unknown) => value is T): z.ZodMiniType<T> {
  return z.custom<T>(test, { params: { expected } });
}

export function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

export function isIndex(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

export function isExitCode(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 255;
}

/** A token count, a cost, a duration. */
export const count = accepted("non-negative number", isCount);
/** A position in a list (a content block's index). */
export const index = accepted("non-negative integer", isIndex);
/**
 * The same rule (up to 2^53) in zod's own checks, for a `matches` gate: what it rejects takes the general path,
 * which reads `index` and words its problem.
 */
export const gateIndex = z.number().check(z.int(), z.nonnegative());
export const exitCode = accepted("integer from 0 to 255", isExitCode);
/** Any JSON object (a tool's parameters): its fields are the tool's business. */
export const object = accepted("object", isRecord);

/** The typed line a schema lets through. */
export type LineOf<S> = S extends LineSchema<infer T> ? T : never;

/** A figure the CLI may give in any shape: used when it is a count, ignored (not reported) when it is not. */
export function countOrNone(value: unknown): number | undefined {
  return isCount(value) ? value : undefined;
}
