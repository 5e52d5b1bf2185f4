// `session/update` notifications → AcpEvents, one update at a time, in arrival order. Each kind has its own schema;
// a kind or field this version does not know is reported once at trace level and otherwise ignored, never fatal:
// agents add both faster than the protocol document does.
import * as z from "zod/mini";
import { describeIssues } from "../../protocol/describe-issue";
import { isRecord } from "../../protocol/json-record";
import {
  PLAN_PRIORITIES,
  PLAN_STATUSES,
  TOOL_CALL_STATUSES,
  type AcpEvent,
  type AcpToolCall,
  type AcpToolContent,
  type AcpToolKind,
  type AcpToolLocation,
} from "./acp-events";
import { TOOL_KINDS } from "../../permissions/permission-request";
import { readConfigOptions } from "./session-settings";
import { terminalDeltaOf, TerminalOutputs } from "./terminal-output";
import { ToolCallBook, type ToolCallLimits, type ToolCallPatch } from "./tool-calls";

export interface UpdateSink {
  event(event: AcpEvent): void;
  /** Something ignored on purpose (an unknown kind or field): for the log at trace level. */
  trace(message: string): void;
}

const nullish = <T extends z.ZodMiniType>(schema: T) => z.optional(z.nullable(schema));

/** Only the fields read here are checked; content blocks of other types (image, audio, resource) pass as they are. */
const ContentBlockSchema = z.object({ type: z.string(), text: z.optional(z.string()) });
const ChunkSchema = z.object({ content: ContentBlockSchema });

/** Kind and status are plain strings here: an unknown value costs the field, not the whole update. */
const ToolCallFieldsSchema = z.object({
  toolCallId: z.string(),
  title: nullish(z.string()),
  kind: nullish(z.string()),
  status: nullish(z.string()),
  content: nullish(z.array(z.unknown())),
  locations: nullish(z.array(z.unknown())),
});

const ToolContentSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("content"), content: ContentBlockSchema }),
  z.object({ type: z.literal("diff"), path: z.string(), oldText: nullish(z.string()), newText: z.string() }),
  z.object({ type: z.literal("terminal"), terminalId: z.string() }),
]);
const LocationSchema = z.object({ path: z.string(), line: nullish(z.number()) });

const PlanSchema = z.object({
  entries: z.array(z.object({ content: z.string(), priority: z.enum(PLAN_PRIORITIES), status: z.enum(PLAN_STATUSES) })),
});
const UsageSchema = z.object({
  used: z.number(),
  size: z.number(),
  cost: nullish(z.object({ amount: z.number(), currency: z.string() })),
});
const CommandsSchema = z.object({
  availableCommands: z.array(z.object({ name: z.string(), description: z.optional(z.string()) })),
});
const ModeSchema = z.object({ currentModeId: z.string() });
const SessionInfoSchema = z.object({ title: nullish(z.string()) });

type Infer<T extends z.ZodMiniType> = z.infer<T>;

/** The fields each kind is known to have, for reporting the ones it is not. */
const TOOL_FIELDS = ["toolCallId", "title", "name", "kind", "status", "content", "locations", "rawInput", "rawOutput"];
const KNOWN_FIELDS: Readonly<Record<string, readonly string[]>> = {
  user_message_chunk: ["content", "messageId"],
  agent_message_chunk: ["content", "messageId"],
  agent_thought_chunk: ["content", "messageId"],
  tool_call: TOOL_FIELDS,
  tool_call_update: TOOL_FIELDS,
  plan: ["entries"],
  available_commands_update: ["availableCommands"],
  current_mode_update: ["currentModeId"],
  config_option_update: ["configOptions"],
  session_info_update: ["title", "updatedAt"],
  usage_update: ["used", "size", "cost"],
};

/** Compiled once: zod turns each schema into plain checks, far faster on the per-chunk path than interpreting it. */
const compiled = {
  chunk: z.compile(ChunkSchema),
  tool: z.compile(ToolCallFieldsSchema),
};

export class SessionUpdateDecoder {
  readonly tools: ToolCallBook;
  private readonly terminals = new TerminalOutputs();
  /** Each unknown kind or field is traced once per conversation, not once per chunk. */
  private readonly reported = new Set<string>();

  constructor(
    private readonly sink: UpdateSink,
    limits?: Partial<ToolCallLimits>,
  ) {
    this.tools = new ToolCallBook(limits);
  }

