import type { AgentStreamCommand } from "./command";

/** Ends the running agent's whole process tree (in band first where its profile can). */
export const stop: AgentStreamCommand = { id: "agentStream.stop", run: (context) => context.chat.stop() };
