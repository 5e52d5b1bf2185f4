// When a permission request is "the same request" as one the user answered "always": the same tool kind and title,
// and the same call — its raw input (the command), its locations and its diffs. The title is the agent's free text,
// so it alone says nothing of what will run. Compared by a fixed-size digest of a canonical form, not by identity.
import { createHash, type Hash } from "node:crypto";
import type { AcpPermissionRequest, AcpToolCall } from "../dialects/acp/acp-events";

/**
 * The request's identity for a standing answer; undefined for a request without a title of its own (only its call's
 * id) or whose call could not be read: what it would do is not known, so nothing may stand for it.
 */
export function sameRequestKey(request: AcpPermissionRequest, tool: AcpToolCall | undefined): string | undefined {
  if (tool === undefined || request.title === request.toolCallId) return undefined;
  const diffs = tool.content.flatMap((content) => (content.type === "diff" ? [[content.path, content.oldText, content.newText]] : []));
  const hash = createHash("sha256");
  hashCanonicalJson(hash, [request.toolKind, request.title, tool.rawInput ?? null, tool.locations, diffs]);
  return hash.digest("hex");
}

/** A piece of the canonical text itself, as opposed to a value still to be written. */
class Written {
  constructor(readonly text: string) {}
}

/**
 * Feeds `value` to `hash` as JSON with every object's keys sorted, so key order does not matter. A loop, not
 * recursion: an agent's raw input may nest deeper than the stack goes.
 */
function hashCanonicalJson(hash: Hash, value: unknown): void {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next instanceof Written) hash.update(next.text);
    else if (Array.isArray(next)) pushEnclosed(pending, "[", "]", next.length, () => "", (i) => next[i]);
    else if (typeof next === "object" && next !== null) {
      const record = next as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      pushEnclosed(pending, "{", "}", keys.length, (i) => JSON.stringify(keys[i]) + ":", (i) => record[keys[i]!]);
    } else hash.update(JSON.stringify(next) ?? "null");
  }
}

/** Queues `count` items between brackets, comma-separated, each after its prefix: the last to be written first. */
function pushEnclosed(pending: unknown[], open: string, close: string, count: number, prefix: (i: number) => string, item: (i: number) => unknown): void {
  pending.push(new Written(close));
  for (let i = count - 1; i >= 0; i--) pending.push(item(i), new Written((i > 0 ? "," : "") + prefix(i)));
  pending.push(new Written(open));
}
