// A conversation read back from an agent's own store (Claude Code's session files, an ACP agent's `session/load`
// replay) as turns: each prompt opens a turn, whose events a Session of its own turns into blocks, so a turn read back
// is kept and bounded exactly as a turn we ran (TRANSCRIPT_LIMITS). The whole sequence is bounded too: past its limits
// it keeps its first part and says it is full, so a reader can stop reading.
import type { CliStreamEvent, EventOfType } from "../protocol/events";
import type { Turn } from "../protocol/messages";
import type { Problem, TranscriptBlock } from "../protocol/transcript";
import { PROTOCOL_VERSION } from "../protocol/version";
import { Session } from "./session";
import { TRANSCRIPT_LIMITS } from "./transcript-builder";

/** What a whole conversation read back keeps. */
export interface TurnSequenceLimits {
  turns: number;
  /** Characters of all turns together (their blocks as JSON): one transcript's allowance. */
  chars: number;
  blocks: number;
}

export const TURN_SEQUENCE_LIMITS: TurnSequenceLimits = {
  turns: 1_000,
  chars: TRANSCRIPT_LIMITS.sessionChars,
  blocks: 10 * TRANSCRIPT_LIMITS.blocks,
};

interface OpenTurn {
  readonly session: Session;
  prompt: string;
  readonly firstAt: number | null;
  lastAt: number | null;
}

export class TurnSequence {
  private readonly turnList: Turn[] = [];
  private open: OpenTurn | null = null;
  private keptChars = 0;
  private keptBlocks = 0;
  private fullValue = false;

  /** `dialect`: where the turns were read from, as a turn's events name it; `agentName`: who answered, as turns show it. */
  constructor(
    private readonly dialect: string,
    private readonly agentName: string,
    private readonly limits: TurnSequenceLimits = TURN_SEQUENCE_LIMITS,
  ) {}

  /** True once a limit is reached: nothing more is kept. */
  get full(): boolean {
    return this.fullValue;
  }

  /** Whether a turn is open (a prompt was read and its turn not yet closed). */
  get inTurn(): boolean {
    return this.open !== null;
  }

  /** The tool calls of the open turn still running, to name the tool a result belongs to. */
  get runningTools(): readonly { tool: string; toolId: string | null }[] {
    return this.open?.session.runningTools ?? [];
  }

  /** Closes the open turn and opens the next, for `prompt`; `at` (ms) when the store says when. */
  beginTurn(prompt: string, at: number | null): void {
    this.closeTurn();
    if (this.fullValue) return;
    const charsLeft = this.limits.chars - this.keptChars;
    const blocksLeft = this.limits.blocks - this.keptBlocks;
    if (this.turnList.length >= this.limits.turns || charsLeft <= 0 || blocksLeft <= 0) {
      this.fullValue = true;
      return;
    }
    const limits = { sessionChars: Math.min(charsLeft, TRANSCRIPT_LIMITS.sessionChars), blocks: Math.min(blocksLeft, TRANSCRIPT_LIMITS.blocks) };
    this.open = { session: new Session({ dialect: this.dialect, limits }), prompt, firstAt: at, lastAt: at };
    this.event("start", { command: this.dialect, dialect: this.dialect }, null);
  }

  /** More of the open turn's prompt (an agent may replay it in chunks). */
  continuePrompt(text: string): void {
    if (this.open !== null) this.open.prompt += text;
  }

  /** The open turn's next event; `at` (ms) when the store says when. Without an open turn, nothing. */
  event<T extends CliStreamEvent["type"]>(type: T, payload: EventOfType<T>["payload"], line: number | null, at: number | null = null): void {
    const open = this.open;
    if (open === null) return;
    if (at !== null) open.lastAt = at;
    const event = { protocol: PROTOCOL_VERSION, type, sessionId: "", timestamp: open.lastAt ?? 0, payload } as EventOfType<T>;
    open.session.acceptEvent(event, line);
  }

  /** The store says when, with nothing to show: the open turn lasted at least until then. */
  noteTime(at: number): void {
    if (this.open !== null) this.open.lastAt = at;
  }

  /** A line that could not be read: said in the open turn. */
  problem(problem: Problem): void {
    this.open?.session.acceptProblem(problem);
  }

  /** Every turn kept, the last one closed. */
  finish(): Turn[] {
    this.closeTurn();
    return this.turnList;
  }

  /** Closes the open turn; `failed` when the store says it ended with an error. */
  closeTurn(failed = false): void {
    const open = this.open;
    if (open === null) return;
    const duration = open.firstAt !== null && open.lastAt !== null ? Math.max(0, open.lastAt - open.firstAt) : 0;
    this.event("done", { exitCode: failed ? 1 : 0, duration, success: !failed }, null);
    this.open = null;
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
}

/** What a turn's blocks cost against the sequence's allowance: their characters as JSON, an upper bound. */
function charsOf(blocks: readonly TranscriptBlock[]): number {
  return JSON.stringify(blocks).length;
}
