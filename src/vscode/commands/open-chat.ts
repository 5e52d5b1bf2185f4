import type { AgentStreamCommand } from "./command";

export const openChat: AgentStreamCommand = { id: "agentStream.openChat", run: (context) => context.revealChat() };
