// One line of an agent's stdout → a JSON value safe for every reader after it, or why the line is refused. Every
// reader of agent output (the stream pipeline's EventDecoder, the live ACP wire) parses through here, so each
// guard (BOM, depth, the excerpt a problem quotes, the size message) holds for all of them at once.
import { escapeJson } from "../protocol/visible-text";

/**
 * Deepest nesting of objects and arrays a line may have. JSON.parse reads any depth, but JSON.stringify, structured
 * clone (a webview's postMessage) and recursive walks overflow the stack somewhere past a few thousand levels; no real
 * event nests more than a dozen. Checked here, once, so every reader gets only values that are safe.
 */
export const MAX_JSON_DEPTH = 64;
/** A value nested deeper than MAX_JSON_DEPTH has at least that many brackets, each opened and closed. */
const SHORTEST_TOO_DEEP_LINE = 2 * (MAX_JSON_DEPTH + 1);
const EXCERPT_CHARS = 60;

/** A line that is not a usable JSON value: what is wrong with it, in words a problem can show. */
export class RefusedLine {
  /** `value`: the parsed value when the line was JSON but refused (too deep): only its top level may be read. */
  constructor(
    readonly message: string,
    readonly value?: unknown,
  ) {}
}

/** The line's value, or why it is refused. A class instance, which JSON.parse never makes, so nothing is wrapped. */
export function parseJsonLine(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return new RefusedLine(`not JSON: ${excerpt(text)}`);
  }
  if (mayBeTooDeep(text) && nestedDeeperThan(value, MAX_JSON_DEPTH)) {
    return new RefusedLine(`nested deeper than ${MAX_JSON_DEPTH} levels; skipped`, value);
  }
  return value;
}

/** What a line over the size limit is told as (the line reader dropped its bytes as they came). */
export function oversizedLineMessage(sizeBytes: number, limitBytes: number): string {
  return `line of ${sizeBytes} bytes (${formatBytes(sizeBytes)}) is over the ${formatBytes(limitBytes)} line size limit; skipped`;
}

/** The start of a bad line, with control characters made visible, so the message stays one short line. */
export function excerpt(text: string): string {
  const cut = text.length > EXCERPT_CHARS ? text.slice(0, EXCERPT_CHARS) + "…" : text;
  // JSON.stringify shows C0 controls; C1 and bidi controls need escapeJson too.
  return escapeJson(JSON.stringify(cut));
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, "")} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MiB`;
}

/**
 * Whether the line could hold a value nested deeper than MAX_JSON_DEPTH: only if it opens that many objects and arrays,
 * so it has that many `{` and `[` (in its strings too, which only errs towards walking). A few native searches clear
 * almost every line; walking every parsed value cost about a tenth of the pipeline.
 */
function mayBeTooDeep(text: string): boolean {
  if (text.length < SHORTEST_TOO_DEEP_LINE) return false;
  let opened = 0;
  for (let at = text.indexOf("{"); at !== -1; at = text.indexOf("{", at + 1)) if (++opened > MAX_JSON_DEPTH) return true;
  for (let at = text.indexOf("["); at !== -1; at = text.indexOf("[", at + 1)) if (++opened > MAX_JSON_DEPTH) return true;
  return false;
}

/**
 * Whether objects and arrays nest more than `levels` deep. The recursion stops at `levels`, so it cannot overflow;
 * a whole line is refused rather than cut, so what the session shows is always what the agent sent.
 */
function nestedDeeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (levels === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (nestedDeeperThan(item, levels - 1)) return true;
    return false;
  }
  for (const key in value) if (nestedDeeperThan((value as Record<string, unknown>)[key], levels - 1)) return true;
  return false;
}
