// What an ACP agent replays of a session (`session/load` sends the conversation as `session/update`s before it answers)
// as turns: each run of `user_message_chunk`s opens a turn with that prompt, and what follows, through the same update
// decoder and translator as a live turn, becomes its blocks. Pure: updates in, turns out.
import * as z from "zod/mini";
import type { EventOfType, CliEventType } from "../protocol/events";
import type { Turn } from "../protocol/messages";
import { AcpEventTranslator } from "../dialects/acp/acp-event-translator";
import { isClaudeLocalCommand } from "../dialects/claude-local-command";
import { SessionUpdateDecoder } from "../dialects/acp/session-update-decoder";
import { TurnSequence, TURN_SEQUENCE_LIMITS, type TurnSequenceLimits } from "../session/turn-sequence";

const DIALECT = "acp";
const UserChunkSchema = z.object({ sessionUpdate: z.literal("user_message_chunk"), content: z.object({ type: z.literal("text"), text: z.string() }) });

export class ReplayedTurns {
  private readonly turns: TurnSequence;
  private readonly decoder: SessionUpdateDecoder;
  /** The open turn has had something from the agent: the next user chunk begins another turn. */
  private answered = false;

  constructor(agentName: string, limits: TurnSequenceLimits = TURN_SEQUENCE_LIMITS) {
    this.turns = new TurnSequence(DIALECT, agentName, limits);
    const translator = new AcpEventTranslator(<T extends CliEventType>(type: T, payload: EventOfType<T>["payload"]) => this.show(type, payload));
    this.decoder = new SessionUpdateDecoder({ event: (event) => translator.translate(event), trace: () => {} });
  }

  /** True once the turns' limits are reached: nothing more is kept. */
  get full(): boolean {
    return this.turns.full;
  }

  /** One replayed `session/update`'s `update`, unchecked. */
  accept(update: unknown): void {
    const user = UserChunkSchema.safeParse(update);
    // claude-agent-acp replays Claude Code's record of a slash command (/model, its output) as the user's words.
    if (user.success && isClaudeLocalCommand(user.data.content.text)) return;
    if (user.success) {
      if (this.turns.inTurn && !this.answered) this.turns.continuePrompt(user.data.content.text);
      else this.begin(user.data.content.text);
      return;
    }
    this.decoder.decode(update);
  }

  /** Every turn kept, the last one closed. */
  finish(): Turn[] {
    return this.turns.finish();
  }

  /**
   * What the agent said, for the open turn. Only what shows opens a turn: codex-acp 2.6.0 replays session news (its
   * commands, usage) before the first prompt; an answer replayed without its prompt is still shown.
   */
  private show<T extends CliEventType>(type: T, payload: EventOfType<T>["payload"]): void {
    if (!this.turns.inTurn) this.begin("");
    this.answered = true;
    this.turns.event(type, payload, null);
  }

  private begin(prompt: string): void {
    this.answered = false;
    this.turns.beginTurn(prompt, null);
  }
}
