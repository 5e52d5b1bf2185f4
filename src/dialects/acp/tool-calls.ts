// The tool calls of one conversation as known so far. Agents send them in parts: a `tool_call`, then
// `tool_call_update`s that carry only what changed, and a permission request may be the first mention of all.
import type { AcpToolCall, AcpToolCallStatus, AcpToolContent, AcpToolKind, AcpToolLocation } from "./acp-events";

/** The fields one message carried; absent ones leave the call as it was. */
export interface ToolCallPatch {
  toolCallId: string;
  title?: string;
  kind?: AcpToolKind;
  status?: AcpToolCallStatus;
  content?: AcpToolContent[];
  locations?: AcpToolLocation[];
  rawInput?: unknown;
  rawOutput?: unknown;
}

export interface MergedToolCall {
  call: AcpToolCall;
  change: "created" | "updated";
}

export class ToolCallBook {
  private readonly calls = new Map<string, AcpToolCall>();

  get(toolCallId: string): AcpToolCall | undefined {
    return this.calls.get(toolCallId);
  }

  /** Applies what the patch carries; a call not seen before is created from it (an update can come first). */
  merge(patch: ToolCallPatch): MergedToolCall {
    const known = this.calls.get(patch.toolCallId);
    const call: AcpToolCall = known ?? {
      toolCallId: patch.toolCallId,
      title: "",
      kind: "other",
      status: "pending",
      content: [],
      locations: [],
      rawInput: undefined,
      rawOutput: undefined,
    };
    if (patch.title !== undefined) call.title = patch.title;
    if (patch.kind !== undefined) call.kind = patch.kind;
    if (patch.status !== undefined) call.status = patch.status;
    // The protocol replaces these collections rather than appending to them.
    if (patch.content !== undefined) call.content = patch.content;
    if (patch.locations !== undefined) call.locations = patch.locations;
    if (patch.rawInput !== undefined) call.rawInput = patch.rawInput;
    if (patch.rawOutput !== undefined) call.rawOutput = patch.rawOutput;
    if (known === undefined) this.calls.set(call.toolCallId, call);
    // Observers get a copy: a later merge must not change what they already hold.
    return { call: { ...call, content: [...call.content], locations: [...call.locations] }, change: known === undefined ? "created" : "updated" };
  }
}
