// The conversation across window reloads (the extension host restarts): finished turns, the turn still running (saved
// on its own, as it streams), the CLI conversation a follow-up continues, and the ACP agent's session that conversation
// holds, kept in the workspace's state and read back through their schemas.
import type * as vscode from "vscode";
import type { SavedAcpSession } from "../acp/saved-session";
import { CliConversationSchema, SavedTurnsSchema, TurnSchema, type CliConversation, type Turn } from "../protocol/messages";

const TURNS_KEY = "agentStream.conversation";
const RUNNING_TURN_KEY = "agentStream.runningTurn";
const CLI_CONVERSATION_KEY = "agentStream.cliConversation";
const RUNNING_CLI_CONVERSATION_KEY = "agentStream.runningCliConversation";
const ACP_SESSION_KEY = "agentStream.acpSession";

export class ConversationStore {
  constructor(
    private readonly state: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  save(turns: readonly Turn[], cliConversation: CliConversation | null): void {
    void this.state.update(TURNS_KEY, turns);
    void this.state.update(CLI_CONVERSATION_KEY, cliConversation);
  }

  saveRunning(turn: Turn | null, cliConversation: CliConversation | null): void {
    void this.state.update(RUNNING_TURN_KEY, turn ?? undefined);
    void this.state.update(RUNNING_CLI_CONVERSATION_KEY, cliConversation ?? undefined);
  }

  /**
   * What a reload brings back: the turns kept from before it, then the turn that was running (unless the finished turns
   * hold it: the window saved them as it closed), and the CLI conversation a follow-up continues (that running turn's,
   * when its CLI had begun one). Anything that no longer fits its schema is dropped, not trusted.
   */
  restore(): { turns: Turn[]; cliConversation: CliConversation | null } {
    const parsed = SavedTurnsSchema.safeParse(this.state.get<unknown>(TURNS_KEY, []));
    if (!parsed.success) this.log.warn("the saved conversation could not be read and was dropped");
    const turns = parsed.success ? parsed.data : [];
    const finished = CliConversationSchema.safeParse(this.state.get<unknown>(CLI_CONVERSATION_KEY));
    const cliConversation = finished.success ? finished.data : null;
    const savedRunning = this.state.get<unknown>(RUNNING_TURN_KEY);
    if (savedRunning === undefined) return { turns, cliConversation };
    const running = TurnSchema.safeParse(savedRunning);
    if (!running.success) {
      this.log.warn("the saved running turn could not be read and was dropped");
      return { turns, cliConversation };
    }
    if (turns.some((turn) => turn.id === running.data.id)) return { turns, cliConversation };
    const runningConversation = CliConversationSchema.safeParse(this.state.get<unknown>(RUNNING_CLI_CONVERSATION_KEY));
    return { turns: [...turns, running.data], cliConversation: runningConversation.success ? runningConversation.data : cliConversation };
  }

  /** As stored: `sessionToContinue` checks it against its schema before any of it is used. */
  acpSession(): unknown {
    return this.state.get<unknown>(ACP_SESSION_KEY);
  }

  saveAcpSession(session: SavedAcpSession | null): void {
    void this.state.update(ACP_SESSION_KEY, session ?? undefined);
  }
}
