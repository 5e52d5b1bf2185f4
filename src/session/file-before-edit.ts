// A file's text as it is before an agent's proposed edit, for the diff its permission card shows. Only what a diff can
// show is read: a regular file of text, up to a bound; a FIFO or a device is never waited on.
import { constants as fsConstants, promises as fs } from "node:fs";

/** Larger files get no diff before the answer: reading them for a card is not worth the wait or the memory. */
export const MAX_DIFFED_FILE_BYTES = 1024 * 1024;

// Windows has no O_NONBLOCK: there, the regular-file check after opening holds the line alone.
const O_NONBLOCK = (fsConstants as Partial<typeof fsConstants>).O_NONBLOCK ?? 0;

/** The text; null when there is no such file (the edit creates it); undefined when it cannot be shown as text. */
export async function textBeforeEdit(file: string): Promise<string | null | undefined> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, fsConstants.O_RDONLY | O_NONBLOCK);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? null : undefined;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > MAX_DIFFED_FILE_BYTES) return undefined;
    const bytes = await handle.readFile();
    // A NUL byte: a binary file, which a text diff would only garble.
    return bytes.length > MAX_DIFFED_FILE_BYTES || bytes.includes(0) ? undefined : bytes.toString("utf8");
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}
