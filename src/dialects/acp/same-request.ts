// When a permission request is "the same request" as one the user answered "always": the same tool kind and title,
// and the same call — its raw input (the command), its locations and its diffs. The title is the agent's free text,
// so it alone says nothing of what will run. Compared by the call's fingerprint, which the tool-call book keeps of the
// whole input and diffs the agent last sent, even once they were cut or let go (an agent may send them before it asks).
import type { PermissionRequest } from "../../permissions/permission-request";
import type { AcpToolCall } from "./acp-events";
import { canonicalDigest } from "./canonical-digest";

/**
 * The request's identity for a standing answer; undefined for a request without a title of its own (only its call's
 * id) or whose call could not be read: what it would do is not known, so nothing may stand for it.
 */
export function sameRequestKey(request: Pick<PermissionRequest, "toolCallId" | "title" | "toolKind">, tool: AcpToolCall | undefined): string | undefined {
  if (tool === undefined || request.title === request.toolCallId) return undefined;
  return canonicalDigest([request.toolKind, request.title, tool.fingerprint.input, tool.locations, tool.fingerprint.diffs]);
}
