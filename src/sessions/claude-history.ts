// A Claude Code session file's conversation as turns: each prompt the user wrote opens a turn, and Claude's text,
// thinking and tool calls (completed by their results) become its blocks through a Session of its own, so a turn
// read from Claude's store is kept and bounded exactly as a turn we ran (TRANSCRIPT_LIMITS). Pure: lines in, turns out.
import type { CliStreamEvent } from "../protocol/events";
import type { Turn } from "../protocol/messages";
import type { TranscriptBlock } from "../protocol/transcript";
import { Session } from "../session/session";
import { TRANSCRIPT_LIMITS } from "../session/transcript-builder";
import { PROTOCOL_VERSION } from "../protocol/version";
import type { ClaudeStoreLine } from "./claude-store-line";

/** What a whole history keeps; past any of these it stops, and says how much of the file it showed. */
export interface ClaudeHistoryLimits {
  turns: number;
  /** Characters of all turns together (their blocks as JSON): one transcript's allowance. */
  chars: number;
  blocks: number;
}

export const CLAUDE_HISTORY_LIMITS: ClaudeHistoryLimits = {
  turns: 1_000,
  chars: TRANSCRIPT_LIMITS.sessionChars,
  blocks: 10 * TRANSCRIPT_LIMITS.blocks,
};

const DIALECT = "claude-code-store";

interface OpenTurn {
  readonly session: Session;
  readonly prompt: string;
  readonly firstAt: number | null;
  lastAt: number | null;
  failed: boolean;
}

export class ClaudeHistory {
  private readonly turnList: Turn[] = [];
  private open: OpenTurn | null = null;
  private keptChars = 0;
  private keptBlocks = 0;
  private fullValue = false;

  constructor(
    private readonly claudeSessionId: string,
    private readonly agentName: string,
    private readonly limits: ClaudeHistoryLimits = CLAUDE_HISTORY_LIMITS,
  ) {}

  /** True once a limit is reached: nothing more is kept, so a reader can stop reading. */
  get full(): boolean {
    return this.fullValue;
  }

  accept(line: ClaudeStoreLine, lineNumber: number): void {
    if (this.fullValue) return;
    switch (line.kind) {
      case "prompt":
        this.closeTurn();
        this.openTurn(line.text, line.at);
        return;
      case "assistant":
        return this.acceptAssistant(line, lineNumber);
      case "tool-results":
        return this.acceptToolResults(line, lineNumber);
      case "last-prompt":
      case "other":
        if (this.open && line.kind === "other" && line.at !== null) this.open.lastAt = line.at;
        return;
    }
  }

  /** A line that could not be read (not JSON, too deep, too long): said in the turn it falls in. */
  skipLine(lineNumber: number, message: string): void {
    this.open?.session.acceptProblem({ line: lineNumber, code: "MALFORMED_EVENT", message });
  }

  /** Every turn kept, the last one closed. */
  finish(): Turn[] {
    this.closeTurn();
    return this.turnList;
  }

  private openTurn(prompt: string, at: number | null): void {
    const charsLeft = this.limits.chars - this.keptChars;
    const blocksLeft = this.limits.blocks - this.keptBlocks;
    if (this.turnList.length >= this.limits.turns || charsLeft <= 0 || blocksLeft <= 0) {
      this.fullValue = true;
      return;
    }
    const session = new Session({ dialect: DIALECT, limits: { sessionChars: Math.min(charsLeft, TRANSCRIPT_LIMITS.sessionChars), blocks: Math.min(blocksLeft, TRANSCRIPT_LIMITS.blocks) } });
    this.open = { session, prompt, firstAt: at, lastAt: at, failed: false };
    this.send("start", { command: "claude", dialect: DIALECT }, null);
  }

  private acceptAssistant(line: Extract<ClaudeStoreLine, { kind: "assistant" }>, lineNumber: number): void {
    const open = this.open;
    if (open === null) return;
    if (line.at !== null) open.lastAt = line.at;
    for (const block of line.blocks) {
      if (line.synthetic && block.type === "text") {
        // A failed model call, told by Claude Code as an answer it wrote itself.
        open.failed = true;
        this.send("error", { error: { code: "UNKNOWN", message: block.text, recoverable: false } }, lineNumber);
      } else if (block.type === "text") this.send("text_delta", { content: block.text }, lineNumber);
      else if (block.type === "thinking") this.send("thinking", { content: block.text }, lineNumber);
      else this.send("tool_started", { tool: block.name, toolId: block.id, ...(block.input ? { parameters: block.input } : {}) }, lineNumber);
    }
  }

  private acceptToolResults(line: Extract<ClaudeStoreLine, { kind: "tool-results" }>, lineNumber: number): void {
    const open = this.open;
    if (open === null) return;
    if (line.at !== null) open.lastAt = line.at;
    for (const result of line.results) {
      const tool = open.session.runningTools.find((running) => running.toolId === result.toolUseId)?.tool ?? "tool";
      this.send(
        "tool_completed",
        { tool, toolId: result.toolUseId, success: !result.isError, output: result.text, ...(result.isError ? { error: result.text } : {}) },
        lineNumber,
      );
    }
  }

  private closeTurn(): void {
    const open = this.open;
    if (open === null) return;
    this.open = null;
    const duration = open.firstAt !== null && open.lastAt !== null ? Math.max(0, open.lastAt - open.firstAt) : 0;
    this.send("done", { exitCode: open.failed ? 1 : 0, duration, success: !open.failed }, null, open);
    const blocks = open.session.blocks;
    this.keptChars += charsOf(blocks);
    this.keptBlocks += blocks.length;
    this.turnList.push({
      id: this.turnList.length,
      prompt: open.prompt,
      agent: this.agentName,
      state: open.session.state,
      blocks,
      problems: [...open.session.problems],
      done: open.session.done,
      status: open.session.finalStatus,
      context: null,
      origin: "prompt",
    });
  }

  private send<T extends CliStreamEvent["type"]>(
    type: T,
    payload: Extract<CliStreamEvent, { type: T }>["payload"],
    lineNumber: number | null,
    open: OpenTurn | null = this.open,
  ): void {
    if (open === null) return;
    const timestamp = open.lastAt ?? 0;
    const event = { protocol: PROTOCOL_VERSION, type, sessionId: this.claudeSessionId, timestamp, payload } as Extract<CliStreamEvent, { type: T }>;
    open.session.acceptEvent(event, lineNumber);
  }
}

/** What a turn's blocks cost against the history's allowance: their characters as JSON, an upper bound. */
function charsOf(blocks: readonly TranscriptBlock[]): number {
  return JSON.stringify(blocks).length;
}
