// A file in a CLI's own session store, opened to read and nothing else: never through a final symlink, never waiting
// on a FIFO (O_NONBLOCK opens it at once, to be refused), and only when what was opened is a regular file. Read in
// bounded slices, so neither a huge file nor a file that grows while it is read can hold more than one slice.
import { constants as fsConstants, promises as fs } from "node:fs";
import type { FileHandle } from "node:fs/promises";

// Windows has neither flag: there the check of what was opened holds the line alone.
const O_NOFOLLOW = (fsConstants as Partial<typeof fsConstants>).O_NOFOLLOW ?? 0;
const O_NONBLOCK = (fsConstants as Partial<typeof fsConstants>).O_NONBLOCK ?? 0;
const READ_FLAGS = fsConstants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK;

/** Bytes one read of a stored session takes at a time. */
export const SLICE_BYTES = 64 * 1024;

export interface StoreFile {
  readonly handle: FileHandle;
  /** The size when it was opened: reads stop there, whatever is appended meanwhile. */
  readonly size: number;
  readonly modifiedAt: number;
}

/** The regular file at `target`, open for reading, or why it is not read. The caller closes it. */
export async function openStoreFile(target: string): Promise<StoreFile | { skipped: string }> {
  let handle: FileHandle;
  try {
    handle = await fs.open(target, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { skipped: code === "ELOOP" ? "it is a symbolic link" : code === "ENOENT" ? "it does not exist" : `it cannot be opened (${code ?? String(error)})` };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      await handle.close();
      return { skipped: stats.isFIFO() ? "it is a FIFO, not a file" : "it is not a regular file" };
    }
    return { handle, size: stats.size, modifiedAt: stats.mtimeMs };
  } catch (error) {
    await handle.close();
    return { skipped: `it cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
}

/** Up to `length` bytes from `position` (fewer at the end of the file). */
export async function readSlice(file: StoreFile, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(Math.max(0, Math.min(length, file.size - position)));
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await file.handle.read(buffer, filled, buffer.length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/** The file's bytes up to the size it had when opened, a slice at a time. */
export async function* readSlices(file: StoreFile): AsyncGenerator<Buffer> {
  for (let position = 0; position < file.size; ) {
    const slice = await readSlice(file, position, SLICE_BYTES);
    if (slice.length === 0) return;
    position += slice.length;
    yield slice;
  }
}