  decode(update: unknown): void {
    if (!isRecord(update) || typeof update.sessionUpdate !== "string") {
      this.sink.trace(`session/update without a sessionUpdate kind ignored`);
      return;
    }
    const kind = update.sessionUpdate;
    const known = KNOWN_FIELDS[kind];
    if (known === undefined) {
      this.traceOnce(`kind:${kind}`, `session/update kind ${JSON.stringify(kind)} is not known; ignored`);
      return;
    }
    this.reportUnknownFields(kind, update, known);
    this.decodeKnown(kind, update);
  }

  /** A permission request names its tool call: merge what it says (it may be the first mention). */
  mentionTool(toolCall: unknown): AcpToolCall | undefined {
    if (!z.validate(compiled.tool, toolCall)) {
      this.sink.trace(`permission request with an unreadable toolCall: ${this.why(ToolCallFieldsSchema, toolCall)}`);
      return undefined;
    }
    return this.mergeTool(toolCall as Infer<typeof ToolCallFieldsSchema> & Record<string, unknown>);
  }

  /**
   * Content the client made for a call (the diff of an edit it computed, why there is none), replacing the call's
   * content as an agent's message does: the card shows it as the agent's.
   */
  clientContent(toolCallId: string, content: AcpToolContent[]): void {
    const { call, change, endedBefore, contentChanged } = this.tools.merge({ toolCallId, content });
    this.sink.event({ type: "tool_call", change, endedBefore, call, contentChanged });
  }

  private decodeKnown(kind: string, update: Record<string, unknown>): void {
    switch (kind) {
      case "agent_message_chunk":
        return this.chunk(update, (text) => ({ type: "text", text }));
      case "agent_thought_chunk":
        return this.chunk(update, (text) => ({ type: "thought", text }));
      case "tool_call":
      case "tool_call_update":
        this.toolCall(update);
        return;
      case "plan":
        return this.parsed(kind, PlanSchema, update, (plan) => ({ type: "plan", entries: plan.entries }));
      case "usage_update":
        return this.parsed(kind, UsageSchema, update, (usage) => ({
          type: "usage",
          usage: { used: usage.used, size: usage.size, cost: usage.cost ?? null },
        }));
      case "available_commands_update":
        return this.parsed(kind, CommandsSchema, update, (value) => ({
          type: "commands",
          commands: value.availableCommands.map((command) => ({ name: command.name, description: command.description ?? "" })),
        }));
      case "current_mode_update":
        return this.parsed(kind, ModeSchema, update, (value) => ({ type: "mode", modeId: value.currentModeId }));
      case "session_info_update":
        return this.parsed(kind, SessionInfoSchema, update, (value) =>
          typeof value.title === "string" ? { type: "session_title", title: value.title } : undefined,
        );
      case "config_option_update":
        return this.configOptions(update);
      default:
        // user_message_chunk: the user's own words, echoed or replayed.
        this.traceOnce(`kind:${kind}`, `session/update kind ${JSON.stringify(kind)} is not shown; ignored`);
    }
  }

  /** The hot path: one chunk per model delta. Checked without copying; only a chunk that fails is parsed again. */
  private chunk(update: Record<string, unknown>, toEvent: (text: string) => AcpEvent): void {
    if (!z.validate(compiled.chunk, update)) {
      this.sink.trace(`session/update ${String(update.sessionUpdate)} ignored: ${this.why(ChunkSchema, update)}`);
      return;
    }
    const content = (update as Infer<typeof ChunkSchema>).content;
    if (content.type !== "text") {
      this.traceOnce(`content:${content.type}`, `${content.type} content in a message chunk is not shown; ignored`);
      return;
    }
    // Some agents send empty chunks; they change nothing.
    if (content.text === undefined || content.text === "") return;
    this.sink.event(toEvent(content.text));
  }

  private toolCall(update: Record<string, unknown>): void {
    if (!z.validate(compiled.tool, update)) {
      this.sink.trace(`session/update ${String(update.sessionUpdate)} ignored: ${this.why(ToolCallFieldsSchema, update)}`);
      return;
    }
    this.mergeTool(update as Infer<typeof ToolCallFieldsSchema> & Record<string, unknown>);
  }

