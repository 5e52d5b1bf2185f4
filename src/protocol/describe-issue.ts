// Turns zod issues into one short sentence a CLI author can act on: "payload.exitCode: expected number, got string".
import type * as z from "zod/mini";

const MAX_ISSUES = 3;

export function describeIssues(issues: readonly z.core.$ZodIssue[], input: unknown): string {
  const described = issues.slice(0, MAX_ISSUES).map((issue) => describeIssue(issue, input));
  const more = issues.length - described.length;
  return described.join("; ") + (more > 0 ? ` (and ${more} more)` : "");
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const where = formatPath(issue.path);
  const prefix = where ? `${where}: ` : "";
  const actual = valueAt(input, issue.path);
  switch (issue.code) {
    case "invalid_type":
      // zod reports 1.5 for an int field as the wrong type; "expected int, got number" would read as a contradiction.
      if (actual.present && issue.expected === "int" && typeof actual.value === "number") {
        return `${prefix}expected an integer, got ${preview(actual.value)}`;
      }
      return wrongType(prefix, expectedName(issue.expected), actual);
    case "custom":
      // A check that names what it accepts ("non-negative integer") is worded like a wrong type.
      if (typeof issue.params?.expected === "string") return wrongType(prefix, issue.params.expected, actual);
      return `${prefix}${issue.message}`;
    case "invalid_value":
      return `${prefix}expected ${issue.values.map((v) => JSON.stringify(v)).join(" | ")}, got ${preview(actual.value)}`;
    default:
      return `${prefix}${issue.message}`;
  }
}

function wrongType(prefix: string, expected: string, actual: { present: boolean; value: unknown }): string {
  return actual.present ? `${prefix}expected ${expected}, got ${typeName(actual.value)}` : `${prefix}missing, expected ${expected}`;
}

/** zod's "record" is what a CLI author calls an object. */
function expectedName(expected: string): string {
  return expected === "record" ? "object" : expected;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += (out ? "." : "") + String(key);
  }
  return out;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): { present: boolean; value: unknown } {
  let current: unknown = input;
  for (const key of path) {
    if (current === null || typeof current !== "object" || !Object.prototype.hasOwnProperty.call(current, key)) {
      return { present: false, value: undefined };
    }
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return { present: true, value: current };
}

export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isNaN(value)) return "NaN";
  return typeof value;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? text.slice(0, 37) + "..." : text;
}
