// A permission request and its answer in no agent's words: ACP's `session/request_permission` is read into these
// (src/dialects/acp/permission-request.ts), and so will Claude's `can_use_tool`. A request is a state of the tool call
// it guards; its id, minted by the desk that holds it, is how an answer finds it.
import type { PERMISSION_OPTION_KINDS } from "../protocol/events";

/** What a tool does, in the words the settings use (`agentStream.autoApprove`); an agent's own kinds map onto these. */
export const TOOL_KINDS = ["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];

export type PermissionOptionKind = (typeof PERMISSION_OPTION_KINDS)[number];

export interface PermissionOption {
  /** The agent's own id: differs per agent, so never chosen by id or position, only by `kind`. */
  id: string;
  name: string;
  kind: PermissionOptionKind;
}

/** One open question from the agent: may this tool call run? */
export interface PermissionRequest {
  /** The desk's, unique per desk: ties the answer to the question. */
  requestId: string;
  toolCallId: string;
  title: string;
  toolKind: ToolKind;
  options: PermissionOption[];
  /**
   * The files the request names (its call's locations and diffs) that lie outside the workspace folders, as the agent
   * named them. Empty when there are none, and in a replayed log (which cannot tell where the workspace was).
   */
  outsideWorkspace: string[];
}

/**
 * A request as an agent's adapter hands it to the desk: what is shown, and what the desk judges it by. The desk gives
 * it its id and finds which of its files lie outside the workspace.
 */
export interface PermissionQuestion {
  toolCallId: string;
  title: string;
  toolKind: ToolKind;
  /** The options of the kinds this version knows (one of another kind cannot be told apart from an allow). */
  options: PermissionOption[];
  /** Every option id the agent offered, shown or not: two alike make any answer ambiguous. */
  offeredIds: readonly string[];
  /** The files the call names, as the agent wrote them. */
  files: readonly string[];
  /**
   * The request's identity for a standing "always" answer (the same kind, title, command and files): undefined when
   * what the call would do is not known, so that nothing may stand for it.
   */
  sameRequest: string | undefined;
}

/**
 * Who answered a permission request: the user, a setting (auto-answer by tool kind), the user's earlier "always"
 * answer to the same request in this conversation (`remembered`), or nobody (Stop, close); `unrecorded`: a replayed
 * log's answer, whose wire does not say who chose it.
 */
export type PermissionAnsweredBy = "user" | "setting" | "remembered" | "cancelled" | "unrecorded";

export type PermissionDecision =
  | { outcome: "selected"; optionId: string; optionKind: PermissionOptionKind; by: Exclude<PermissionAnsweredBy, "cancelled"> }
  | { outcome: "cancelled"; by: "cancelled" };

/** What the desk (or a replayed log) tells the chat: a request to show, and its one answer. */
export type PermissionEvent =
  | { type: "permission_requested"; request: PermissionRequest }
  | { type: "permission_answered"; requestId: string; toolCallId: string; decision: PermissionDecision };

/** The request's option with this id; undefined when the agent did not offer it (no answer at all, never a guess). */
export function offeredOption(request: Pick<PermissionRequest, "options">, optionId: string): PermissionOption | undefined {
  return request.options.find((option) => option.id === optionId);
}

/** Whether picking an option of this kind lets the tool run. */
export function isAllowKind(kind: PermissionOptionKind): boolean {
  return kind === "allow_once" || kind === "allow_always";
}

/** The answer that picks `option`, and who picked it. */
export function selectedDecision(option: PermissionOption, by: Exclude<PermissionAnsweredBy, "cancelled">): PermissionDecision {
  return { outcome: "selected", optionId: option.id, optionKind: option.kind, by };
}

/** No answer (Stop, close, a dismissed question, an option not offered): never an allow. */
export function cancelledDecision(): PermissionDecision {
  return { outcome: "cancelled", by: "cancelled" };
}
