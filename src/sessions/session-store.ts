// The workspace's sessions on disk: one JSON file per session (sessions/<id>.json) and an index of their summaries
// (sessions/index.json), under the folder VS Code gives the extension for this workspace. Opening reads the index only;
// a session's file is read when it is opened. Every write is atomic and the writes of one file are serialised, a
// newer save replacing one still waiting; the index is written after the session's file, so a crash between the two
// loses nothing (the next open finds the file the index lacks). Two windows of one workspace share the folder: the
// last writer of a session's file wins; an index is never torn, and a window's index that lacks the other window's
// new sessions gets them back at the next open.
import { constants as fsConstants } from "node:fs";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { SessionIdSchema, SessionSummarySchema, type SessionId, type SessionSummary, type StoredSession } from "../protocol/sessions";
import { escapeForLog } from "../protocol/visible-text";
import { TEMPORARY_SUFFIX, writeFileAtomically } from "./atomic-file";
import { maxFileBytes, SESSION_FILE_LIMITS } from "./kept-turns";
import { QueuedImages } from "./queued-images";
import { parseSessionFile, sessionFileText } from "./session-file";
import { indexText, parseIndex, type IndexEntry } from "./session-index";
import { statusOf, summaryOf } from "./session-summary";
import { WriteLanes } from "./write-lanes";

export interface SessionStoreOptions {
  /** What all session files together may take (`agentStream.sessions.maxStorageMB`); `evict` keeps to it. */
  maxBytes: number;
  /** Characters of blocks one session's file keeps; `SESSION_FILE_LIMITS.chars` unless set (tests set less). */
  maxSessionChars?: number;
  log: { warn(message: string): void; info?(message: string): void };
}

const FOLDER = "sessions";
const INDEX_FILE = "index.json";
const SESSION_FILE_SUFFIX = ".json";
/** The index's lane among the sessions' (a session id is a UUID, never this). */
const INDEX_LANE = "index";
/** Far more than the index of 100,000 sessions takes (about 500 bytes each): a larger file is not our index. */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;
/** A temporary file older than this was left by a write that never finished (a crash), not one under way. */
const STALE_TEMPORARY_MS = 10 * 60 * 1000;

export class SessionStore {
  private readonly lanes = new WriteLanes<boolean>();
  private readonly maxSessionChars: number;
  private readonly maxFileBytes: number;
  private readonly queuedImages: QueuedImages;

  private constructor(
    private readonly folder: string,
    private readonly entries: Map<SessionId, IndexEntry>,
    private readonly options: SessionStoreOptions,
  ) {
    this.maxSessionChars = options.maxSessionChars ?? SESSION_FILE_LIMITS.chars;
    this.maxFileBytes = maxFileBytes(this.maxSessionChars);
    this.queuedImages = new QueuedImages(folder, options.log);
  }

  /**
   * The store in `storageFolder` (its `sessions` folder is made if missing). Reads the index and the folder's list of
   * names, not the sessions: only a file the index lacks is read (written just before a crash, or by another window).
   * A missing or unreadable index is rebuilt from the files.
   */
  static async open(storageFolder: string, options: SessionStoreOptions): Promise<SessionStore> {
    const folder = path.join(storageFolder, FOLDER);
    await fs.mkdir(folder, { recursive: true });
    const names = await fs.readdir(folder);
    const indexed = await readIndex(folder, options);
    const store = new SessionStore(folder, new Map(), options);
    const onDisk = new Set<SessionId>();
    for (const name of names) {
      if (name.endsWith(TEMPORARY_SUFFIX)) await removeIfStale(path.join(folder, name));
      const id = sessionIdOf(name);
      if (id !== undefined) onDisk.add(id);
    }
    for (const entry of indexed ?? []) if (onDisk.has(entry.summary.id)) store.entries.set(entry.summary.id, entry);
    let added = 0;
    for (const id of [...onDisk].filter((each) => !store.entries.has(each))) {
      const read = await store.read(id);
      if (read === undefined) continue;
      store.entries.set(id, { summary: summaryOf(read.session, statusOf(read.session)), bytes: read.bytes });
      added++;
    }
    if (added > 0) options.log.info?.(`${added} session files missing from the sessions' index were added to it`);
    if (indexed === null || store.entries.size !== indexed.length) await store.writeIndexSoon();
    return store;
  }

