// One text line → JSON → the dialect adapter → canonical events, or problems that name the line.
import type { CliStreamEvent } from "../protocol/events";
import type { Problem } from "../protocol/transcript";
import { escapeJson } from "../protocol/visible-text";
import type { AdapterOutput, DialectAdapter, StreamEnding } from "../dialects/dialect";

/** Where decoded events and problems go, in line order. */
export interface DecodedLineSink {
  /** `line` is null for what an adapter added at the end of the stream. */
  event(event: CliStreamEvent, line: number | null): void;
  problem(problem: Problem): void;
}

const EXCERPT_CHARS = 60;

/**
 * Deepest nesting of objects and arrays a line may have. JSON.parse reads any depth, but JSON.stringify, structured
 * clone (a webview's postMessage) and recursive walks overflow the stack somewhere past a few thousand levels; no real
 * event nests more than a dozen. Checked here, once, so every reader of the pipeline gets only values that are safe.
 */
export const MAX_JSON_DEPTH = 64;
/** A value nested deeper than MAX_JSON_DEPTH has at least that many brackets, each opened and closed. */
const SHORTEST_TOO_DEEP_LINE = 2 * (MAX_JSON_DEPTH + 1);

export class EventDecoder {
  private sink: DecodedLineSink | undefined;
  private line: number | null = 0;
  /** One output object for the decoder's life: the adapter's events go to the current line's sink. */
  private readonly output: AdapterOutput = {
    event: (event) => this.sink!.event(event, this.line),
    problem: (code, message) => this.sink!.problem({ line: this.line, code, message }),
  };

  constructor(private readonly adapter: DialectAdapter) {}

  get dialect(): string {
    return this.adapter.dialect;
  }

  decodeLine(text: string, line: number, sink: DecodedLineSink): void {
    let value: unknown;
    try {
      value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch {
      sink.problem({ line, code: "MALFORMED_EVENT", message: `not JSON: ${excerpt(text)}` });
      return;
    }
    if (mayBeTooDeep(text) && nestedDeeperThan(value, MAX_JSON_DEPTH)) {
      sink.problem({ line, code: "MALFORMED_EVENT", message: `nested deeper than ${MAX_JSON_DEPTH} levels; skipped` });
      return;
    }
    this.sink = sink;
    this.line = line;
    this.adapter.decode(value, this.output);
  }

  /** After the last line: the adapter may add what the end of the stream means (its events have no line). */
  end(sink: DecodedLineSink, ending: StreamEnding | null): void {
    if (this.adapter.end === undefined) return;
    this.sink = sink;
    this.line = null;
    this.adapter.end(this.output, ending);
  }

  oversizedLine(line: number, sizeBytes: number, limitBytes: number): Problem {
    return {
      line,
      code: "MALFORMED_EVENT",
      message: `line of ${sizeBytes} bytes (${formatBytes(sizeBytes)}) is over the ${formatBytes(limitBytes)} line size limit; skipped`,
    };
  }
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
 * a whole line is rejected rather than cut, so what the session shows is always what the CLI sent.
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

/** The start of a bad line, with control characters made visible, so the message stays one short line. */
function excerpt(text: string): string {
  const cut = text.length > EXCERPT_CHARS ? text.slice(0, EXCERPT_CHARS) + "…" : text;
  // JSON.stringify shows C0 controls; C1 and bidi controls need escapeJson too.
  return escapeJson(JSON.stringify(cut));
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, "")} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MiB`;
}
