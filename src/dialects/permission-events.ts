// The permission desk's events (src/permissions/) as the normalized events every session reads: said once for every
// agent whose requests go through the desk (ACP's session/request_permission, Claude Code's can_use_tool).
import type { EventOfType } from "../protocol/events";
import { isAllowKind, type PermissionDecision, type PermissionRequest } from "../permissions/permission-request";

export function permissionRequestedPayload(request: PermissionRequest): EventOfType<"permission_requested">["payload"] {
  return {
    requestId: request.requestId,
    toolId: request.toolCallId,
    title: request.title,
    toolKind: request.toolKind,
    options: request.options.map((option) => ({ ...option })),
    ...(request.outsideWorkspace.length > 0 ? { outsideWorkspace: [...request.outsideWorkspace] } : {}),
  };
}

export function permissionAnsweredPayload(requestId: string, decision: PermissionDecision): EventOfType<"permission_answered">["payload"] {
  if (decision.outcome === "cancelled") return { requestId, decision: "cancelled", by: "cancelled" };
  const by = decision.by === "unrecorded" ? {} : { by: decision.by };
  return { requestId, decision: isAllowKind(decision.optionKind) ? "allowed" : "rejected", optionId: decision.optionId, ...by };
}
