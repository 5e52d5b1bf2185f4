// Makes protocol-1 events for adapters that translate another CLI's stream: the envelope (protocol, session id,
// timestamp) filled in once, so each adapter states only the type and payload.
import type { CliEventType, EventOfType } from "../protocol/events";
import { PROTOCOL_VERSION } from "../protocol/version";
import type { AdapterOutput } from "./dialect";

export class EventFactory {
  /** The CLI's own session id once it said it; until then, empty (the session keeps the first one it sees). */
  sessionId = "";

  private started = false;

  /** `now` stamps events the CLI did not time itself; tool durations are measured from these stamps. */
  constructor(private readonly now: () => number = Date.now) {}

  make<T extends CliEventType>(type: T, payload: EventOfType<T>["payload"], timestamp?: number): EventOfType<T> {
    // TypeScript cannot narrow a generic discriminant; the parameter types keep payload and type paired.
    return { protocol: PROTOCOL_VERSION, type, sessionId: this.sessionId, timestamp: timestamp ?? this.now(), payload } as EventOfType<T>;
  }

  /**
   * The stream's one `start`: from the CLI's own first line (with its session id), or made up by whatever line comes
   * before it (a stream cut at the front, a run that fails before it says who it is). Later calls do nothing.
   */
  startOnce(out: AdapterOutput, payload: EventOfType<"start">["payload"], sessionId?: string): void {
    if (this.started) return;
    this.started = true;
    if (sessionId !== undefined) this.sessionId = sessionId;
    out.event(this.make("start", payload));
  }
}
