// Turns and blocks as an ACP agent's session would make them (tool kinds, titles, output, diffs, permission requests,
// plans), for tests of the host's conversation and of the webview. Defaults are a plain valid block; override what
// the test is about.
import type { Turn } from "../../src/protocol/messages";
import type { PermissionBlock, PlanBlock, ToolCard, TranscriptBlock } from "../../src/protocol/transcript";

export function toolBlock(overrides: Partial<ToolCard> = {}): ToolCard {
  return {
    kind: "tool",
    tool: "edit",
    toolId: "call-1",
    parameters: null,
    status: "running",
    durationMs: null,
    error: null,
    toolKind: null,
    title: null,
    output: null,
    diffs: [],
    locations: [],
    ...overrides,
  };
}

/** Waiting for an answer, with the four options ACP agents usually offer. */
export function permissionBlock(overrides: Partial<PermissionBlock> = {}): PermissionBlock {
  return {
    kind: "permission",
    requestId: "1",
    toolId: "call-1",
    title: "Edit src/a.ts",
    options: [
      { id: "allow-once", name: "Allow", kind: "allow_once" },
      { id: "allow-always", name: "Always Allow", kind: "allow_always" },
      { id: "reject-once", name: "Reject", kind: "reject_once" },
      { id: "reject-always", name: "Never", kind: "reject_always" },
    ],
    decision: null,
    optionId: null,
    answeredBy: null,
    outsideWorkspace: [],
    ...overrides,
  };
}

export function planBlock(entries: PlanBlock["entries"]): PlanBlock {
  return { kind: "plan", entries };
}

/** A turn still running (the agent waits or works), or finished with `done`. */
export function turnWith(id: number, blocks: TranscriptBlock[], ended: { done: boolean } = { done: false }): Turn {
  const done = ended.done ? { exitCode: 0, durationMs: 1200, toolsUsed: [], tokensUsed: null, success: true, synthesized: false, usage: null } : null;
  return {
    id,
    prompt: `prompt ${id}`,
    agent: "ACP agent",
    state: ended.done ? "completed" : "streaming",
    blocks,
    problems: [],
    done,
    status: ended.done ? "completed" : null,
    context: null,
    origin: "prompt",
  };
}
