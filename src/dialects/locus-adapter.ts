// Protocol 1 as specified: validate each value against its type's zod schema.
import { EVENT_SCHEMAS, PROTOCOL_VERSION, isCliEventType } from "../protocol/events";
import { describeIssues, typeName } from "../protocol/describe-issue";
import type { DecodedItem, DialectAdapter } from "./dialect";

export class LocusAdapter implements DialectAdapter {
  readonly dialect = "locus";
  private reportedProtocol = false;

  decode(value: unknown): DecodedItem[] {
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return [malformed(`expected a JSON object, got ${typeName(value)}`)];
    }
    const record = value as Record<string, unknown>;
    const items: DecodedItem[] = [];
    const newerProtocol = this.checkProtocol(record.protocol);
    if (newerProtocol) items.push(newerProtocol);

    const type = record.type;
    if (typeof type !== "string") {
      items.push(malformed(type === undefined ? "type: missing, expected string" : `type: expected string, got ${typeName(type)}`));
      return items;
    }
    if (!isCliEventType(type)) {
      items.push({ kind: "problem", code: "UNKNOWN_EVENT_TYPE", message: `unknown event type ${JSON.stringify(type)} skipped` });
      return items;
    }
    const result = EVENT_SCHEMAS[type].safeParse(value);
    items.push(result.success ? { kind: "event", event: result.data } : malformed(describeIssues(result.error.issues, value)));
    return items;
  }

  /** A newer protocol is reported once; its events are still decoded as far as protocol 1's envelope allows. */
  private checkProtocol(protocol: unknown): DecodedItem | undefined {
    if (this.reportedProtocol || typeof protocol !== "number" || protocol <= PROTOCOL_VERSION) return undefined;
    this.reportedProtocol = true;
    return {
      kind: "problem",
      code: "UNSUPPORTED_PROTOCOL",
      message: `stream uses protocol ${protocol}; this version of Agent Stream understands protocol ${PROTOCOL_VERSION} and decodes what it can`,
    };
  }
}

function malformed(message: string): DecodedItem {
  return { kind: "problem", code: "MALFORMED_EVENT", message };
}
