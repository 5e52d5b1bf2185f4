// An open file that counts the bytes read through it: how a test tells that a read stopped where it should, rather
// than reading a whole large file and keeping only a line of it.
import type { FileHandle } from "node:fs/promises";

/** `file`, telling `onRead` how many bytes each read through it returned. */
export function countReads(file: FileHandle, onRead: (bytes: number) => void): FileHandle {
  return new Proxy(file, {
    get(target, key) {
      if (key === "read") {
        return async (...args: Parameters<FileHandle["read"]>) => {
          const result = await target.read(...args);
          onRead(result.bytesRead);
          return result;
        };
      }
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
