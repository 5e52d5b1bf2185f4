import type { AgentStreamCommand } from "./command";

/** Stops whatever runs and starts an empty conversation. */
export const newSession: AgentStreamCommand = { id: "agentStream.newSession", run: (context) => context.chat.newSession() };
