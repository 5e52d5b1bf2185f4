import * as vscode from "vscode";
import type { AgentStreamCommand } from "./command";
import { sessionArgument } from "./session-argument";

/** Deletes a session after asking: a running one stops first, and its file goes. */
export const deleteSession: AgentStreamCommand = {
  id: "agentStream.deleteSession",
  run: async (context, argument) => {
    const summary = await sessionArgument(context, argument, "The session to delete");
    if (summary === undefined || summary.source !== "agent-stream") return;
    const running = summary.status === "running" || summary.status === "waiting" ? " Its agent is running and will be stopped." : "";
    const choice = await vscode.window.showWarningMessage(`Delete the session "${summary.title}"?${running}`, { modal: true, detail: "This cannot be undone." }, "Delete");
    if (choice !== "Delete") return;
    await context.sessions.delete(summary.id);
  },
};
