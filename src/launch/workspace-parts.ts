// Only workspace files go to an agent as a prompt's parts: an agent reads a linked or `@`-named file itself, often
// without asking, so a part naming anything outside the workspace folders (a symlink out included) is dropped here,
// whatever sent it. Relative paths are the workspace folder's (`cwd`), as the @ picker and `ask --attach` write them.
import * as fs from "node:fs";
import * as path from "node:path";
import { isInsideAny } from "../acp/confined-file";
import { isImage, type PromptPart } from "../protocol/prompt-parts";

export interface ConfinedParts {
  parts: PromptPart[];
  /**
   * Selections whose file is not a workspace file (an untitled buffer, a file outside): the user chose their text, so
   * it goes, but as text only, never as a link to where it came from.
   */
  textOnly: ReadonlySet<PromptPart>;
  /** The paths dropped, as they were written, for the log or the user. */
  refused: string[];
}

export function workspaceParts(parts: readonly PromptPart[], cwd: string, roots: readonly string[]): ConfinedParts {
  const realRoots = roots.flatMap((root) => realPathOf(root) ?? []);
  const kept: PromptPart[] = [];
  const textOnly = new Set<PromptPart>();
  const refused: string[] = [];
  for (const part of parts) {
    if (isImage(part) || isInsideWorkspace(path.resolve(cwd, part.path), realRoots)) kept.push(part);
    else if (part.kind === "selection") {
      kept.push(part);
      textOnly.add(part);
    } else refused.push(part.path);
  }
  return { parts: kept, textOnly, refused };
}

/** Whether the path, every symlink resolved, is an existing file or folder inside one of the (real) roots. */
export function isInsideWorkspace(absolute: string, realRoots: readonly string[]): boolean {
  if (absolute.includes("\0")) return false;
  const real = realPathOf(absolute);
  return real !== undefined && isInsideAny(real, realRoots);
}

function realPathOf(target: string): string | undefined {
  try {
    return fs.realpathSync.native(target);
  } catch {
    return undefined;
  }
}
