import * as vscode from "vscode";
import type { AgentStreamCommand } from "./command";
import { sessionArgument } from "./session-argument";

/** A session in its own editor tab, beside the others: several sessions on screen at once. */
export const openSessionInEditor: AgentStreamCommand = {
  id: "agentStream.openSessionInEditor",
  run: async (context, argument) => {
    const summary = await sessionArgument(context, argument, "The session to open in an editor tab");
    if (summary === undefined) return;
    const session = await context.openListed(summary);
    if (session === undefined) {
      void vscode.window.showWarningMessage(`Agent Stream: the session "${summary.title}" could not be opened; the log says why.`);
      return;
    }
    context.openChatInEditor(session);
  },
};
