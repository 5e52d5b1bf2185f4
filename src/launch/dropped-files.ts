// Files and folders dropped on the composer from VS Code's explorer (Shift held, as a webview requires), by the URIs
// the drop carried: each becomes a chip as an @ pick does, only when it is a file or folder inside the workspace
// folders once every symlink is resolved (the confinement an agent's own file requests get). Anything else is refused
// by name, never attached.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { confineToWorkspace } from "../acp/workspace-files";
import type { Attachment } from "../protocol/messages";
import { pathAsPicked } from "../common/picked-path";

export interface DroppedFiles {
  /** Chips for the composer, each path as the @ picker writes it (relative in a one-folder workspace, else absolute). */
  attachments: Attachment[];
  /** What was dropped and is not a workspace file or folder, as the drop named it. */
  refused: string[];
}

/**
 * `localPath`: the path another scheme's URI names on this machine (a remote window's `vscode-remote:` one, placed by
 * the editor), or undefined; a `file:` URI is read here.
 */
export async function droppedFiles(uris: readonly string[], roots: readonly string[], localPath: (uri: string) => string | undefined = () => undefined): Promise<DroppedFiles> {
  const attachments: Attachment[] = [];
  const refused: string[] = [];
  for (const uri of uris) {
    const attachment = await attachmentOf(pathOf(uri) ?? localPath(uri), roots);
    if (attachment === undefined) refused.push(uri);
    else if (!attachments.some((known) => known.path === attachment.path)) attachments.push(attachment);
  }
  return { attachments, refused };
}

async function attachmentOf(dropped: string | undefined, roots: readonly string[]): Promise<Attachment | undefined> {
  if (dropped === undefined) return undefined;
  const confined = await confineToWorkspace(dropped, roots);
  if (!confined.ok) return undefined;
  const stat = await fs.stat(confined.path).catch(() => undefined);
  if (stat === undefined || !(stat.isFile() || stat.isDirectory())) return undefined;
  return { kind: stat.isDirectory() ? "folder" : "file", path: pathAsPicked(path.normalize(dropped), roots) };
}

function pathOf(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    return url.protocol === "file:" ? fileURLToPath(url) : undefined;
  } catch {
    return undefined;
  }
}
