import * as vscode from "vscode";
import type { AgentStreamCommand } from "./command";
import { sessionArgument } from "./session-argument";

/** A row of the Sessions view, clicked: that session becomes the active one and shows in the chat view. */
export const openSession: AgentStreamCommand = {
  id: "agentStream.openSession",
  run: async (context, argument) => {
    const summary = await sessionArgument(context, argument, "The session to open");
    if (summary === undefined) return;
    const session = await context.openListed(summary);
    if (session === undefined) {
      void vscode.window.showWarningMessage(`Agent Stream: the session "${summary.title}" could not be opened; the log says why.`);
      return;
    }
    context.sessions.activate(session);
    await context.revealChat();
  },
};
