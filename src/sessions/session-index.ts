// The store's index (sessions/index.json): each session's summary and the size of its file, so that opening the
// store, listing it and bounding it read one small file, never every session's. Read back through its schema: a
// workspace's storage is not trusted.
import * as z from "zod/mini";
import { SessionSummarySchema } from "../protocol/sessions";

export const INDEX_VERSION = 1;

const IndexEntrySchema = z.object({
  summary: SessionSummarySchema,
  /** The size of the session's file as last written, in bytes: what eviction counts. */
  bytes: z.number().check(z.int(), z.nonnegative()),
});
export type IndexEntry = z.infer<typeof IndexEntrySchema>;

const SessionIndexSchema = z.object({ version: z.literal(INDEX_VERSION), sessions: z.array(IndexEntrySchema) });

/** The entries of an index file's text, or null when it is not an index this version wrote. */
export function parseIndex(text: string): IndexEntry[] | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = SessionIndexSchema.safeParse(value);
  return parsed.success ? parsed.data.sessions : null;
}

export function indexText(entries: Iterable<IndexEntry>): string {
  return JSON.stringify({ version: INDEX_VERSION, sessions: [...entries] });
}
