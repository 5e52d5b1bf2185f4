// Which bytes are an image an agent may be sent: PNG, JPEG, GIF or WebP by their signature (never by a name), within
// the size the model services take. No zod here: the webview checks a pasted or dropped image with these same rules.

/** The image types every agent that takes images takes; anything else is refused before it is sent. */
export const IMAGE_MIME_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];

/** An image's bytes at most: model services refuse larger ones (Anthropic's limit is 5 MB per image). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Its base64 text at most. */
export const MAX_IMAGE_BASE64_CHARS = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;
/** How many images one prompt may carry. */
export const MAX_IMAGES = 5;
/** An image's name as the chip shows it (a pasted image has none of its own). */
export const MAX_IMAGE_NAME_CHARS = 256;

/**
 * The image type its first bytes say (PNG, JPEG, GIF, WebP), or null for anything else: a file's name or a clipboard's
 * label is not trusted, only its signature.
 */
export function imageTypeOf(bytes: Uint8Array): ImageMimeType | null {
  const starts = (signature: readonly number[], at = 0) => signature.every((byte, index) => bytes[at + index] === byte);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return "image/gif";
  // RIFF....WEBP
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return null;
}

/** Why these bytes cannot go as an image (not one of the types, or too large), or null when they can. */
export function imageRefusal(name: string, bytes: Uint8Array): string | null {
  if (imageTypeOf(bytes) === null) return `${name} is not a PNG, JPEG, GIF or WebP image`;
  if (bytes.byteLength > MAX_IMAGE_BYTES) return `${name} is larger than ${MAX_IMAGE_BYTES / (1024 * 1024)} MB`;
  return null;
}

