// The conversation across window reloads (the extension host restarts): finished turns and the CLI conversation a
// follow-up continues, kept in the workspace's state and read back through their schemas.
import type * as vscode from "vscode";
import { CliConversationSchema, SavedTurnsSchema, type CliConversation, type Turn } from "../protocol/messages";

const TURNS_KEY = "agentStream.conversation";
const CLI_CONVERSATION_KEY = "agentStream.cliConversation";

export class ConversationStore {
  constructor(
    private readonly state: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  save(turns: readonly Turn[], cliConversation: CliConversation | null): void {
    void this.state.update(TURNS_KEY, turns);
    void this.state.update(CLI_CONVERSATION_KEY, cliConversation);
  }

  /** Turns kept from before a reload; anything that no longer fits the schema is dropped, not trusted. */
  turns(): Turn[] {
    const parsed = SavedTurnsSchema.safeParse(this.state.get<unknown>(TURNS_KEY, []));
    if (parsed.success) return parsed.data;
    this.log.warn("the saved conversation could not be read and was dropped");
    return [];
  }

  /** The CLI conversation a follow-up after a reload continues; anything malformed is forgotten. */
  cliConversation(): CliConversation | null {
    const parsed = CliConversationSchema.safeParse(this.state.get<unknown>(CLI_CONVERSATION_KEY));
    return parsed.success ? parsed.data : null;
  }
}
