// ReadFile: one file of the workspace as text, read-only and at most 1 MB, and a plain sentence when it
// cannot be read (missing, a folder, a broken symlink, no permission, outside the workspace).
import { constants } from "node:fs";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { failed, succeeded, type ToolResult } from "./tool-result";

export const MAX_READ_BYTES = 1024 * 1024;
/** Git's rule of thumb: a NUL byte in the first 8000 bytes means binary. */
const BINARY_SNIFF_BYTES = 8000;

export interface FileText {
  /** Relative to the workspace root, with `/` separators. */
  path: string;
  text: string;
  /** The file's whole size on disk. */
  size: number;
  /** Only the first MAX_READ_BYTES were read. */
  truncated: boolean;
  /** The file is not text; `text` is empty. */
  binary: boolean;
}

export async function readFile(root: string, requested: string, maxBytes = MAX_READ_BYTES): Promise<ToolResult<FileText>> {
  const located = await locate(root, requested);
  if (!located.ok) return located;
  const { absolute, relative } = located.value;
  const content = await readTextWithin(absolute, maxBytes);
  if (!content.ok) return failed(describeReadError(content.error, relative));
  return succeeded({ path: relative, ...content.value });
}

/** Reads the start of a file without ever opening it for writing. Errors are errno codes. */
export async function readTextWithin(
  absolute: string,
  maxBytes: number,
): Promise<ToolResult<{ text: string; size: number; truncated: boolean; binary: boolean }>> {
  let handle: fs.FileHandle | undefined;
  try {
    // Checked before opening: opening a FIFO for reading would wait for a writer forever.
    const kind = await fs.stat(absolute);
    if (kind.isDirectory()) return failed("EISDIR");
    if (!kind.isFile()) return failed("ENOTFILE");
    handle = await fs.open(absolute, constants.O_RDONLY | constants.O_NONBLOCK);
    const stats = await handle.stat();
    const wanted = Math.min(stats.size, maxBytes);
    const buffer = Buffer.alloc(wanted);
    let filled = 0;
    while (filled < wanted) {
      const { bytesRead } = await handle.read(buffer, filled, wanted - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const bytes = buffer.subarray(0, filled);
    const binary = bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
    return succeeded({ text: binary ? "" : bytes.toString("utf8"), size: stats.size, truncated: stats.size > filled, binary });
  } catch (error) {
    return failed(errnoOf(error));
  } finally {
    await handle?.close();
  }
}

export function describeReadError(code: string, displayPath: string): string {
  switch (code) {
    case "ENOENT":
      return `${displayPath} does not exist`;
    case "EISDIR":
      return `${displayPath} is a folder, not a file`;
    case "ENOTFILE":
      return `${displayPath} is not a regular file`;
    case "EACCES":
    case "EPERM":
      return `permission denied reading ${displayPath}`;
    case "ELOOP":
      return `${displayPath} is a symbolic link that loops`;
    default:
      return `cannot read ${displayPath} (${code})`;
  }
}

/** Resolves a path the user gave, refusing anything outside the workspace, symlinks included. */
async function locate(root: string, requested: string): Promise<ToolResult<{ absolute: string; relative: string }>> {
  const absolute = path.resolve(root, requested);
  const relative = toPosix(path.relative(root, absolute));
  if (relative === "") return failed(`${requested} is the workspace folder, not a file`);
  if (isOutside(relative)) return failed(`${requested} is outside the workspace`);
  let real: string;
  try {
    real = await fs.realpath(absolute);
  } catch (error) {
    return failed(await describeUnresolvable(absolute, relative, errnoOf(error)));
  }
  const realRoot = await fs.realpath(root).catch(() => root);
  if (isOutside(toPosix(path.relative(realRoot, real)))) return failed(`${relative} leads outside the workspace`);
  return succeeded({ absolute: real, relative });
}

async function describeUnresolvable(absolute: string, relative: string, code: string): Promise<string> {
  if (code !== "ENOENT") return describeReadError(code, relative);
  try {
    const target = await fs.readlink(absolute);
    return `${relative} is a broken symbolic link: its target ${target} does not exist`;
  } catch {
    return describeReadError(code, relative);
  }
}

function isOutside(relative: string): boolean {
  return relative === ".." || relative.startsWith("../") || path.isAbsolute(relative);
}

function toPosix(p: string): string {
  return p.split(path.sep).join("/");
}

function errnoOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : String(error);
}
