import type { AgentStreamCommand } from "./command";

export const openChatInEditor: AgentStreamCommand = { id: "agentStream.openChatInEditor", run: (context) => context.openChatInEditor() };
