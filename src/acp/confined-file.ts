// An agent's file, opened race-free inside the workspace. The path was judged before (confineToWorkspace), but a folder
// on the way can be swapped for a symlink between that check and the use; so a file is opened without following a
// final symlink and without waiting on a FIFO, and what was opened is checked — by the descriptor's own path on Linux,
// elsewhere by its identity against the path resolved afresh — before a byte is read or written. A new file and its
// folders are made, on Linux, through descriptors of folders already known inside, so nothing is ever made outside.
import { constants as fsConstants, promises as fs, type BigIntStats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import * as path from "node:path";

/** The calls the confined access makes, so a test can act between them (swap a folder for a symlink) at an exact point. */
export interface FileSystemCalls {
  realpath(target: string): Promise<string>;
  lstat(target: string): Promise<BigIntStats>;
  stat(target: string): Promise<BigIntStats>;
  readlink(target: string): Promise<string>;
  open(target: string, flags: number, mode?: number): Promise<FileHandle>;
  mkdir(target: string): Promise<void>;
  rmdir(target: string): Promise<void>;
  unlink(target: string): Promise<void>;
  /**
   * A path that leads to the descriptor's own file or folder, whatever its path is by now (Linux: /proc/self/fd/N);
   * absent where the system has none.
   */
  linkOfDescriptor?(fd: number): string;
}

export const nodeFileSystem: FileSystemCalls = {
  realpath: (target) => fs.realpath(target),
  lstat: (target) => fs.lstat(target, { bigint: true }),
  stat: (target) => fs.stat(target, { bigint: true }),
  readlink: (target) => fs.readlink(target),
  open: (target, flags, mode) => fs.open(target, flags, mode),
  mkdir: async (target) => void (await fs.mkdir(target)),
  rmdir: (target) => fs.rmdir(target),
  unlink: (target) => fs.unlink(target),
  ...(process.platform === "linux" ? { linkOfDescriptor: (fd: number) => `/proc/self/fd/${fd}` } : {}),
};

/** A path judged inside the workspace: `path` with every symlink resolved, and the workspace folders' real paths. */
export interface ConfinedTarget {
  /** As the agent asked, for the errors it is told. */
  requested: string;
  path: string;
  roots: readonly string[];
}

/** Which file a path leads to: its device and inode. */
export interface FileIdentity {
  dev: bigint;
  ino: bigint;
}

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL } = fsConstants;
// Windows has none of these: there, the check of what was opened holds the line alone.
const O_NOFOLLOW = (fsConstants as Partial<typeof fsConstants>).O_NOFOLLOW ?? 0;
const O_NONBLOCK = (fsConstants as Partial<typeof fsConstants>).O_NONBLOCK ?? 0;
const O_DIRECTORY = (fsConstants as Partial<typeof fsConstants>).O_DIRECTORY ?? 0;
/** A final symlink is not followed, and a FIFO is opened at once (to be refused) instead of waiting for a writer. */
const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
const WRITE_FLAGS = O_WRONLY | O_NOFOLLOW | O_NONBLOCK;
const FOLDER_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
const NEW_FILE_MODE = 0o666;

export function isInsideAny(candidate: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    const relative = path.relative(root, candidate);
    return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
  });
}

export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** The regular file at `target`, opened for reading once it is known to be inside; the caller closes it. */
export async function openToRead(target: ConfinedTarget, calls: FileSystemCalls): Promise<{ file: FileHandle; size: number; identity: FileIdentity }> {
  const file = await openOrExplain(target.path, READ_FLAGS, target, calls);
  try {
    const stats = await file.stat({ bigint: true });
    if (!stats.isFile()) throw notARegularFile(target, stats);
    await checkOpened(file, target, calls);
    return { file, size: Number(stats.size), identity: { dev: stats.dev, ino: stats.ino } };
  } catch (error) {
    await file.close();
    throw error;
  }
}

/**
 * The identity of the regular file at `target`, checked inside as a read is; undefined when there is no file there.
 * A write through the editor takes it before the edit and compares it again just before the editor saves.
 */
