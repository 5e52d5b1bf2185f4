import type { AgentStreamCommand } from "./command";

/** A new session with the agent the settings name; the one shown before stays in the Sessions list, running if it runs. */
export const newSession: AgentStreamCommand = {
  id: "agentStream.newSession",
  run: async (context) => {
    context.sessions.create();
    await context.revealChat();
  },
};
