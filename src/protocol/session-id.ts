// A session's id, on its own: the wire (messages.ts) and the store (sessions.ts) both need it, and sessions.ts needs
// the wire's turns.
import * as z from "zod/mini";

/** Ours: a UUID, minted when the session is created, never reused. */
export const SessionIdSchema = z.string().check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/));
export type SessionId = z.infer<typeof SessionIdSchema>;
