// What an ACP agent's conversation produces, in the words the chat needs: text, thinking, tool calls with their
// diffs, the plan, permission requests and who answered them. The host maps these to transcript blocks; nothing
// here knows the wire format or VS Code.
import type { PermissionEvent, ToolKind } from "../../permissions/permission-request";
import type { AgentSessionSettings, SessionConfigOption } from "./session-settings";
import type { PromptTokens } from "./prompt-usage";

/** ACP's tool kinds are the ones the permission desk and the settings use. */
export type AcpToolKind = ToolKind;

export const TOOL_CALL_STATUSES = ["pending", "in_progress", "completed", "failed"] as const;
export type AcpToolCallStatus = (typeof TOOL_CALL_STATUSES)[number];

/** What a tool call shows: its text output, a file change, or a terminal the agent refers to. */
export type AcpToolContent =
  | { type: "text"; text: string }
  /**
   * `oldText` null: the agent creates the file. `path` as the agent sent it (absolute or workspace-relative).
   * `droppedChars`: the change itself (this many characters) was not kept, only its path: it was too large to pass on,
   * or an earlier message passed it on (tool-calls.ts). Such a diff is never shown.
   */
  | { type: "diff"; path: string; oldText: string | null; newText: string; droppedChars?: number }
  /** `output`: what the command printed, where the agent sends it with the terminal (`terminal-output.ts`). */
  | { type: "terminal"; terminalId: string; output?: string };

export interface AcpToolLocation {
  path: string;
  line: number | null;
}

/**
 * A tool call as known so far: its id, title, kind, status and locations with every partial update merged in; its
 * content, rawInput and rawOutput as the latest message carried them (cut to the transcript's limits).
 */
export interface AcpToolCall {
  toolCallId: string;
  title: string;
  kind: AcpToolKind;
  status: AcpToolCallStatus;
  /** The latest message's content; when it carried none, the paths of the call's diffs only (`droppedChars` set). */
  content: AcpToolContent[];
  locations: AcpToolLocation[];
  /** The latest message's; undefined when it carried none, or one too large to pass on. */
  rawInput: unknown;
  rawOutput: unknown;
  /** Characters of the latest message's content, rawInput and rawOutput cut or dropped to fit the limits. */
  cutChars: number;
  /**
   * Digests of the whole rawInput and diffs the agent last sent for the call (null before it sent any), kept when the
   * values themselves are cut or let go: what a permission request's "same request" compares.
   */
  fingerprint: { input: string | null; diffs: string | null };
}

export const PLAN_PRIORITIES = ["high", "medium", "low"] as const;
export const PLAN_STATUSES = ["pending", "in_progress", "completed"] as const;
export interface AcpPlanEntry {
  content: string;
  priority: (typeof PLAN_PRIORITIES)[number];
  status: (typeof PLAN_STATUSES)[number];
}

export interface AcpUsage {
  /** Tokens in the context window now, and its size. */
  used: number;
  size: number;
  cost: { amount: number; currency: string } | null;
}

export interface AcpCommand {
  name: string;
  description: string;
}

export type AcpEvent =
  | { type: "text"; text: string }
  | { type: "thought"; text: string }
  /** `contentChanged`: the message replaced the call's content (output, diffs); otherwise the card's stays as it is. */
  | { type: "tool_call"; change: "created" | "updated"; endedBefore: boolean; call: AcpToolCall; contentChanged: boolean }
  /** The whole plan each time: it replaces the previous one. */
  | { type: "plan"; entries: AcpPlanEntry[] }
  | PermissionEvent
  | { type: "usage"; usage: AcpUsage }
  | { type: "mode"; modeId: string }
  /** `config_option_update`: every config option and its value now. */
  | { type: "config_options"; options: SessionConfigOption[] }
  /** The session's mode, model and config options as they are now: when it opens, and after each change. */
  | { type: "session_settings"; settings: AgentSessionSettings }
  | { type: "commands"; commands: AcpCommand[] }
  | { type: "session_title"; title: string }
  /**
   * The agent process is ready for prompts in this session: a new one, or a saved one it continued. `lost`: the saved
   * session it was asked to continue and could not; the agent does not remember that conversation.
   */
  | { type: "session_ready"; sessionId: string; continued: "new" | "loaded" | "resumed"; lost?: string }
  /** The tokens the agent counted in its answer to the turn's prompt (unstable ACP `usage`), just before the turn ends. */
  | { type: "prompt_tokens"; tokens: PromptTokens };

export type AcpEventType = AcpEvent["type"];
