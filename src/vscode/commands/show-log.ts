import type { AgentStreamCommand } from "./command";

export const showLog: AgentStreamCommand = { id: "agentStream.showLog", run: (context) => context.log.show() };
