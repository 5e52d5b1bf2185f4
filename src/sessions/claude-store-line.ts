// One line of a Claude Code session file (`~/.claude/projects/<folder>/<session id>.jsonl`) as the readers of the
// store need it. The file is not the stream-json Claude prints: it holds the conversation's `user` and `assistant`
// messages (one content block per `assistant` line, tool results as `user` lines) among many lines of Claude's own
// bookkeeping (attachments, request shapes, queue operations, costs). Facts: test/fixtures/claude-recorded/2.1.330/
// sessions/README.md. Only the lines below are read; every other line, and any line of an unexpected shape, is `other`.
import * as z from "zod/mini";
import { isClaudeLocalCommand } from "../dialects/claude-local-command";
import { isRecord } from "../protocol/json-record";

/** What the transcript shows of an assistant message's content block. */
export type AssistantBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> | null };

export interface ToolResult {
  toolUseId: string;
  isError: boolean;
  /** The result's text parts, joined. */
  text: string;
}

export type ClaudeStoreLine =
  /** A prompt the user wrote: the start of a turn. */
  | { kind: "prompt"; text: string; at: number | null; cwd: string | null; turnIndex: number | null }
  /** Claude's answer, or a message Claude Code made up itself to report a failed model call (`synthetic`). */
  | { kind: "assistant"; blocks: AssistantBlock[]; synthetic: boolean; at: number | null }
  | { kind: "tool-results"; results: ToolResult[]; at: number | null }
  /** Claude's note of the latest prompt, written after each turn. */
  | { kind: "last-prompt"; text: string }
  | { kind: "other"; at: number | null };

// What marks a line that is not part of the main conversation: a subagent's (sidechain) or one Claude Code wrote for
// the model's eyes only (meta).
const Conversation = {
  isSidechain: z.optional(z.boolean()),
  isMeta: z.optional(z.boolean()),
  timestamp: z.optional(z.string()),
};
const UserLineSchema = z.object({
  ...Conversation,
  message: z.object({ content: z.union([z.string(), z.array(z.unknown())]) }),
  cwd: z.optional(z.string()),
  turnPosition: z.optional(z.object({ turnIndex: z.number().check(z.int(), z.positive()) })),
});
const AssistantLineSchema = z.object({
  ...Conversation,
  message: z.object({ content: z.array(z.unknown()), model: z.optional(z.string()) }),
});
const LastPromptSchema = z.object({ lastPrompt: z.string() });
const TimestampedSchema = z.object({ timestamp: z.string() });

const TextPartSchema = z.object({ type: z.literal("text"), text: z.string() });
const ThinkingPartSchema = z.object({ type: z.literal("thinking"), thinking: z.string() });
const ToolUsePartSchema = z.object({ type: z.literal("tool_use"), id: z.string(), name: z.string(), input: z.optional(z.unknown()) });
const ToolResultPartSchema = z.object({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  is_error: z.optional(z.boolean()),
  content: z.optional(z.union([z.string(), z.array(z.unknown())])),
});

/** The model name Claude Code gives an assistant message it made up itself (an API error told as an answer). */
const SYNTHETIC_MODEL = "<synthetic>";

/** A parsed line, read as the store's readers need it. */
export function readClaudeStoreLine(value: unknown): ClaudeStoreLine {
  if (!isRecord(value)) return { kind: "other", at: null };
  switch (value.type) {
    case "user":
      return readUserLine(value);
    case "assistant":
      return readAssistantLine(value);
    case "last-prompt": {
      const line = LastPromptSchema.safeParse(value);
      return line.success ? { kind: "last-prompt", text: line.data.lastPrompt } : { kind: "other", at: null };
    }
    default:
      return { kind: "other", at: timeOf(value) };
  }
}

function readUserLine(value: unknown): ClaudeStoreLine {
  const parsed = UserLineSchema.safeParse(value);
  if (!parsed.success) return { kind: "other", at: timeOf(value) };
  const line = parsed.data;
  const at = parseTime(line.timestamp);
  if (line.isSidechain === true || line.isMeta === true) return { kind: "other", at };
  const content = line.message.content;
  const results = (typeof content === "string" ? [] : content).flatMap((part) => {
    const result = ToolResultPartSchema.safeParse(part);
    return result.success ? [{ toolUseId: result.data.tool_use_id, isError: result.data.is_error === true, text: partsText(result.data.content) }] : [];
  });
  if (results.length > 0) return { kind: "tool-results", results, at };
  const text = partsText(content);
  // A slash command's record (/model and what it printed) is the user's doing, but no question to the model.
  if (text.length === 0 || isClaudeLocalCommand(text)) return { kind: "other", at };
  return { kind: "prompt", text, at, cwd: line.cwd ?? null, turnIndex: line.turnPosition?.turnIndex ?? null };
}

function readAssistantLine(value: unknown): ClaudeStoreLine {
  const parsed = AssistantLineSchema.safeParse(value);
  if (!parsed.success) return { kind: "other", at: timeOf(value) };
  const line = parsed.data;
  const at = parseTime(line.timestamp);
  if (line.isSidechain === true) return { kind: "other", at };
  return { kind: "assistant", blocks: line.message.content.flatMap(assistantBlock), synthetic: line.message.model === SYNTHETIC_MODEL, at };
}

function assistantBlock(part: unknown): AssistantBlock[] {
  const text = TextPartSchema.safeParse(part);
  if (text.success) return [{ type: "text", text: text.data.text }];
  const thinking = ThinkingPartSchema.safeParse(part);
  if (thinking.success) return [{ type: "thinking", text: thinking.data.thinking }];
  const tool = ToolUsePartSchema.safeParse(part);
  if (tool.success) return [{ type: "tool_use", id: tool.data.id, name: tool.data.name, input: isRecord(tool.data.input) ? tool.data.input : null }];
  return [];
}

/** The text parts of a content value (a string, or blocks of which the text ones count), joined by newlines. */
function partsText(content: string | unknown[] | undefined): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content.flatMap((part) => {
    const text = TextPartSchema.safeParse(part);
    return text.success ? [text.data.text] : [];
  }).join("\n");
}

function timeOf(value: unknown): number | null {
  const line = TimestampedSchema.safeParse(value);
  return line.success ? parseTime(line.data.timestamp) : null;
}

function parseTime(text: string | undefined): number | null {
  if (text === undefined) return null;
  const time = Date.parse(text);
  return Number.isFinite(time) ? time : null;
}
