// Claude Code's own permission channel (`--permission-prompt-tool stdio`) in the permission desk's words: a
// `control_request` `can_use_tool` read into a question, the desk's decision written back as the `control_response`
// Claude waits for, and a `control_cancel_request` read as the request withdrawn. Shapes as Claude Code 2.1.330 sends
// them: test/fixtures/claude-recorded/README.md ("Claude's own permission channel").
import * as z from "zod/mini";
import type { ChannelMessage, PermissionChannel } from "../permissions/permission-channel";
import { shownPath } from "../permissions/shown-path";
import type { PermissionDecision, PermissionOption, PermissionQuestion, ToolKind } from "../permissions/permission-request";
import type { ProtocolError } from "../protocol/events";
import { isRecord } from "../protocol/json-record";
import { canonicalDigest } from "./acp/canonical-digest";
import { proposedEditsOf } from "./claude-proposed-edit";

const CAN_USE_TOOL = z.object({
  type: z.literal("control_request"),
  request_id: z.string(),
  request: z.object({
    subtype: z.literal("can_use_tool"),
    tool_name: z.string(),
    input: z.record(z.string(), z.unknown()),
    tool_use_id: z.optional(z.string()),
    permission_suggestions: z.optional(z.array(z.unknown())),
    blocked_path: z.optional(z.string()),
  }),
});
/** `result.permission_denials`: each call refused, by the user's answer or by print mode's default. */
const DENIALS = z.object({ permission_denials: z.array(z.object({ tool_name: z.string(), tool_input: z.optional(z.record(z.string(), z.unknown())) })) });
const CANCEL = z.object({ type: z.literal("control_cancel_request"), request_id: z.string() });
/** The only suggestion that allows no more than this call: a rule for its tool and its exact command or path. */
const ADD_RULES = z.looseObject({ type: z.literal("addRules"), behavior: z.literal("allow"), rules: z.array(z.unknown()) });

export type CanUseTool = z.infer<typeof CAN_USE_TOOL>["request"];

const TOOL_KINDS: Readonly<Record<string, ToolKind>> = {
  Bash: "execute",
  Edit: "edit",
  MultiEdit: "edit",
  Write: "edit",
  NotebookEdit: "edit",
  Read: "read",
  Glob: "search",
  Grep: "search",
  WebFetch: "fetch",
  ExitPlanMode: "switch_mode",
};

/** The kind of one of Claude's tools, in the settings' words; `other` for a tool this version does not know. */
export function claudeToolKind(tool: string): ToolKind {
  return TOOL_KINDS[tool] ?? "other";
}

/** Whether a call of this tool does the work asked for, as opposed to looking around first (a Read, a Grep). */
export function isClaudeWork(tool: string): boolean {
  const kind = claudeToolKind(tool);
  return kind !== "read" && kind !== "search";
}

const ALLOW: PermissionOption = { id: "allow", name: "Allow", kind: "allow_once" };
const ALWAYS: PermissionOption = { id: "allow_always", name: "Always allow", kind: "allow_always" };
const REJECT: PermissionOption = { id: "reject", name: "Reject", kind: "reject_once" };

/** The reason the model reads when nobody allowed the call: it goes on without it. */
const REJECTED_MESSAGE = "The user rejected this tool call.";
const CANCELLED_MESSAGE = "The request was cancelled before the user answered (Stop, or the session closed).";

export const claudePermissionChannel: PermissionChannel = { read: readClaudePermissionLine };

/** A `can_use_tool` request or a `control_cancel_request`; undefined for every other line. `cwd` is the run's folder. */
export function readClaudePermissionLine(value: unknown, cwd?: string): ChannelMessage | undefined {
  if (!isRecord(value)) return undefined;
  if (value.type === "control_cancel_request") {
    const cancel = CANCEL.safeParse(value);
    return cancel.success ? { type: "withdrawn", id: cancel.data.request_id } : undefined;
  }
  if (value.type !== "control_request" || !isRecord(value.request) || value.request.subtype !== "can_use_tool") return undefined;
  const line = CAN_USE_TOOL.safeParse(value);
  // A request that cannot be read is still answered: Claude would wait for it forever.
  if (!line.success) return unreadableRequest(value.request_id);
  const request = line.data.request;
  const requestId = line.data.request_id;
  return {
    type: "request",
    id: requestId,
    question: claudePermissionQuestion(request, requestId, cwd),
    edits: proposedEditsOf(request.tool_name, request.input),
    answer: (decision) => controlResponseLine(requestId, answerOf(request, decision)),
    sessionRules: ruleSuggestions(request).flatMap(allowedToolsEntries),
  };
}

/** What the card asks: the tool's kind, what it will do, and Allow / Always allow (when Claude can keep it) / Reject. */
export function claudePermissionQuestion(request: CanUseTool, requestId: string, cwd?: string): PermissionQuestion {
  const toolKind = claudeToolKind(request.tool_name);
  const options = ruleSuggestions(request).length > 0 ? [ALLOW, ALWAYS, REJECT] : [ALLOW, REJECT];
  const files = filesOf(request);
  return {
    toolCallId: request.tool_use_id ?? requestId,
    title: titleOf(request, cwd),
    toolKind,
    options,
    offeredIds: options.map((option) => option.id),
    files,
    sameRequest: canonicalDigest([toolKind, request.tool_name, request.input, files]),
  };
}

