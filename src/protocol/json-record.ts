// The one test every reader of a CLI's JSON makes first: is this value an object with fields (not null, not an array)?

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
