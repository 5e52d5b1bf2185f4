// Writing a file so that a crash at any moment leaves either the old file whole or the new one whole, never a part
// of either: the text goes to a temporary file beside it, reaches the disk, and only then takes the file's name.
import { randomUUID } from "node:crypto";
import * as fs from "node:fs/promises";
import * as path from "node:path";

/** How a temporary file ends: nothing that reads the folder takes one for a finished file. */
export const TEMPORARY_SUFFIX = ".tmp";

/**
 * Writes `text` to `file` atomically and resolves with its size in bytes. The temporary file is flushed to the disk
 * before the rename (otherwise a power cut can leave the new name on an empty file) and removed if anything fails.
 */
export async function writeFileAtomically(file: string, text: string): Promise<number> {
  const bytes = Buffer.from(text, "utf8");
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}${TEMPORARY_SUFFIX}`);
  try {
    const handle = await fs.open(temporary, "wx", 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
  return bytes.length;
}