/**
 * The `control_response`'s inner answer. "Always" hands back only Claude's own rule for this command or path, and for
 * this session only: its other suggestions would allow every edit (`setMode acceptEdits`) or a whole folder, and its
 * `localSettings` destination writes the rule into the workspace's `.claude/settings.local.json`.
 */
export function answerOf(request: CanUseTool, decision: PermissionDecision): Record<string, unknown> {
  if (decision.outcome === "cancelled") return { behavior: "deny", message: CANCELLED_MESSAGE };
  if (decision.optionKind === "allow_once") return { behavior: "allow", updatedInput: request.input };
  if (decision.optionKind === "allow_always") {
    const updatedPermissions = ruleSuggestions(request).map((suggestion) => ({ ...suggestion, destination: "session" }));
    return { behavior: "allow", updatedInput: request.input, updatedPermissions };
  }
  return { behavior: "deny", message: REJECTED_MESSAGE };
}

function controlResponseLine(requestId: string, response: Record<string, unknown>): string {
  return JSON.stringify({ type: "control_response", response: { subtype: "success", request_id: requestId, response } });
}

/** A request whose fields are not as expected: shown as what it is, and never allowed without the user. */
function unreadableRequest(requestId: unknown): ChannelMessage | undefined {
  if (typeof requestId !== "string") return undefined;
  const question: PermissionQuestion = {
    toolCallId: requestId,
    title: "A tool call Claude Code asked about in a form this version cannot read",
    toolKind: "other",
    options: [REJECT],
    offeredIds: [REJECT.id],
    files: [],
    sameRequest: undefined,
  };
  return { type: "request", id: requestId, question, edits: [], answer: () => controlResponseLine(requestId, { behavior: "deny", message: REJECTED_MESSAGE }), sessionRules: [] };
}

function ruleSuggestions(request: CanUseTool): Record<string, unknown>[] {
  return (request.permission_suggestions ?? []).flatMap((suggestion) => {
    const rule = ADD_RULES.safeParse(suggestion);
    return rule.success ? [rule.data] : [];
  });
}

const RULE = z.object({ toolName: z.string().check(z.regex(/^[A-Za-z_][\w-]*$/)), ruleContent: z.optional(z.string()) });

/**
 * A rule of an "always" answer as `--allowedTools` takes it (`Bash(touch always.txt)`: a space inside the parentheses
 * is kept, checked with 2.1.330). A rule whose text the flag's list could read otherwise (parentheses, a comma, a
 * backslash, a line break) is left out rather than risk allowing more: the desk still answers it from the "always".
 */
function allowedToolsEntries(suggestion: Record<string, unknown>): string[] {
  const rules = Array.isArray(suggestion.rules) ? suggestion.rules : [];
  return rules.flatMap((candidate) => {
    const rule = RULE.safeParse(candidate);
    if (!rule.success) return [];
    const { toolName, ruleContent } = rule.data;
    if (ruleContent === undefined) return [toolName];
    return ruleContent === "" || /[(),\\\r\n]/.test(ruleContent) ? [] : [`${toolName}(${ruleContent})`];
  });
}

/** The command for Bash; the tool and its file (relative to the run's folder when inside it), path or URL for the others. */
function titleOf(request: Pick<CanUseTool, "tool_name" | "input">, cwd: string | undefined): string {
  const { tool_name: tool, input } = request;
  const command = stringField(input, "command");
  if (tool === "Bash" && command !== undefined) return command;
  if (tool === "ExitPlanMode") return "Leave plan mode and start working on the plan";
  const file = stringField(input, "file_path") ?? stringField(input, "notebook_path");
  const target = file === undefined ? (stringField(input, "url") ?? stringField(input, "pattern") ?? stringField(input, "path")) : shownPath(file, cwd);
  return target === undefined ? tool : `${tool} ${target}`;
}

/** The files the call names, for the outside-the-workspace rule: its paths, and the one Claude says it would touch. */
function filesOf(request: CanUseTool): string[] {
  const named = ["file_path", "notebook_path", "path"].flatMap((field) => stringField(request.input, field) ?? []);
  return [...new Set([...named, ...(request.blocked_path === undefined ? [] : [request.blocked_path])])];
}

function stringField(input: Record<string, unknown>, field: string): string | undefined {
  const value = input[field];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** What a `result` lists as refused, each as the card said it (the command; the tool and its file); none when unreadable. */
export function refusedCalls(result: unknown, cwd?: string): string[] {
  const denials = DENIALS.safeParse(result);
  if (!denials.success) return [];
  return denials.data.permission_denials.map((denial) => titleOf({ tool_name: denial.tool_name, input: denial.tool_input ?? {} }, cwd));
}

export function refusedMessage(refused: readonly string[]): string {
  return `Not allowed, so not done: ${refused.join("; ")}`;
}

/**
 * A turn in which calls were refused and no other call did any work (reads and searches do none) did not do what it
 * was asked, whatever Claude answers after: it ends failed (not completed) with this reason. Recoverable: the user can
 * ask again and allow it.
 */
export function onlyRefusedError(refused: readonly string[]): ProtocolError {
  return { code: "UNKNOWN", message: `Refused: ${refused.join("; ")}. Nothing else was changed or run.`, recoverable: true, cause: { kind: "refused", calls: [...refused] } };
}
