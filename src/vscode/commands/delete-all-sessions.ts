import * as vscode from "vscode";
import type { AgentStreamCommand } from "./command";

/** Deletes every session of this workspace after asking; the CLIs' own sessions are theirs and stay. */
export const deleteAllSessions: AgentStreamCommand = {
  id: "agentStream.deleteAllSessions",
  run: async (context) => {
    const ours = context.sessions.list().filter((summary) => summary.source === "agent-stream" && summary.turnCount > 0);
    if (ours.length === 0) {
      void vscode.window.showInformationMessage("Agent Stream: there are no sessions to delete.");
      return;
    }
    const running = ours.filter((summary) => summary.status === "running" || summary.status === "waiting").length;
    const stops = running === 0 ? "" : ` ${running} of them ${running === 1 ? "is" : "are"} running and will be stopped.`;
    const choice = await vscode.window.showWarningMessage(
      `Delete all ${ours.length} sessions of this workspace?${stops}`,
      { modal: true, detail: "This cannot be undone. The CLIs' own sessions (Claude Code's) are not touched." },
      "Delete All",
    );
    if (choice !== "Delete All") return;
    await context.sessions.deleteAll();
  },
};
