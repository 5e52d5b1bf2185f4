// Decodes a recorded stream (a file, stdin) into a finished session: no process, nothing runs.
import type { DialectAdapter } from "../dialects/dialect";
import type { Transcript } from "../protocol/transcript";
import { EventDecoder } from "../stream/event-decoder";
import { Session, type SessionOptions } from "./session";
import { createSessionFeed } from "./session-feed";

export interface ReplayOptions extends Omit<SessionOptions, "dialect"> {
  adapter: DialectAdapter;
  maxLineBytes?: number;
}

/** A replay shaped like a live run (session, finished, stop, kill), so the chat can show it the same way. */
export class ReplayRun {
  readonly session: Session;
  /** Settles once the stream was read (or stopped) and the session has its `done`; never rejects. */
  readonly finished: Promise<Transcript>;
  private stopped = false;
  /** Wakes a read that is waiting for the next chunk, so Stop never waits on a slow source. */
  private wakeOnStop: () => void = () => {};

  constructor(chunks: AsyncIterable<Uint8Array | string>, options: ReplayOptions) {
    const { adapter, maxLineBytes, ...sessionOptions } = options;
    this.session = new Session({ ...sessionOptions, dialect: () => adapter.dialect });
    this.finished = this.read(chunks, adapter, maxLineBytes);
  }

  /** Stops reading: the session ends as canceled, keeping what was read so far. */
  async stop(): Promise<Transcript> {
    this.kill();
    return this.finished;
  }

  kill(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.session.stopRequested("user");
    this.wakeOnStop();
  }

  private async read(chunks: AsyncIterable<Uint8Array | string>, adapter: DialectAdapter, maxLineBytes: number | undefined): Promise<Transcript> {
    const feed = createSessionFeed(this.session, new EventDecoder(adapter), maxLineBytes);
    const iterator = chunks[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = await this.nextUnlessStopped(iterator);
        if (next.done === true || this.stopped) break;
        const chunk = next.value;
        feed.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
      }
      // A stopped read closes its source (a file handle, say) instead of leaving it half read.
      if (this.stopped) void iterator.return?.()?.catch(() => undefined);
      feed.end();
      if (this.stopped) this.session.processEnded({ reason: "stopped", exitCode: null, signal: null, stderrTail: "" });
      else this.session.endOfStream();
    } catch (error) {
      feed.end();
      this.session.sourceFailed(`The recorded stream could not be read to its end: ${error instanceof Error ? error.message : String(error)}`);
    }
    return this.session.toTranscript();
  }

  /**
   * The next chunk, or the end as soon as Stop is pressed. A fresh promise per chunk: racing every read against
   * one long-lived "stopped" promise would add a reaction to it per chunk, and each reaction keeps its chunk alive
   * (a 1 GiB file held 1.1 GB).
   */
  private nextUnlessStopped(iterator: AsyncIterator<Uint8Array | string>): Promise<IteratorResult<Uint8Array | string>> {
    if (this.stopped) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => {
      this.wakeOnStop = () => resolve({ done: true, value: undefined });
      iterator.next().then(resolve, reject);
    });
  }
}

export async function replayStream(chunks: AsyncIterable<Uint8Array | string>, options: ReplayOptions): Promise<Session> {
  const run = new ReplayRun(chunks, options);
  await run.finished;
  return run.session;
}
