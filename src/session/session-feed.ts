// Wires bytes to a session: line reader → decoder → session. Shared by live runs and replays.
import type { EventDecoder } from "../stream/event-decoder";
import { DEFAULT_MAX_LINE_BYTES, LineReader } from "../stream/line-reader";
import type { Session } from "./session";

export function createSessionFeed(session: Session, decoder: EventDecoder, maxLineBytes = DEFAULT_MAX_LINE_BYTES): LineReader {
  return new LineReader(
    {
      onLine(text, lineNumber) {
        for (const item of decoder.decodeLine(text, lineNumber)) {
          if (item.kind === "event") session.acceptEvent(item.event, item.line);
          else session.acceptProblem(item.problem);
        }
      },
      onOversizedLine(lineNumber, sizeBytes) {
        const item = decoder.oversizedLine(lineNumber, sizeBytes, maxLineBytes);
        if (item.kind === "problem") session.acceptProblem(item.problem);
      },
    },
    maxLineBytes,
  );
}
