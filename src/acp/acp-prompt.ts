// A prompt as an ACP agent takes it, by what its `initialize` answer says it takes (`promptCapabilities`): files and
// folders as `resource_link`s (every agent must take them), a selection as an embedded `resource` when it takes
// embedded context (else as text), an image as an `image` block only when it takes images. The parts' paths are
// workspace paths already confined by the launcher; relative ones are the workspace folder's (`cwd`).
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { ContentBlock, PromptCapabilities } from "@agentclientprotocol/sdk";
import { linesOf, nameOf } from "../common/attached-context";
import { fenced } from "../common/code-fence";
import type { Attachment } from "../protocol/messages";
import { imagesRefused, isImage, type PromptPart } from "../protocol/prompt-parts";

/** The prompt's content blocks, or why it cannot be sent to this agent (nothing is sent then). */
export type AcpPrompt = { ok: true; blocks: ContentBlock[] } | { ok: false; refusal: string };

/** `textOnly`: selections whose file is not in the workspace (an untitled buffer): their text goes, never a link. */
export function acpPrompt(
  prompt: string,
  parts: readonly PromptPart[],
  capabilities: PromptCapabilities | undefined,
  agent: string,
  cwd: string,
  textOnly: ReadonlySet<PromptPart> = new Set(),
): AcpPrompt {
  const blocks: ContentBlock[] = [{ type: "text", text: prompt }];
  for (const part of parts) {
    if (isImage(part)) {
      if (capabilities?.image !== true) return { ok: false, refusal: imagesRefused(agent) };
      blocks.push({ type: "image", mimeType: part.mimeType, data: part.data });
      continue;
    }
    if (part.kind === "selection") blocks.push(selectionBlock(part, capabilities?.embeddedContext === true && !textOnly.has(part), cwd));
    else blocks.push(...linkBlocks(part, cwd));
  }
  return { ok: true, blocks };
}

/** A file or folder by its `file:` URI; a line range, which a link cannot carry, said in a line of text before it. */
function linkBlocks(attachment: Attachment, cwd: string): ContentBlock[] {
  const link: ContentBlock = { type: "resource_link", uri: uriOf(attachment, cwd), name: nameOf(attachment) };
  if (attachment.lines === undefined) return [link];
  return [{ type: "text", text: `Lines ${linesOf(attachment).slice(1)} of ${attachment.path}:` }, link];
}

function selectionBlock(selection: Attachment, embedded: boolean, cwd: string): ContentBlock {
  const text = selection.text ?? "";
  const where = `${selection.path}${linesOf(selection)}`;
  if (!embedded) return { type: "text", text: `Selected text (${where}):\n${fenced(text, selection.language ?? "")}` };
  // The lines ride in the fragment, as editors link them (`#L3-7`): the text is the selection, not the whole file.
  const lines = selection.lines === undefined ? "" : `#L${selection.lines.start}-${selection.lines.end}`;
  return { type: "resource", resource: { uri: `${uriOf(selection, cwd)}${lines}`, text, mimeType: "text/plain" } };
}

function uriOf(attachment: Attachment, cwd: string): string {
  return pathToFileURL(path.resolve(cwd, attachment.path)).href;
}
