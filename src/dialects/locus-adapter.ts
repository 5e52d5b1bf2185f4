// Protocol 1 as specified: validate each value against its type's zod schema.
import * as z from "zod/mini";
import { EVENT_SCHEMAS, type CliEventType, type CliStreamEvent } from "../protocol/events";
import { PROTOCOL_VERSION } from "../protocol/version";
import { describeIssues } from "../protocol/describe-issue";
import type { AdapterOutput, DialectAdapter } from "./dialect";
import { readObject, readType } from "./kit/cli-line";

/**
 * The same schemas, compiled ahead of time by zod into plain checks (about ten times faster on the hot path), by type.
 * Where code generation is not allowed, z.compile hands back the schema itself, which answers the same. A map, because
 * a type read from JSON is a new string each line: one lookup both knows the type and finds its check.
 */
const COMPILED_SCHEMAS: ReadonlyMap<string, z.ZodMiniType<CliStreamEvent>> = new Map(
  Object.entries(EVENT_SCHEMAS).map(([type, schema]) => [type, z.compile(schema as z.ZodMiniType<CliStreamEvent>)]),
);

export class LocusAdapter implements DialectAdapter {
  readonly dialect = "locus";
  private reportedProtocol = false;

  decode(value: unknown, out: AdapterOutput): void {
    const record = readObject(value, out);
    if (record === undefined) return;
    this.checkProtocol(record.protocol, out);
    const type = readType(record, out);
    if (type === undefined) return;
    const compiled = COMPILED_SCHEMAS.get(type);
    if (compiled === undefined) {
      out.problem("UNKNOWN_EVENT_TYPE", `unknown event type ${JSON.stringify(type)} skipped`);
      return;
    }
    // The check copies nothing; only a line that fails is parsed again, to say why.
    if (z.validate(compiled, value)) {
      out.event(value as CliStreamEvent);
      return;
    }
    const result = EVENT_SCHEMAS[type as CliEventType].safeParse(value);
    if (result.success) out.event(result.data);
    else out.problem("MALFORMED_EVENT", describeIssues(result.error.issues, value));
  }

  /** A newer protocol is reported once; its events are still decoded as far as protocol 1's envelope allows. */
  private checkProtocol(protocol: unknown, out: AdapterOutput): void {
    if (this.reportedProtocol || typeof protocol !== "number" || protocol <= PROTOCOL_VERSION) return;
    this.reportedProtocol = true;
    out.problem(
      "UNSUPPORTED_PROTOCOL",
      `stream uses protocol ${protocol}; this version of Agent Stream understands protocol ${PROTOCOL_VERSION} and decodes what it can`,
    );
  }
}
