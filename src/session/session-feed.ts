// Wires bytes to a session: the JSON line reader → decoder → session. Shared by live runs and replays.
import type { StreamEnding } from "../dialects/dialect";
import type { DecodedLineSink, EventDecoder } from "../stream/event-decoder";
import { JsonLineReader } from "../stream/json-line-reader";
import { DEFAULT_MAX_LINE_BYTES } from "../stream/line-reader";
import type { Session } from "./session";

export interface SessionFeed {
  push(chunk: Uint8Array): void;
  /** No more bytes: the last line is decoded, then the adapter hears how the stream ended (null: a recording). */
  end(ending?: StreamEnding | null): void;
}

/** `onLine` sees every line as read, before it is decoded (the log's trace level). */
export function createSessionFeed(
  session: Session,
  decoder: EventDecoder,
  maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  onLine?: (text: string, lineNumber: number) => void,
): SessionFeed {
  const sink: DecodedLineSink = {
    event: (event, line) => session.acceptEvent(event, line),
    problem: (problem) => session.acceptProblem(problem),
  };
  const reader = new JsonLineReader(
    {
      text: onLine,
      value: (value, lineNumber) => decoder.decodeValue(value, lineNumber, sink),
      refused: (problem) => session.acceptProblem(problem),
    },
    maxLineBytes,
  );
  return {
    push: (chunk) => reader.push(chunk),
    end: (ending = null) => {
      reader.end();
      decoder.end(sink, ending);
    },
  };
}
