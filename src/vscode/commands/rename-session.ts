import * as vscode from "vscode";
import { TITLE_CHARS } from "../../common/session-title";
import type { AgentStreamCommand } from "./command";
import { sessionArgument } from "./session-argument";

/** The user's own name for a session: it stays, whatever the agent later calls it. */
export const renameSession: AgentStreamCommand = {
  id: "agentStream.renameSession",
  run: async (context, argument) => {
    const summary = await sessionArgument(context, argument, "The session to rename");
    if (summary === undefined || summary.source !== "agent-stream") return;
    const title = await vscode.window.showInputBox({
      title: "Agent Stream: Rename Session",
      value: summary.title,
      validateInput: (value) => (value.trim() === "" ? "A name cannot be empty." : value.length > TITLE_CHARS ? `At most ${TITLE_CHARS} characters.` : null),
    });
    if (title === undefined) return;
    await context.sessions.rename(summary.id, title);
  },
};
