// A Claude Code session file's conversation as turns: each prompt the user wrote opens a turn, and Claude's text,
// thinking and tool calls (completed by their results) become its blocks. Pure: store lines in, turns out.
import type { Turn } from "../protocol/messages";
import { TurnSequence, TURN_SEQUENCE_LIMITS, type TurnSequenceLimits } from "../session/turn-sequence";
import type { ClaudeStoreLine } from "./claude-store-line";

export type ClaudeHistoryLimits = TurnSequenceLimits;
export const CLAUDE_HISTORY_LIMITS: ClaudeHistoryLimits = TURN_SEQUENCE_LIMITS;

const DIALECT = "claude-code-store";

export class ClaudeHistory {
  private readonly turns: TurnSequence;
  /** The open turn reported a failed model call. */
  private failed = false;

  constructor(agentName: string, limits: ClaudeHistoryLimits = CLAUDE_HISTORY_LIMITS) {
    this.turns = new TurnSequence(DIALECT, agentName, limits);
  }

  /** True once a limit is reached: nothing more is kept, so a reader can stop reading. */
  get full(): boolean {
    return this.turns.full;
  }

  accept(line: ClaudeStoreLine, lineNumber: number): void {
    switch (line.kind) {
      case "prompt":
        this.turns.closeTurn(this.failed);
        this.failed = false;
        this.turns.beginTurn(line.text, line.at);
        return;
      case "assistant":
        for (const block of line.blocks) {
          if (line.synthetic && block.type === "text") {
            // A failed model call, told by Claude Code as an answer it wrote itself.
            this.failed = this.turns.inTurn;
            this.turns.event("error", { error: { code: "UNKNOWN", message: block.text, recoverable: false } }, lineNumber, line.at);
          } else if (block.type === "text") this.turns.event("text_delta", { content: block.text }, lineNumber, line.at);
          else if (block.type === "thinking") this.turns.event("thinking", { content: block.text }, lineNumber, line.at);
          else this.turns.event("tool_started", { tool: block.name, toolId: block.id, ...(block.input ? { parameters: block.input } : {}) }, lineNumber, line.at);
        }
        return;
      case "tool-results":
        for (const result of line.results) {
          const tool = this.turns.runningTools.find((running) => running.toolId === result.toolUseId)?.tool ?? "tool";
          const payload = { tool, toolId: result.toolUseId, success: !result.isError, output: result.text, ...(result.isError ? { error: result.text } : {}) };
          this.turns.event("tool_completed", payload, lineNumber, line.at);
        }
        return;
      case "other":
        if (line.at !== null) this.turns.noteTime(line.at);
        return;
      case "last-prompt":
        return;
    }
  }

  /** A line that could not be read (not JSON, too deep, too long): said in the turn it falls in. */
  skipLine(lineNumber: number, message: string): void {
    this.turns.problem({ line: lineNumber, code: "MALFORMED_EVENT", message });
  }

  /** Every turn kept, the last one closed. */
  finish(): Turn[] {
    this.turns.closeTurn(this.failed);
    return this.turns.finish();
  }
}