  private mergeTool(value: Infer<typeof ToolCallFieldsSchema> & Record<string, unknown>): AcpToolCall {
    const patch: ToolCallPatch = { toolCallId: value.toolCallId };
    if (typeof value.title === "string") patch.title = value.title;
    if (typeof value.kind === "string") patch.kind = this.toolKind(value.kind);
    if (typeof value.status === "string") {
      if ((TOOL_CALL_STATUSES as readonly string[]).includes(value.status)) patch.status = value.status as ToolCallPatch["status"];
      else this.traceOnce(`status:${value.status}`, `tool call status ${JSON.stringify(value.status)} is not known; ignored`);
    }
    if (Array.isArray(value.content)) patch.content = this.toolContent(value.content);
    if (Array.isArray(value.locations)) patch.locations = this.locations(value.locations);
    if (value.rawInput !== undefined) patch.rawInput = value.rawInput;
    if (value.rawOutput !== undefined) patch.rawOutput = value.rawOutput;
    this.terminalOutput(value._meta, patch);
    const { call, change, endedBefore, contentChanged } = this.tools.merge(patch);
    // Shown on the call's card in the turn that showed it, and nowhere in a later one: said here for the log.
    if (endedBefore) this.sink.trace(`tool call ${JSON.stringify(call.toolCallId)} had ended; a later message about it updates no new card`);
    if (call.cutChars > 0) this.sink.trace(`tool call ${JSON.stringify(call.toolCallId)}: ${call.cutChars} characters of its content or input over the limits not kept`);
    this.sink.event({ type: "tool_call", change, endedBefore, call, contentChanged });
    return call;
  }

  /** A command's output in `_meta.terminal_output_delta` (codex-acp 2.6) is shown on the card as its terminal's output. */
  private terminalOutput(meta: unknown, patch: ToolCallPatch): void {
    const delta = terminalDeltaOf(meta);
    if (delta !== undefined) this.terminals.append(delta);
    if (delta !== undefined || patch.content !== undefined) {
      patch.content = this.terminals.show(patch.content ?? this.tools.get(patch.toolCallId)?.content ?? [], delta?.terminalId);
    }
    if (patch.status === "completed" || patch.status === "failed") this.terminals.forget(patch.content ?? this.tools.get(patch.toolCallId)?.content ?? []);
  }

  private configOptions(update: Record<string, unknown>): void {
    const options = readConfigOptions(update.configOptions);
    if (options === undefined) this.sink.trace(`session/update config_option_update ignored: configOptions is not a list`);
    else this.sink.event({ type: "config_options", options });
  }

  private toolKind(kind: string): AcpToolKind {
    if ((TOOL_KINDS as readonly string[]).includes(kind)) return kind as AcpToolKind;
    this.traceOnce(`toolKind:${kind}`, `tool kind ${JSON.stringify(kind)} is not known; shown as "other"`);
    return "other";
  }

  private toolContent(items: readonly unknown[]): AcpToolContent[] {
    const content: AcpToolContent[] = [];
    for (const item of items) {
      const result = ToolContentSchema.safeParse(item);
      if (!result.success) {
        this.traceOnce(`toolContent:${isRecord(item) ? String(item.type) : typeof item}`, `tool call content ignored: ${describeIssues(result.error.issues, item)}`);
        continue;
      }
      const value = result.data;
      if (value.type === "diff") content.push({ type: "diff", path: value.path, oldText: value.oldText ?? null, newText: value.newText });
      else if (value.type === "terminal") content.push({ type: "terminal", terminalId: value.terminalId });
      else if (value.content.type === "text" && value.content.text !== undefined) content.push({ type: "text", text: value.content.text });
      else this.traceOnce(`content:${value.content.type}`, `${value.content.type} content in a tool call is not shown; ignored`);
    }
    return content;
  }

  private locations(items: readonly unknown[]): AcpToolLocation[] {
    const locations: AcpToolLocation[] = [];
    for (const item of items) {
      const result = LocationSchema.safeParse(item);
      if (result.success) locations.push({ path: result.data.path, line: result.data.line ?? null });
      else this.sink.trace(`tool call location ignored: ${describeIssues(result.error.issues, item)}`);
    }
    return locations;
  }

  private parsed<T extends z.ZodMiniType>(
    kind: string,
    schema: T,
    update: Record<string, unknown>,
    toEvent: (value: z.infer<T>) => AcpEvent | undefined,
  ): void {
    const result = schema.safeParse(update);
    if (!result.success) {
      this.sink.trace(`session/update ${kind} ignored: ${describeIssues(result.error.issues, update)}`);
      return;
    }
    const event = toEvent(result.data);
    if (event !== undefined) this.sink.event(event);
  }

  private reportUnknownFields(kind: string, update: Record<string, unknown>, known: readonly string[]): void {
    for (const field in update) {
      if (field === "sessionUpdate" || field === "_meta" || known.includes(field)) continue;
      this.traceOnce(`field:${kind}.${field}`, `session/update ${kind} field ${JSON.stringify(field)} is not known; ignored`);
    }
  }

  private why(schema: z.ZodMiniType, value: unknown): string {
    const result = schema.safeParse(value);
    return result.success ? "unreadable" : describeIssues(result.error.issues, value);
  }

  private traceOnce(key: string, message: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.sink.trace(message);
  }
}
