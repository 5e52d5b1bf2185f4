// The one reader of every agent's stdout, stream CLIs and ACP alike: bytes → lines (line-reader.ts) → a JSON value
// that passed every guard of json-line.ts, or the problem that says why the line was refused. Every refusal (too
// long, not JSON, too deep) is worded and coded here, so the chat and `--json` tell it the same whoever sent it.
import type { Problem } from "../protocol/transcript";
import { oversizedLineMessage, parseJsonLine, RefusedLine } from "./json-line";
import { DEFAULT_MAX_LINE_BYTES, LineReader } from "./line-reader";

export interface JsonLineHandlers {
  /** Every non-blank line as read, before it is parsed (the log's trace); leave unset unless someone reads it. */
  text?(text: string, lineNumber: number): void;
  /** A line's value, safe for every reader after it. */
  value(value: unknown, lineNumber: number, text: string): void;
  /**
   * A line refused. `value` is the parsed value of a line that was JSON but refused (too deep): only its top level
   * may be read; undefined otherwise.
   */
  refused(problem: Problem, value: unknown): void;
}

/** One line's value, or the problem it is refused with; the reader's own reading of a line it has whole. */
export function readJsonLine(text: string, lineNumber: number): { value: unknown } | { problem: Problem; value: unknown } {
  const value = parseJsonLine(text);
  return value instanceof RefusedLine ? { problem: refusal(lineNumber, value.message), value: value.value } : { value };
}

export class JsonLineReader {
  private readonly lines: LineReader;

  constructor(handlers: JsonLineHandlers, maxLineBytes = DEFAULT_MAX_LINE_BYTES) {
    const { text: onText, value: onValue, refused } = handlers;
    // No object per line: this runs for every delta of every agent.
    const read = (text: string, lineNumber: number) => {
      const value = parseJsonLine(text);
      if (value instanceof RefusedLine) refused(refusal(lineNumber, value.message), value.value);
      else onValue(value, lineNumber, text);
    };
    this.lines = new LineReader(
      {
        onLine:
          onText === undefined
            ? read
            : (text, lineNumber) => {
                onText(text, lineNumber);
                read(text, lineNumber);
              },
        onOversizedLine: (lineNumber, sizeBytes) => refused(refusal(lineNumber, oversizedLineMessage(sizeBytes, maxLineBytes)), undefined),
      },
      maxLineBytes,
    );
  }

  /** Bytes of the current, unfinished line held in memory: never more than the limit plus a trailing CR. */
  get bufferedBytes(): number {
    return this.lines.bufferedBytes;
  }

  push(chunk: Uint8Array): void {
    this.lines.push(chunk);
  }

  /** End of stream: a last line without a newline is still a line. */
  end(): void {
    this.lines.end();
  }
}

function refusal(lineNumber: number, message: string): Problem {
  return { line: lineNumber, code: "MALFORMED_EVENT", message };
}
