// `agent-stream ask --attach PATH`: each path as a prompt part, as the composer's @ picker and paste make them. A
// folder or a file is passed by its path in the workspace (--cwd); an image (PNG, JPEG, GIF, WebP by its bytes, never
// by its name) by its bytes. A path that is missing, outside the workspace, or an image too large is a usage error.
import * as fs from "node:fs";
import * as path from "node:path";
import { isInsideAny } from "../acp/confined-file";
import { MAX_IMAGE_BYTES, MAX_IMAGES, imageTypeOf } from "../protocol/image-bytes";
import { MAX_ATTACHMENTS } from "../protocol/messages";
import type { PromptPart } from "../protocol/prompt-parts";
import { UsageError } from "./usage-error";

/** How many bytes say whether a file is an image. */
const SIGNATURE_BYTES = 16;

/** The parts of `--attach`'s paths (relative to the shell's folder, as typed), in their order. */
export function attachedParts(typed: readonly string[], workspace: string): PromptPart[] {
  const root = fs.realpathSync.native(workspace);
  const parts = typed.map((each) => partOf(each, root));
  if (parts.filter((part) => part.kind === "image").length > MAX_IMAGES) throw new UsageError(`--attach: at most ${MAX_IMAGES} images`);
  if (parts.filter((part) => part.kind !== "image").length > MAX_ATTACHMENTS) throw new UsageError(`--attach: at most ${MAX_ATTACHMENTS} files and folders`);
  return parts;
}

function partOf(typed: string, root: string): PromptPart {
  const flag = `--attach ${JSON.stringify(typed)}`;
  if (typed === "" || typed.includes("\0")) throw new UsageError(`${flag} is not a path`);
  let real: string;
  try {
    real = fs.realpathSync.native(path.resolve(typed));
  } catch {
    throw new UsageError(`${flag}: no such file or folder`);
  }
  // Symlinks resolved first: a link inside the workspace to a file outside is outside.
  if (!isInsideAny(real, [root])) throw new UsageError(`${flag} is outside the workspace (${root}); only its files can be attached`);
  const inWorkspace = path.relative(root, real) || ".";
  const stat = fs.statSync(real);
  if (stat.isDirectory()) return { kind: "folder", path: inWorkspace };
  if (!stat.isFile()) throw new UsageError(`${flag} is neither a file nor a folder`);
  const mimeType = imageTypeOf(signatureOf(real));
  if (mimeType === null) return { kind: "file", path: inWorkspace };
  if (stat.size > MAX_IMAGE_BYTES) throw new UsageError(`${flag}: the image is larger than ${MAX_IMAGE_BYTES / (1024 * 1024)} MB`);
  return { kind: "image", mimeType, data: fs.readFileSync(real).toString("base64"), name: path.basename(real) };
}

function signatureOf(file: string): Uint8Array {
  const handle = fs.openSync(file, "r");
  try {
    const bytes = Buffer.alloc(SIGNATURE_BYTES);
    const read = fs.readSync(handle, bytes, 0, SIGNATURE_BYTES, 0);
    return bytes.subarray(0, read);
  } finally {
    fs.closeSync(handle);
  }
}
