// A session's own file (sessions/<id>.json): the session as storage keeps it (bounded, no live state), and read back
// through its schema, since a workspace's storage is not trusted.
import { STORED_SESSION_VERSION, StoredSessionSchema, type StoredSession } from "../protocol/sessions";
import { keptTurns } from "./kept-turns";

/**
 * The text of the session's file, or why there is none: a session that does not fit its schema is not written, since
 * it could not be read back (the store would lose it at the next load instead of now, with a reason). Its queued
 * messages' images are not in it: the store keeps them in files of their own (queued-images.ts).
 */
export function sessionFileText(session: StoredSession, maxChars: number): { text: string } | { problem: string } {
  const pendingPrompts = session.pendingPrompts.map(({ images: _images, ...prompt }) => prompt);
  const kept = { ...session, turns: keptTurns(session.turns, maxChars), pendingPrompts };
  const checked = StoredSessionSchema.safeParse(kept);
  if (!checked.success) return { problem: `does not fit the session schema at ${checked.error.issues[0]?.path.join(".") ?? "its top"}` };
  return { text: JSON.stringify(kept) };
}

/** The session a file's text holds, or why it holds none (a reason of our own words: nothing of the file is quoted). */
export function parseSessionFile(text: string): { session: StoredSession } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: "is not JSON" };
  }
  const parsed = StoredSessionSchema.safeParse(value);
  if (parsed.success) return { session: parsed.data };
  const version = typeof value === "object" && value !== null && "version" in value ? value.version : undefined;
  return { problem: typeof version === "number" && version > STORED_SESSION_VERSION ? "was written by a newer version" : "does not fit the session schema" };
}
