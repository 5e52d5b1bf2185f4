// A prompt's parts besides the user's words: files, folders and a selection (attachments) and images. Each agent
// takes them its own way (ACP content blocks, Claude's content blocks, references in the text): the transports turn
// these parts into what the agent takes. Shared by the host and the webview, so the same bounds hold on both sides.
import * as z from "zod/mini";
import { IMAGE_MIME_TYPES, MAX_IMAGE_BASE64_CHARS, MAX_IMAGE_NAME_CHARS } from "./image-bytes";
import type { Attachment } from "./messages";

/** An image the user pasted, dropped or attached: its type as its bytes say, its bytes in base64, and its name. */
export const PromptImageSchema = z.strictObject({
  kind: z.literal("image"),
  mimeType: z.enum(IMAGE_MIME_TYPES),
  data: z.base64().check(z.minLength(1), z.maxLength(MAX_IMAGE_BASE64_CHARS)),
  name: z.string().check(z.maxLength(MAX_IMAGE_NAME_CHARS)),
});
export type PromptImage = z.infer<typeof PromptImageSchema>;

/** What a prompt carries besides its words, in the order the user attached them. */
export type PromptPart = Attachment | PromptImage;

export function isImage(part: PromptPart): part is PromptImage {
  return part.kind === "image";
}

/** The sentence that refuses a prompt's images for an agent that takes none: nothing is sent. */
export function imagesRefused(agent: string): string {
  return `${agent} does not take images: remove the image to send this prompt (nothing was sent).`;
}
