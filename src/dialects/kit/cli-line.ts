// What every adapter of another CLI's stream does with a line before it knows the line's kind: it must be a JSON
// object with a string `type`. Said here once, so every dialect words a line that is not one the same way.
import { typeName } from "../../protocol/describe-issue";
import { isRecord, type JsonRecord } from "../../protocol/json-record";
import type { AdapterOutput } from "../dialect";

export type Json = JsonRecord;

/** A line that is an object and says its kind. */
export type CliLine = Json & { readonly type: string };

/** What a decoder of one kind of line returns: nothing, or what is wrong with the line (a field named). */
export type Verdict = string | undefined;

/** The value as an object, or undefined after saying that it is none. */
export function readObject(value: unknown, out: AdapterOutput): Json | undefined {
  if (isRecord(value)) return value;
  out.problem("MALFORMED_EVENT", `expected a JSON object, got ${typeName(value)}`);
  return undefined;
}

/** The object's string `type`, or undefined after saying what is wrong with it. */
export function readType(record: Json, out: AdapterOutput): string | undefined {
  if (typeof record.type === "string") return record.type;
  out.problem("MALFORMED_EVENT", wrongType("type", "string", record.type));
  return undefined;
}

/** The opening of every adapter's decode: the line as an object with a string type, or undefined once reported. */
export function openLine(value: unknown, out: AdapterOutput): CliLine | undefined {
  const record = readObject(value, out);
  if (record === undefined || readType(record, out) === undefined) return undefined;
  return record as CliLine;
}

/** A decoder's verdict on a line of this kind, reported as the line's problem. */
export function reportVerdict(out: AdapterOutput, type: string, verdict: Verdict): void {
  if (verdict !== undefined) out.problem("MALFORMED_EVENT", `${type}: ${verdict}`);
}

/**
 * For the few rules a schema does not state (a field the line needs only in some cases): worded as describeIssues
 * words a schema's issue, so every message about a line reads alike.
 */
export function wrongType(path: string, expected: string, actual: unknown): string {
  return actual === undefined ? `${path}: missing, expected ${expected}` : `${path}: expected ${expected}, got ${typeName(actual)}`;
}

/** The words of a tool's result: a string, or the text of its blocks (`[{type: "text", text}]`), one a line. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.flatMap((block) => (isRecord(block) && typeof block.text === "string" ? [block.text] : [])).join("\n");
}