  /** Every session, newest `updatedAt` first. */
  list(): SessionSummary[] {
    return [...this.entries.values()].map((entry) => entry.summary).sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /**
   * The session as its file holds it, its queued messages' images with it, or undefined when there is none or it does
   * not fit its schema (one log line; the session leaves the list, its file stays). A list row older than the file (a
   * crash came between their writes) is brought up to date.
   */
  async load(id: SessionId): Promise<StoredSession | undefined> {
    assertSessionId(id);
    const read = await this.read(id);
    const entry = this.entries.get(id);
    if (read === undefined) {
      if (entry !== undefined && this.entries.delete(id)) void this.writeIndexSoon();
      return undefined;
    }
    if (entry !== undefined && read.session.updatedAt > entry.summary.updatedAt) {
      this.entries.set(id, { summary: summaryOf(read.session, entry.summary.status), bytes: read.bytes });
      void this.writeIndexSoon();
    }
    return this.queuedImages.restore(read.session);
  }

  /**
   * Writes the session's file, then the index with `summary`. The store reads `session` when it writes it, which may
   * be after this returns (a save of the same session is under way): pass a copy nobody changes. A waiting permission
   * request is written as cancelled, and a session past `maxSessionChars` keeps its first part. A session or summary
   * that does not fit its schema is not written (it could not be read back). Resolves true once this save, or a later
   * one of the same session that replaced it, is on disk; false when it was not written (one log line; the file as it
   * was stays whole). Never rejects; throws for a programmer's error (another session's summary, an id not a UUID).
   */
  save(session: StoredSession, summary: SessionSummary): Promise<boolean> {
    if (summary.id !== session.id) throw new Error("a session saved with another session's summary");
    assertSessionId(session.id);
    const written = this.lanes.run(session.id, () => this.write(session, summary));
    return written.then(async (ok) => {
      if (ok) await this.writeIndexSoon();
      return ok;
    });
  }

  /** Removes the session's file and its entry; a save of it still waiting is dropped. */
  async delete(id: SessionId): Promise<void> {
    assertSessionId(id);
    await this.lanes.run(id, async () => {
      try {
        await fs.rm(this.sessionFile(id), { force: true });
        await this.queuedImages.remove(id);
      } catch (error) {
        this.options.log.warn(`session ${id} could not be deleted: ${describeError(error)}`);
        return false;
      }
      this.entries.delete(id);
      return true;
    });
    await this.writeIndexSoon();
  }

  /** Resolves once every write asked for so far (and any asked for meanwhile) is done: the window is closing. */
  flush(): Promise<void> {
    return this.lanes.settled();
  }

  /**
   * Deletes the sessions with the oldest `updatedAt` first until all files together take at most `maxBytes`, never one
   * in `open`; resolves with the ids deleted. When the open sessions alone take more, they all stay.
   */
  async evict(open: ReadonlySet<SessionId>): Promise<SessionId[]> {
    let total = 0;
    for (const entry of this.entries.values()) total += entry.bytes;
    const evicted: SessionId[] = [];
    for (const { summary, bytes } of [...this.entries.values()].sort((a, b) => a.summary.updatedAt - b.summary.updatedAt)) {
      if (total <= this.options.maxBytes) break;
      if (open.has(summary.id)) continue;
      evicted.push(summary.id);
      total -= bytes;
    }
    await Promise.all(evicted.map((id) => this.delete(id)));
    if (evicted.length > 0) this.options.log.info?.(`deleted the ${evicted.length} oldest sessions to keep the store within ${this.options.maxBytes} bytes`);
    return evicted;
  }

  /** One save's write: the session's file, then its entry (the index is written after, by the caller). */
  private async write(session: StoredSession, summary: SessionSummary): Promise<boolean> {
    try {
      const file = sessionFileText(session, this.maxSessionChars);
      if ("problem" in file) return this.notSaved(session.id, file.problem);
      const size = Buffer.byteLength(file.text);
      if (size > this.maxFileBytes) return this.notSaved(session.id, `is over a file's size bound (${size} of at most ${this.maxFileBytes} bytes)`);
      const problem = summaryProblem(summary);
      if (problem !== null) return this.notSaved(session.id, problem);
      // Before the file that names the messages: a crash between the two leaves images no message names, not the reverse.
      await this.queuedImages.keep(session);
      const bytes = await writeFileAtomically(this.sessionFile(session.id), file.text);
      this.entries.set(session.id, { summary, bytes });
      return true;
    } catch (error) {
      // An I/O error (disk full, a folder gone); also a value JSON cannot hold, which the schema does not look for.
      this.options.log.warn(`session ${session.id} could not be saved: ${describeError(error)}`);
      return false;
    }
  }

  private notSaved(id: SessionId, problem: string): false {
    this.options.log.warn(escapeForLog(`session ${id} was not saved: it ${problem}`));
    return false;
  }

  private sessionFile(id: SessionId): string {
    return path.join(this.folder, `${id}${SESSION_FILE_SUFFIX}`);
  }

  /** The session's file read and checked, or undefined (missing: quietly; unreadable or not one: one log line). */
  private async read(id: SessionId): Promise<{ session: StoredSession; bytes: number } | undefined> {
    let file: { bytes: Buffer } | { problem: string };
    try {
      file = await readRegularFile(this.sessionFile(id), this.maxFileBytes);
    } catch (error) {
      if (!isMissing(error)) this.options.log.warn(`session file ${id}.json could not be read and was skipped: ${describeError(error)}`);
      return undefined;
    }
    if ("problem" in file) {
      this.options.log.warn(`session file ${id}.json ${file.problem} and was skipped`);
      return undefined;
    }
    const { bytes } = file;
    const parsed = parseSessionFile(bytes.toString("utf8"));
    if ("problem" in parsed) {
      this.options.log.warn(`session file ${id}.json ${parsed.problem} and was skipped`);
      return undefined;
    }
    if (parsed.session.id !== id) {
      this.options.log.warn(`session file ${id}.json holds another session's id and was skipped`);
      return undefined;
    }
    return { session: parsed.session, bytes: bytes.length };
  }

  /** Writes the index as it is when the write begins; saves in a burst share one write. */
  private writeIndexSoon(): Promise<boolean> {
    return this.lanes.run(INDEX_LANE, async () => {
      try {
        await writeFileAtomically(path.join(this.folder, INDEX_FILE), indexText(this.entries.values()));
        return true;
      } catch (error) {
        this.options.log.warn(`the sessions' index could not be saved: ${describeError(error)}`);
        return false;
      }
    });
  }
}

/** The index's entries, or null when it is missing or unreadable (one warning): then it is rebuilt. */
async function readIndex(folder: string, options: SessionStoreOptions): Promise<IndexEntry[] | null> {
  let file: { bytes: Buffer } | { problem: string };
  try {
    file = await readRegularFile(path.join(folder, INDEX_FILE), MAX_INDEX_BYTES);
  } catch (error) {
    if (isMissing(error)) return null;
    options.log.warn(`the sessions' index could not be read and is rebuilt from the session files: ${describeError(error)}`);
    return null;
  }
  if ("problem" in file) {
    options.log.warn(`the sessions' index ${file.problem} and is rebuilt from the session files`);
    return null;
  }
  const entries = parseIndex(file.bytes.toString("utf8"));
  if (entries === null) options.log.warn("the sessions' index does not fit its schema and is rebuilt from the session files");
  return entries;
}

/** A session id is a UUID by type only: one that is not would name a path outside the folder (a programmer's error). */
function assertSessionId(id: string): void {
  if (!SessionIdSchema.safeParse(id).success) throw new Error(`not a session id: ${escapeForLog(JSON.stringify(id).slice(0, 80))}`);
}

/** Why a summary could not be read back from the index, or null when it fits. */
function summaryProblem(summary: SessionSummary): string | null {
  const checked = SessionSummarySchema.safeParse(summary);
  return checked.success ? null : `has a summary that does not fit its schema at ${checked.error.issues[0]?.path.join(".") ?? "its top"}`;
}

function sessionIdOf(name: string): SessionId | undefined {
  if (!name.endsWith(SESSION_FILE_SUFFIX)) return undefined;
  const id = SessionIdSchema.safeParse(name.slice(0, -SESSION_FILE_SUFFIX.length));
  return id.success ? id.data : undefined;
}

async function removeIfStale(file: string): Promise<void> {
  try {
    const stat = await fs.stat(file);
    if (Date.now() - stat.mtimeMs > STALE_TEMPORARY_MS) await fs.rm(file, { force: true });
  } catch {
    // Another window finished (renamed) or removed it meanwhile: nothing left to clean.
  }
}

/** Opening a FIFO without it would wait for a writer that never comes (and hold a thread of Node's pool). */
const O_NONBLOCK = (fsConstants as Partial<typeof fsConstants>).O_NONBLOCK ?? 0;
/** The store writes files, never links: a link in its folder is not one of its files. */
const O_NOFOLLOW = (fsConstants as Partial<typeof fsConstants>).O_NOFOLLOW ?? 0;

/** The file's bytes, or why they were not read: it is not a regular file, or larger than `maxBytes`. */
async function readRegularFile(file: string, maxBytes: number): Promise<{ bytes: Buffer } | { problem: string }> {
  const handle = await fs.open(file, fsConstants.O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { problem: "is not a file" };
    if (stat.size > maxBytes) return { problem: `is over its size bound (${stat.size} of at most ${maxBytes} bytes)` };
    return { bytes: await handle.readFile() };
  } finally {
    await handle.close();
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}

/** An I/O error's code and message (a path of ours, no session text). */
function describeError(error: unknown): string {
  return escapeForLog(error instanceof Error ? error.message : String(error));
}
