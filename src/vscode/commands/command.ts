// What every command of the palette gets: the conversation, the log, and the ways to show the chat.
import type * as vscode from "vscode";
import type { Conversation } from "../../panel/conversation";

export interface CommandContext {
  readonly chat: Conversation;
  readonly log: vscode.LogOutputChannel;
  /** Shows the chat: in its editor tab when one is open, else in its view. */
  revealChat(): Thenable<void>;
  openChatInEditor(): void;
}

/** One command of package.json's `contributes.commands`, by its id. */
export interface AgentStreamCommand {
  readonly id: string;
  run(context: CommandContext, ...args: unknown[]): unknown;
}
