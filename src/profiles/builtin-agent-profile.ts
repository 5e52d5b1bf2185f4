// The built-in offline agent (dist/builtin-agent.js) as a CLI: run by the host's own Node, speaking Locus protocol 1.
import * as path from "node:path";
import type { ConversationKey } from "./cli-profile";
import { agentCommand, type AgentCommand } from "./profile-registry";

/** `extensionPath` is the folder that holds dist/. */
export function builtinAgentCommand(extensionPath: string, prompt: string, conversation: ConversationKey): AgentCommand & { env: NodeJS.ProcessEnv } {
  const script = path.join(extensionPath, "dist", "builtin-agent.js");
  const command = agentCommand({ cliPath: process.execPath, cliArgs: [script, "exec", "--json-stream"], cliProfile: "locus", dialect: "locus" }, prompt, conversation);
  // In desktop VS Code execPath is Electron: ELECTRON_RUN_AS_NODE makes it plain Node.
  return { ...command, env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" } };
}
