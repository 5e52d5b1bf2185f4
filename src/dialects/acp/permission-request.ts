// A `session/request_permission` and its answer in the chat's words, said once for the live client
// (src/acp/permission-desk.ts) and the replay of a recorded log (acp-adapter.ts): the tool's title and kind as merged so
// far, the agent's options of the kinds this version knows (an option of another kind cannot be told apart from an
// allow, so it is not shown), and the decision: an offered option picked, or cancelled.
import {
  PERMISSION_OPTION_KINDS,
  type AcpPermissionDecision,
  type AcpPermissionOption,
  type AcpPermissionRequest,
  type AcpToolCall,
  type PermissionAnsweredBy,
  type PermissionOptionKind,
} from "./acp-events";

/** The fields of the request this reads; the SDK's RequestPermissionRequest has them. */
export interface PermissionParams {
  toolCall: { toolCallId: string; title?: string | null };
  options: readonly { optionId: string; name: string; kind: string }[];
}

/** `tool`: the call as merged so far (the request may be its first mention). */
export function permissionRequestOf(requestId: number, params: PermissionParams, tool: AcpToolCall | undefined): AcpPermissionRequest {
  return {
    requestId,
    toolCallId: params.toolCall.toolCallId,
    title: tool?.title || params.toolCall.title || params.toolCall.toolCallId,
    toolKind: tool?.kind ?? "other",
    options: params.options.flatMap(toOption),
    outsideWorkspace: [],
  };
}

/** The files a call names: its locations and the paths of its diffs, each once, as the agent wrote them. */
export function pathsOf(tool: AcpToolCall | undefined): string[] {
  if (tool === undefined) return [];
  const diffs = tool.content.flatMap((content) => (content.type === "diff" ? [content.path] : []));
  return [...new Set([...tool.locations.map((place) => place.path), ...diffs])];
}

function toOption(option: { optionId: string; name: string; kind: string }): AcpPermissionOption[] {
  if (!(PERMISSION_OPTION_KINDS as readonly string[]).includes(option.kind)) return [];
  return [{ id: option.optionId, name: option.name, kind: option.kind as PermissionOptionKind }];
}

/** The request's option with this id; undefined when the agent did not offer it (no answer at all, never a guess). */
export function offeredOption(request: AcpPermissionRequest, optionId: string): AcpPermissionOption | undefined {
  return request.options.find((option) => option.id === optionId);
}

/** Whether picking an option of this kind lets the tool run. */
export function isAllowKind(kind: PermissionOptionKind): boolean {
  return kind === "allow_once" || kind === "allow_always";
}

/** The answer that picks `option`, and who picked it. */
export function selectedDecision(option: AcpPermissionOption, by: Exclude<PermissionAnsweredBy, "cancelled">): AcpPermissionDecision {
  return { outcome: "selected", optionId: option.id, optionKind: option.kind, by };
}

/** No answer (Stop, close, a dismissed question, an option not offered): never an allow. */
export function cancelledDecision(): AcpPermissionDecision {
  return { outcome: "cancelled", by: "cancelled" };
}
