// What a tool returned, as the text its card shows. CLIs return a string or a list of content blocks (Anthropic's
// `[{type: "text", text}, {type: "image", source}]`, pi's `[{type: "image", data, mimeType}]`): text stays text, and a
// block that is not text (an image, a document) is one placeholder line, so no base64 ever reaches a card or a log.
import { isRecord } from "../../protocol/json-record";

/** The text of a tool's result; undefined when it returned nothing at all (no text, no blocks). */
export function toolOutputText(content: unknown): string | undefined {
  if (typeof content === "string") return content === "" ? undefined : content;
  if (!Array.isArray(content)) return undefined;
  const text = content.flatMap((block) => blockText(block)).join("\n");
  return text === "" ? undefined : text;
}

function blockText(block: unknown): string[] {
  if (typeof block === "string") return [block];
  if (!isRecord(block)) return [];
  if (typeof block.text === "string") return [block.text];
  if (typeof block.type !== "string") return [];
  const mediaType = mediaTypeOf(block);
  return [`[${block.type}${mediaType === undefined ? "" : `: ${mediaType}`}, not shown]`];
}

/** Anthropic's blocks name it in `source.media_type`, pi's and ACP's in `mimeType`. */
function mediaTypeOf(block: Record<string, unknown>): string | undefined {
  const named = isRecord(block.source) ? block.source.media_type : (block.mimeType ?? block.media_type);
  // A media type is a short token ("image/png"); anything else (spaces, control characters) is not worth a line.
  return typeof named === "string" && named.length <= 100 && named.includes("/") && [...named].every(isTokenCharacter) ? named : undefined;
}

function isTokenCharacter(character: string): boolean {
  return character > " " && character < "\u007f";
}
