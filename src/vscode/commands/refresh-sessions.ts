import type { AgentStreamCommand } from "./command";

/** Reads the CLIs' own sessions again (Claude Code's store, the ACP agent's list): they change outside the editor. */
export const refreshSessions: AgentStreamCommand = {
  id: "agentStream.refreshSessions",
  run: (context) => context.refreshSessions(),
};
