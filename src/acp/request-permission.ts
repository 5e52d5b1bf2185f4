// ACP's `session/request_permission` onto the permission desk: the request read into the desk's words, its one
// decision written back as ACP's outcome. The desk's rules hold for ACP agents through this and nothing else.
import type { RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import type { AcpToolCall } from "../dialects/acp/acp-events";
import { permissionQuestionOf } from "../dialects/acp/permission-request";
import type { Asker, PermissionDesk } from "../permissions/permission-desk";

/** The answer to one request. `tool` is the call as merged so far (the request may be its first mention). */
export async function requestPermission(desk: PermissionDesk, params: RequestPermissionRequest, tool: AcpToolCall | undefined, asker: Asker): Promise<RequestPermissionResponse> {
  const decision = await desk.ask(permissionQuestionOf(params, tool), asker);
  return decision.outcome === "selected" ? { outcome: { outcome: "selected", optionId: decision.optionId } } : { outcome: { outcome: "cancelled" } };
}
