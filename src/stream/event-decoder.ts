// One text line → JSON → the dialect adapter → canonical events, or problems that name the line.
import type { CliStreamEvent } from "../protocol/events";
import type { Problem } from "../protocol/transcript";
import type { DialectAdapter } from "../dialects/dialect";

export type DecodedLine =
  | { readonly kind: "event"; readonly event: CliStreamEvent; readonly line: number | null }
  | { readonly kind: "problem"; readonly problem: Problem };

const EXCERPT_CHARS = 60;

export class EventDecoder {
  constructor(private readonly adapter: DialectAdapter) {}

  get dialect(): string {
    return this.adapter.dialect;
  }

  decodeLine(text: string, line: number): DecodedLine[] {
    let value: unknown;
    try {
      value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch {
      return [{ kind: "problem", problem: { line, code: "MALFORMED_EVENT", message: `not JSON: ${excerpt(text)}` } }];
    }
    return this.adapter.decode(value).map((item) =>
      item.kind === "event"
        ? { kind: "event", event: item.event, line }
        : { kind: "problem", problem: { line, code: item.code, message: item.message } },
    );
  }

  oversizedLine(line: number, sizeBytes: number, limitBytes: number): DecodedLine {
    return {
      kind: "problem",
      problem: {
        line,
        code: "MALFORMED_EVENT",
        message: `line of ${sizeBytes} bytes (${formatBytes(sizeBytes)}) is over the ${formatBytes(limitBytes)} line size limit; skipped`,
      },
    };
  }
}

/** The start of a bad line, with control characters made visible, so the message stays one short line. */
function excerpt(text: string): string {
  const cut = text.length > EXCERPT_CHARS ? text.slice(0, EXCERPT_CHARS) + "…" : text;
  return JSON.stringify(cut);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, "")} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MiB`;
}
