// Decodes a recorded stream (a file, stdin) into a finished session: no process, nothing runs.
import type { DialectAdapter } from "../dialects/dialect";
import { EventDecoder } from "../stream/event-decoder";
import { Session, type SessionOptions } from "./session";
import { createSessionFeed } from "./session-feed";

export interface ReplayOptions extends Omit<SessionOptions, "dialect"> {
  adapter: DialectAdapter;
  maxLineBytes?: number;
}

export async function replayStream(chunks: AsyncIterable<Uint8Array | string>, options: ReplayOptions): Promise<Session> {
  const { adapter, maxLineBytes, ...sessionOptions } = options;
  const session = new Session({ ...sessionOptions, dialect: adapter.dialect });
  const feed = createSessionFeed(session, new EventDecoder(adapter), maxLineBytes);
  for await (const chunk of chunks) feed.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
  feed.end();
  session.endOfStream();
  return session;
}
