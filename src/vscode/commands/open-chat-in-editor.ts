import type { AgentStreamCommand } from "./command";

/** The active session in its own editor tab. */
export const openChatInEditor: AgentStreamCommand = { id: "agentStream.openChatInEditor", run: (context) => context.openChatInEditor() };
