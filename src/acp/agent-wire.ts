// The agent's stdout and stdin as the SDK's message Stream. Lines are read here rather than by the SDK's
// ndJsonStream for two reasons: a line that is not JSON must reach our log (ndJsonStream answers it to the agent and
// tells no one), and `session/update` — one notification per model delta — is taken off before the SDK, which
// validates every one of them with its full schema union twice (about 8× slower than JSON.parse) and may run
// async handlers out of order. Updates are handed over synchronously, in arrival order, before any later message.
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";
import { isRecord } from "../protocol/json-record";
import { DEFAULT_MAX_LINE_BYTES, LineReader } from "../stream/line-reader";

export interface AgentWireHandlers {
  /** The params of one `session/update` notification, unchecked: the update decoder validates them. */
  sessionUpdate(params: unknown): void;
  /** A line that is not a JSON-RPC message; the connection goes on. */
  problem(message: string): void;
}

const SESSION_UPDATE = "session/update";
const EXCERPT_CHARS = 80;

export class AgentWire {
  readonly stream: Stream;
  private readonly lines: LineReader;
  private controller: ReadableStreamDefaultController<AnyMessage> | undefined;
  private ended = false;

  /** `write` sends one line to the agent's stdin and says whether stdin was still open. */
  constructor(
    write: (line: string) => boolean,
    private readonly handlers: AgentWireHandlers,
    maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  ) {
    this.lines = new LineReader(
      {
        onLine: (text, lineNumber) => this.onLine(text, lineNumber),
        onOversizedLine: (lineNumber, size) =>
          handlers.problem(`line ${lineNumber} of the agent's output (${size} bytes) is over the line size limit; skipped`),
      },
      maxLineBytes,
    );
    const readable = new ReadableStream<AnyMessage>({ start: (controller) => void (this.controller = controller) });
    const writable = new WritableStream<AnyMessage>({
      write(message) {
        // Failing the write makes the SDK close the connection, which rejects what is pending: the agent is gone.
        if (!write(JSON.stringify(message) + "\n")) throw new Error("the agent's stdin is closed");
      },
    });
    this.stream = { readable, writable };
  }

  /** Bytes from the agent's stdout, in order. */
  push(chunk: Buffer): void {
    if (!this.ended) this.lines.push(chunk);
  }

  /** stdout is done (the process is gone): whatever was read is still delivered first, then the SDK sees the end. */
  end(): void {
    if (this.ended) return;
    this.lines.end();
    this.ended = true;
    this.controller?.close();
  }

  private onLine(text: string, lineNumber: number): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.handlers.problem(`line ${lineNumber} of the agent's output is not JSON: ${excerpt(text)}`);
      return;
    }
    if (!isRecord(value) || (!("method" in value) && !("id" in value))) {
      this.handlers.problem(`line ${lineNumber} of the agent's output is not a JSON-RPC message: ${excerpt(text)}`);
      return;
    }
    if (value.method === SESSION_UPDATE && !("id" in value)) {
      this.handlers.sessionUpdate(value.params);
      return;
    }
    this.controller?.enqueue(value as AnyMessage);
  }
}

function excerpt(text: string): string {
  return JSON.stringify(text.length > EXCERPT_CHARS ? text.slice(0, EXCERPT_CHARS) + "…" : text);
}
