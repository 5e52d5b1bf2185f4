// An ACP conversation's events → the normalized events every session reads (src/protocol/events.ts): text, thinking,
// tool cards with their kind, title, output, diffs and locations, permission requests and answers, the plan. Pure:
// the run owns the clock and the session.
import type { CliEventType, EventOfType } from "../../protocol/events";
import { isRecord } from "../../protocol/json-record";
import { permissionAnsweredPayload, permissionRequestedPayload } from "../permission-events";
import { turnUsage, type TurnUsage, type UsageCost } from "../../protocol/usage";
import type { AcpEvent, AcpToolCall, AcpUsage } from "./acp-events";
import type { PromptTokens } from "./prompt-usage";
import type { ShownMode } from "./session-settings";
import { selfApprovingModeMessage } from "../kit/run-words";
import { TOOL_CALL_LIMITS } from "./tool-calls";
import { costAdded } from "../../common/usage-totals";

/** Hands on one normalized event (the envelope is the caller's). */
export type EmitEvent = <T extends CliEventType>(type: T, payload: EventOfType<T>["payload"]) => void;

export class AcpEventTranslator {
  /** Tokens in the context window, as the agent last said: the turn's `tokensUsed`. */
  tokensUsed: number | undefined;
  /** The mode this turn last said approves by itself: said once per mode, not at each update. */
  private toldMode: string | undefined;
  /** The calls this turn has a card for, oldest first. */
  private readonly shownCalls = new Set<string>();
  /** The context as the agent said it in this turn. */
  private context: AcpUsage | undefined;
  /** The session's cost as the agent last said it (not every `usage_update` says it), and as it was before this turn. */
  private cost: UsageCost | null;
  private costBeforeTurn: UsageCost | null;
  /** The tokens the agent counted in its answer to this turn's prompt. */
  private tokens: PromptTokens | undefined;

  /** `usageBefore`: what the agent said of its usage before this translator's first turn (a live run's is the conversation's). */
  constructor(
    private readonly emit: EmitEvent,
    usageBefore?: AcpUsage,
  ) {
    this.cost = this.costBeforeTurn = usageBefore?.cost ?? null;
  }

  translate(event: AcpEvent): void {
    switch (event.type) {
      case "text":
        if (event.text !== "") this.emit("text_delta", { content: event.text });
        return;
      case "thought":
        if (event.text !== "") this.emit("thinking", { content: event.text });
        return;
      case "tool_call":
        this.toolCall(event);
        return;
      case "plan":
        this.emit("plan", { entries: event.entries.map((entry) => ({ ...entry })) });
        return;
      case "permission_requested":
        this.emit("permission_requested", permissionRequestedPayload(event.request));
        return;
      case "permission_answered":
        this.emit("permission_answered", permissionAnsweredPayload(event.requestId, event.decision));
        return;
      case "usage":
        this.tokensUsed = event.usage.used;
        this.context = event.usage;
        this.cost = event.usage.cost ?? this.cost;
        return;
      case "prompt_tokens":
        this.tokens = event.tokens;
        return;
      case "session_settings":
        this.tellMode(event.settings.mode?.currentMode);
        return;
      // The chat's header and menus show these; a transcript has no block for them.
      case "mode":
      case "config_options":
      case "commands":
      case "session_title":
        return;
      case "session_ready":
        // Said in the chat: an answer that ignores the earlier turns would otherwise look like the agent's mistake.
        if (event.lost !== undefined) this.emit("status", { status: "new session", message: LOST_SESSION_MESSAGE });
        return;
    }
  }

  /** A turn ended (a replay reads every turn with one translator): the next one has shown no card yet. */
  turnEnded(): void {
    this.shownCalls.clear();
    this.context = undefined;
    this.tokens = undefined;
    this.costBeforeTurn = this.cost;
  }

  /**
   * The turn's usage: the context as the agent last said it, the cost its `usage_update`s added during the turn (they
   * say the session's whole cost), and the tokens of the prompt's answer where the agent gives them.
   */
  turnUsage(): TurnUsage | undefined {
    return turnUsage({
      ...this.tokens,
      cost: this.cost === this.costBeforeTurn ? undefined : costAdded(this.costBeforeTurn, this.cost),
      contextUsed: this.context?.used,
      contextSize: this.context?.size,
    });
  }

  /**
   * A call's card, started or updated. A message about a call that had ended and has no card in this turn is dropped:
   * its card is in an earlier turn, finished, and a card made from the message would show the call a second time
   * (Cline CLI 3.0.65 sends more about a rejected call after it failed).
   */
  private toolCall(event: Extract<AcpEvent, { type: "tool_call" }>): void {
    const id = event.call.toolCallId;
    const shown = this.shownCalls.has(id);
    if (event.endedBefore && !shown) return;
    if (!shown) this.noteShown(id);
    if (event.change === "created" && !event.endedBefore) this.started(event.call, event.contentChanged);
    else this.emit("tool_updated", updateOf(event.call, event.contentChanged));
  }

  /** Bounded as the book of calls is: a call forgotten here counts as shown in another turn. */
  private noteShown(toolCallId: string): void {
    this.shownCalls.add(toolCallId);
    if (this.shownCalls.size > TOOL_CALL_LIMITS.calls) this.shownCalls.delete(this.shownCalls.values().next().value as string);
  }

  /** A mode in which the agent approves its own actions is said in the chat: nobody is asked before it acts. */
  private tellMode(mode: ShownMode | undefined): void {
    if (mode === undefined || !mode.approvesItself) {
      this.toldMode = undefined;
      return;
    }
    if (this.toldMode === mode.id) return;
    this.toldMode = mode.id;
    this.emit("status", { status: "mode", message: selfApprovingModeMessage(mode) });
  }

  /** A new call: its card, then whatever the first message already said beyond the start (output, a final status). */
  private started(call: AcpToolCall, contentChanged: boolean): void {
    const parameters = isRecord(call.rawInput) ? { parameters: call.rawInput } : {};
    this.emit("tool_started", { tool: call.kind, toolId: call.toolCallId, ...parameters, kind: call.kind, title: call.title, locations: call.locations });
    const update = updateOf(call, contentChanged);
    if ((contentChanged && call.content.length > 0) || call.status === "completed" || call.status === "failed") this.emit("tool_updated", update);
  }
}

/**
 * What the call says now: its title, kind, status and locations as merged, and its output and diffs only when this
 * message replaced them (an update applies what is present: a status change leaves the card's diffs as they are).
 */
function updateOf(call: AcpToolCall, contentChanged: boolean): EventOfType<"tool_updated">["payload"] {
  const fields = { toolId: call.toolCallId, tool: call.kind, title: call.title, kind: call.kind, status: call.status };
  if (!contentChanged) return { ...fields, locations: call.locations };
  // A command's output is text to show, whether the agent sent it as text or with the command's terminal.
  const texts = call.content.flatMap((content) =>
    content.type === "text" ? [content.text] : content.type === "terminal" && content.output !== undefined ? [content.output] : [],
  );
  // A diff that was too large to pass on is left out whole, as the transcript leaves it out.
  const diffs = call.content.flatMap((content) =>
    content.type === "diff" && content.droppedChars === undefined ? [{ path: content.path, oldText: content.oldText, newText: content.newText }] : [],
  );
  return { ...fields, ...(texts.length > 0 ? { output: texts.join("\n") } : {}), diffs, locations: call.locations };
}

export const LOST_SESSION_MESSAGE = "The agent could not continue the earlier conversation, so it starts a new one: it does not know what was said above.";
