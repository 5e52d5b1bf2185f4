// The images of a session's queued messages, kept beside its file (sessions/<id>.queued-images/<message id>.json):
// the session's file is written again at every change of a running turn, and must not carry megabytes each time. A
// message's images never change while it waits, so each is written once, and removed once it no longer waits (sent,
// removed, or the session deleted). Read back through their schema: a workspace's storage is not trusted.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import * as z from "zod/mini";
import { MAX_IMAGE_BASE64_CHARS, MAX_IMAGE_NAME_CHARS, MAX_IMAGES } from "../protocol/image-bytes";
import { PromptImageSchema, type PromptImage } from "../protocol/prompt-parts";
import { SessionIdSchema, type SessionId, type StoredSession } from "../protocol/sessions";
import { escapeForLog } from "../protocol/visible-text";
import { writeFileAtomically } from "./atomic-file";
import { openStoreFile, readSlice } from "./store-file";

const FOLDER_SUFFIX = ".queued-images";
const FILE_SUFFIX = ".json";
/** One message's images as JSON at most: its images' base64, their names (escaped, six bytes a character at worst), a little more. */
const MAX_FILE_BYTES = MAX_IMAGES * (MAX_IMAGE_BASE64_CHARS + 6 * MAX_IMAGE_NAME_CHARS + 200);
const ImagesSchema = z.array(PromptImageSchema).check(z.maxLength(MAX_IMAGES));

export class QueuedImages {
  /** By session, the messages whose images are on disk now: a save writes only what is new, removes what is gone. */
  private readonly kept = new Map<SessionId, Set<string>>();

  constructor(
    private readonly folder: string,
    private readonly log: { warn(message: string): void },
  ) {}

  /**
   * Writes the images of the session's waiting messages that are not on disk yet, and removes those of messages that
   * no longer wait. A message whose images cannot be written goes after a reload without them (one log line).
   */
  async keep(session: StoredSession): Promise<void> {
    const kept = this.kept.get(session.id) ?? new Set<string>();
    const waiting = new Map(session.pendingPrompts.flatMap((prompt) => (prompt.images !== undefined && prompt.images.length > 0 && isFileName(prompt.id) ? [[prompt.id, prompt.images] as const] : [])));
    // Most saves: no message waits with images, none did.
    if (waiting.size === 0 && kept.size === 0) return;
    const folder = this.folderOf(session.id);
    for (const [id, images] of waiting) {
      if (kept.has(id)) continue;
      try {
        await fs.mkdir(folder, { recursive: true });
        await writeFileAtomically(path.join(folder, `${id}${FILE_SUFFIX}`), JSON.stringify(images));
        kept.add(id);
      } catch (error) {
        this.log.warn(`the images of a queued message of session ${session.id} could not be kept: ${describeError(error)}`);
      }
    }
    for (const id of [...kept].filter((each) => !waiting.has(each))) {
      await fs.rm(path.join(folder, `${id}${FILE_SUFFIX}`), { force: true });
      kept.delete(id);
    }
    this.kept.set(session.id, kept);
    if (kept.size === 0) await this.remove(session.id);
  }

  /**
   * The session with its waiting messages' images as they were kept. A message whose images are missing or unreadable
   * goes without them (one log line); images of messages that no longer wait are removed at the next save.
   */
  async restore(session: StoredSession): Promise<StoredSession> {
    const folder = this.folderOf(session.id);
    let names: string[];
    try {
      if (!(await fs.lstat(folder)).isDirectory()) return session;
      names = await fs.readdir(folder);
    } catch {
      return session;
    }
    const onDisk = new Set(names.filter((name) => name.endsWith(FILE_SUFFIX)).map((name) => name.slice(0, -FILE_SUFFIX.length)));
    this.kept.set(session.id, onDisk);
    const pendingPrompts = [];
    for (const prompt of session.pendingPrompts) {
      const images = onDisk.has(prompt.id) ? await this.read(session.id, prompt.id) : undefined;
      pendingPrompts.push(images === undefined ? prompt : { ...prompt, images });
    }
    return { ...session, pendingPrompts };
  }

  /** The session is deleted, or none of its messages waits with images. */
  async remove(id: SessionId): Promise<void> {
    this.kept.delete(id);
    await fs.rm(this.folderOf(id), { recursive: true, force: true });
  }

  private async read(sessionId: SessionId, id: string): Promise<PromptImage[] | undefined> {
    const file = await openStoreFile(path.join(this.folderOf(sessionId), `${id}${FILE_SUFFIX}`));
    if ("skipped" in file) return this.unread(sessionId, file.skipped);
    try {
      if (file.size > MAX_FILE_BYTES) return this.unread(sessionId, `it is over its size bound (${file.size} of at most ${MAX_FILE_BYTES} bytes)`);
      const parsed = ImagesSchema.safeParse(parseJson((await readSlice(file, 0, file.size)).toString("utf8")));
      return parsed.success ? parsed.data : this.unread(sessionId, "it does not fit its schema");
    } catch (error) {
      return this.unread(sessionId, `it cannot be read (${describeError(error)})`);
    } finally {
      await file.handle.close();
    }
  }

  private unread(sessionId: SessionId, why: string): undefined {
    this.log.warn(escapeForLog(`the images of a queued message of session ${sessionId} were not read back: ${why}; it goes without them`));
    return undefined;
  }

  private folderOf(id: SessionId): string {
    return path.join(this.folder, `${id}${FOLDER_SUFFIX}`);
  }
}

/** A message id names a file only when it is one of ours (a UUID): a stored one is not trusted to be. */
function isFileName(id: string): boolean {
  return SessionIdSchema.safeParse(id).success;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describeError(error: unknown): string {
  return escapeForLog(error instanceof Error ? error.message : String(error));
}
