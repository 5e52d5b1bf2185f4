// A `session/request_permission` in the permission desk's words (src/permissions/), said once for the live client
// (src/acp/request-permission.ts) and the replay of a recorded log (acp-adapter.ts): the tool's title and kind as
// merged so far, the agent's options of the kinds this version knows (an option of another kind cannot be told apart
// from an allow, so it is not shown), and the files the call names.
import { PERMISSION_OPTION_KINDS } from "../../protocol/events";
import type { PermissionOption, PermissionOptionKind, PermissionQuestion, PermissionRequest } from "../../permissions/permission-request";
import type { AcpToolCall } from "./acp-events";
import { sameRequestKey } from "./same-request";

/** The fields of the request this reads; the SDK's RequestPermissionRequest has them. */
export interface PermissionParams {
  toolCall: { toolCallId: string; title?: string | null };
  options: readonly { optionId: string; name: string; kind: string }[];
}

/** The question the desk judges; `tool`: the call as merged so far (the request may be its first mention). */
export function permissionQuestionOf(params: PermissionParams, tool: AcpToolCall | undefined): PermissionQuestion {
  const shown = shownFieldsOf(params, tool);
  return {
    ...shown,
    offeredIds: params.options.map((option) => option.optionId),
    files: pathsOf(tool),
    sameRequest: sameRequestKey(shown, tool),
  };
}

/** A request of a replayed log, as the chat shows it (the log cannot tell where the workspace was). */
export function replayedRequestOf(requestId: string, params: PermissionParams, tool: AcpToolCall | undefined): PermissionRequest {
  return { requestId, ...shownFieldsOf(params, tool), outsideWorkspace: [] };
}

function shownFieldsOf(params: PermissionParams, tool: AcpToolCall | undefined): Pick<PermissionRequest, "toolCallId" | "title" | "toolKind" | "options"> {
  return {
    toolCallId: params.toolCall.toolCallId,
    title: tool?.title || params.toolCall.title || params.toolCall.toolCallId,
    toolKind: tool?.kind ?? "other",
    options: params.options.flatMap(toOption),
  };
}

/** The files a call names: its locations and the paths of its diffs, each once, as the agent wrote them. */
export function pathsOf(tool: AcpToolCall | undefined): string[] {
  if (tool === undefined) return [];
  const diffs = tool.content.flatMap((content) => (content.type === "diff" ? [content.path] : []));
  return [...new Set([...tool.locations.map((place) => place.path), ...diffs])];
}

function toOption(option: { optionId: string; name: string; kind: string }): PermissionOption[] {
  if (!(PERMISSION_OPTION_KINDS as readonly string[]).includes(option.kind)) return [];
  return [{ id: option.optionId, name: option.name, kind: option.kind as PermissionOptionKind }];
}
