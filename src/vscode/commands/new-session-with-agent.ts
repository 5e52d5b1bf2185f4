import type { AgentStreamCommand } from "./command";

/** A new session with the agent the user picks: the built-in agent, a profile's CLI found on the PATH, or the configured CLI. */
export const newSessionWithAgent: AgentStreamCommand = {
  id: "agentStream.newSessionWithAgent",
  run: async (context) => {
    const agent = await context.pickAgent();
    if (agent === undefined) return;
    context.sessions.create(agent);
    await context.revealChat();
  },
};