export async function identityInside(target: ConfinedTarget, calls: FileSystemCalls): Promise<FileIdentity | undefined> {
  try {
    const { file, identity } = await openToRead(target, calls);
    await file.close();
    return identity;
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Writes `content` to the file at `target`, creating it and its missing folders inside the workspace. Nothing is
 * written, not even a truncation, before the opened file is known to be inside.
 */
export async function writeInside(target: ConfinedTarget, content: string, calls: FileSystemCalls, signal: AbortSignal): Promise<void> {
  const { file, created } = (await openThroughHeldFolders(target, calls)) ?? (await openAfterMakingFolders(target, calls));
  try {
    const stats = await file.stat({ bigint: true });
    if (!stats.isFile()) throw notARegularFile(target, stats);
    try {
      await checkOpened(file, target, calls);
    } catch (error) {
      if (created) await removeCreatedFile(file, target, calls);
      throw error;
    }
    if (signal.aborted) throw new Error(`the write of ${target.requested} was abandoned`);
    await file.truncate(0);
    await file.writeFile(content, "utf8");
  } finally {
    await file.close();
  }
}

interface OpenedToWrite {
  file: FileHandle;
  /** This write made the file: if it turns out to be outside, it is removed again. */
  created: boolean;
}

/**
 * Where a folder's descriptor can name what is in it (Linux), the missing folders and the file are made inside folders
 * held open and known to be inside: whatever is swapped meanwhile, nothing is made outside. Undefined where it cannot.
 */
async function openThroughHeldFolders(target: ConfinedTarget, calls: FileSystemCalls): Promise<OpenedToWrite | undefined> {
  const link = calls.linkOfDescriptor;
  if (link === undefined) return undefined;
  const { existing, missing } = await nearestExistingFolder(path.dirname(target.path), calls);
  let folder = await openFolder(existing, existing, target, calls);
  try {
    const where = await pathOfDescriptor(folder, calls);
    if (where === undefined) return undefined;
    if (!isInsideAny(where, target.roots)) throw ledOutside(target, where);
    let shown = existing;
    for (const name of missing) {
      const child = path.join(link(folder.fd), name);
      shown = path.join(shown, name);
      await makeFolder(child, target, calls);
      const next = await openFolder(child, shown, target, calls);
      await folder.close();
      folder = next;
    }
    return await openToWrite(path.join(link(folder.fd), path.basename(target.path)), target, calls);
  } finally {
    await folder.close();
  }
}

/** Elsewhere: the folders are made by path, each checked inside before the next is made in it, and the file opened by path. */
async function openAfterMakingFolders(target: ConfinedTarget, calls: FileSystemCalls): Promise<OpenedToWrite> {
  const { missing, existing } = await nearestExistingFolder(path.dirname(target.path), calls);
  let folder = existing;
  for (const name of missing) {
    folder = path.join(folder, name);
    const made = await makeFolder(folder, target, calls);
    const real = await calls.realpath(folder).catch(() => undefined);
    if (real !== undefined && isInsideAny(real, target.roots)) continue;
    if (made && real !== undefined) await calls.rmdir(real).catch(() => {});
    throw ledOutside(target, real);
  }
  return openToWrite(target.path, target, calls);
}

/** Create it if it is not there (and know that this write made it), else open what is there: never through a final symlink. */
async function openToWrite(openPath: string, target: ConfinedTarget, calls: FileSystemCalls): Promise<OpenedToWrite> {
  try {
    return { file: await calls.open(openPath, WRITE_FLAGS | O_CREAT | O_EXCL, NEW_FILE_MODE), created: true };
  } catch (error) {
    // Its folder was there a moment ago, made or checked: gone now, it was moved.
    if (errorCode(error) === "ENOENT") throw new Error(`a folder on the way to ${target.requested} was moved after it was checked; refused`);
    if (errorCode(error) !== "EEXIST") throw explainOpenError(error, target);
  }
  return { file: await openOrExplain(openPath, WRITE_FLAGS, target, calls), created: false };
}

async function openOrExplain(openPath: string, flags: number, target: ConfinedTarget, calls: FileSystemCalls): Promise<FileHandle> {
  try {
    return await calls.open(openPath, flags);
  } catch (error) {
    throw explainOpenError(error, target);
  }
}

/** True when this call made it; false when it was there. A folder on the way that vanished was moved since the check. */
async function makeFolder(folder: string, target: ConfinedTarget, calls: FileSystemCalls): Promise<boolean> {
  try {
    await calls.mkdir(folder);
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    if (errorCode(error) === "ENOENT") throw new Error(`a folder on the way to ${target.requested} was moved after it was checked; refused`);
    throw error;
  }
}

/** `folder` is the path the folder is opened by; `shown`, the one the agent is told. */
async function openFolder(folder: string, shown: string, target: ConfinedTarget, calls: FileSystemCalls): Promise<FileHandle> {
  try {
    return await calls.open(folder, FOLDER_FLAGS);
  } catch (error) {
    const code = errorCode(error);
    if (code !== "ELOOP" && code !== "ENOTDIR") throw error;
    // With O_DIRECTORY, a symlink is ENOTDIR as often as ELOOP: only a look at it tells a swap from a file in the way.
    const now = await calls.lstat(folder).catch(() => undefined);
    if (code === "ENOTDIR" && now !== undefined && !now.isSymbolicLink() && !now.isDirectory()) throw new Error(`${shown} is not a folder, so ${target.requested} cannot be made in it`);
    throw new Error(`a folder on the way to ${target.requested} was replaced by a symlink after it was checked; refused`);
  }
}

/** The nearest folder on the way to `folder` that exists (`folder` itself, often), and the names missing below it. */
async function nearestExistingFolder(folder: string, calls: FileSystemCalls): Promise<{ existing: string; missing: string[] }> {
  const missing: string[] = [];
  let existing = folder;
  while (!(await exists(existing, calls)) && path.dirname(existing) !== existing) {
    missing.unshift(path.basename(existing));
    existing = path.dirname(existing);
  }
  return { existing, missing };
}

/** What `file` really is must be inside a workspace folder: a folder swapped for a symlink since the check is caught. */
async function checkOpened(file: FileHandle, target: ConfinedTarget, calls: FileSystemCalls): Promise<void> {
  const where = await pathOfDescriptor(file, calls);
  if (where !== undefined) {
    if (!isInsideAny(where, target.roots)) throw ledOutside(target, where);
    return;
  }
  // No descriptor path here: the path, resolved afresh, must lead inside and to this very file.
  const real = await calls.realpath(target.path).catch(() => undefined);
  if (real === undefined || !isInsideAny(real, target.roots)) throw ledOutside(target, real);
  const [opened, found] = await Promise.all([file.stat({ bigint: true }), calls.stat(real).catch(() => undefined)]);
  if (found === undefined || !sameIdentity(opened, found)) throw ledOutside(target, undefined);
}

/** Where an open file or folder really is; undefined where the system cannot say. */
async function pathOfDescriptor(file: FileHandle, calls: FileSystemCalls): Promise<string | undefined> {
  if (calls.linkOfDescriptor === undefined) return undefined;
  try {
    return await calls.readlink(calls.linkOfDescriptor(file.fd));
  } catch {
    return undefined;
  }
}

/** Only the file this write created, where it is now: never a file someone has put there since. */
async function removeCreatedFile(file: FileHandle, target: ConfinedTarget, calls: FileSystemCalls): Promise<void> {
  const where = (await pathOfDescriptor(file, calls)) ?? (await calls.realpath(target.path).catch(() => undefined));
  if (where === undefined) return;
  try {
    const [opened, found] = await Promise.all([file.stat({ bigint: true }), calls.lstat(where)]);
    if (sameIdentity(opened, found)) await calls.unlink(where);
  } catch {
    // Gone already, or moved on: there is nothing of ours left to remove.
  }
}

/** lstat sees the link itself: true for a dangling symlink, whose realpath fails as if it were missing. */
export async function exists(target: string, calls: { lstat(target: string): Promise<unknown> }): Promise<boolean> {
  try {
    await calls.lstat(target);
    return true;
  } catch {
    return false;
  }
}

/** `where` it led, when that is known. */
function ledOutside(target: ConfinedTarget, where: string | undefined): Error {
  const to = where === undefined ? "" : ` (to ${where})`;
  return new Error(`${target.requested} led outside the workspace folders${to} after it was checked: a folder on the way was replaced; refused`);
}

function notARegularFile(target: ConfinedTarget, stats: BigIntStats): Error {
  return new Error(`${target.requested} is ${kindOf(stats)}, not a regular file: only regular files are read and written`);
}

function kindOf(stats: BigIntStats): string {
  if (stats.isDirectory()) return "a folder";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSocket()) return "a socket";
  return "something else";
}

/** The open's refusal in words; a missing file keeps its ENOENT, which the agent is told as "not found". */
function explainOpenError(error: unknown, target: ConfinedTarget): unknown {
  switch (errorCode(error)) {
    case "ELOOP":
      return new Error(`${target.requested} was replaced by a symlink after it was checked; refused`);
    case "ENXIO":
      return new Error(`${target.requested} is a FIFO or socket, not a regular file: only regular files are read and written`);
    case "EISDIR":
      return new Error(`${target.requested} is a folder, not a regular file: only regular files are read and written`);
    default:
      return error;
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
