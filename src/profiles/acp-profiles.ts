// Agents that speak the Agent Client Protocol (issue 14): one warm process per conversation, the prompt, Stop
// (`session/cancel`) and follow-ups (the same ACP session) over JSON-RPC on its stdio, so each profile says only how
// to start the agent and how it logs in. Facts: docs/real-acp-agents.md and docs/protocols/acp.md.
import { defineProfile, type CliProfile, type SessionModeRule } from "./cli-profile";

interface AcpAgent<Name extends string> {
  name: Name;
  displayName: string;
  commandNames: readonly string[];
  command: string;
  defaultArgs: readonly string[];
  login: CliProfile["login"];
  authMethods?: readonly string[];
  /** Absent: no mode is known to ask, and the agent's modes are judged by their ids and names alone. */
  modes?: SessionModeRule;
}

const ACP_SUMMARY_TAIL = "over ACP: one warm process per conversation, Stop sends `session/cancel` first, a follow-up continues the same ACP session.";

function defineAcpProfile<const Name extends string>(agent: AcpAgent<Name>): CliProfile<Name> {
  const commandLine = [agent.command, ...agent.defaultArgs].join(" ");
  return defineProfile({
    name: agent.name,
    displayName: agent.displayName,
    summary: `${agent.displayName}: \`${commandLine}\` ${ACP_SUMMARY_TAIL}`,
    commandNames: agent.commandNames,
    // Never read as a stream: the ACP client decodes its messages.
    dialect: "auto",
    command: agent.command,
    defaultArgs: agent.defaultArgs,
    login: agent.login,
    transport: { kind: "acp", authMethods: agent.authMethods ?? [], modes: agent.modes ?? { asking: [], approvingItself: [] } },
    // The prompt goes over the protocol, never on the command line.
    invocation: ({ userArgs }) => ({ args: [...(userArgs ?? agent.defaultArgs)] }),
  });
}

export const geminiProfile = defineAcpProfile({
  name: "gemini",
  displayName: "Gemini CLI",
  commandNames: ["gemini"],
  command: "gemini",
  defaultArgs: ["--acp"],
  login: { args: [], hint: "Gemini CLI asks how to log in when it starts; or set GEMINI_API_KEY.", apiKeyVariables: ["GEMINI_API_KEY"] },
  // Gemini CLI's auth types, as its ACP mode offers them: an API key in the environment first.
  authMethods: ["gemini-api-key", "oauth-personal"],
  modes: { asking: ["default"], approvingItself: ["autoEdit", "yolo"] },
});

export const qwenProfile = defineAcpProfile({
  name: "qwen",
  displayName: "Qwen Code",
  commandNames: ["qwen"],
  command: "qwen",
  defaultArgs: ["--acp"],
  login: { args: [], hint: "Type /auth in Qwen Code to log in; or set OPENAI_API_KEY.", apiKeyVariables: ["OPENAI_API_KEY"] },
  authMethods: ["openai", "qwen-oauth"],
  // 0.24 starts its sessions in `auto`, where a classifier approves edits.
  modes: { asking: ["default"], approvingItself: ["auto-edit", "auto", "yolo"] },
});

export const opencodeProfile = defineAcpProfile({
  name: "opencode",
  displayName: "opencode",
  commandNames: ["opencode"],
  command: "opencode",
  defaultArgs: ["acp"],
  login: { args: ["auth", "login"] },
  // Its modes (`build`, `plan`) are agents, not approvals: its `permission` setting says what asks.
});

export const codexAcpProfile = defineAcpProfile({
  name: "codex",
  displayName: "Codex (codex-acp)",
  commandNames: ["codex-acp"],
  command: "codex-acp",
  defaultArgs: [],
  // The adapter has no login of its own: Codex's CLI logs in for it.
  login: { command: "codex", args: ["login"], apiKeyVariables: ["OPENAI_API_KEY"] },
  // 0.16 (`@zed-industries/codex-acp`), then 2.6 (`@agentclientprotocol/codex-acp`).
  authMethods: ["openai-api-key", "codex-api-key", "api-key", "chatgpt", "chat-gpt"],
  // 2.6 starts its sessions in `agent`, where a reviewer model decides approvals; `read-only` asks in both.
  modes: { asking: ["read-only"], approvingItself: ["auto", "full-access", "workspace-write", "agent", "agent-full-access"] },
});

export const claudeAcpProfile = defineAcpProfile({
  name: "claude-acp",
  displayName: "Claude (claude-agent-acp)",
  commandNames: ["claude-agent-acp"],
  command: "claude-agent-acp",
  defaultArgs: [],
  login: { command: "claude", args: ["auth", "login"], apiKeyVariables: ["ANTHROPIC_API_KEY"] },
  // 0.101 starts its sessions in `auto`, where Claude decides approvals.
  modes: { asking: ["default"], approvingItself: ["acceptEdits", "auto", "bypassPermissions"] },
});

export const copilotProfile = defineAcpProfile({
  name: "copilot",
  displayName: "GitHub Copilot CLI",
  commandNames: ["copilot"],
  command: "copilot",
  defaultArgs: ["--acp", "--stdio"],
  login: { args: [], hint: "Type /login in Copilot CLI to log in." },
});

/** Any other ACP agent: the command and arguments are `agentStream.cli.path` and `agentStream.cli.args`. */
export const acpProfile = defineAcpProfile({
  name: "acp",
  displayName: "ACP agent",
  commandNames: [],
  command: "acp-agent",
  defaultArgs: [],
  login: { args: [], hint: "The agent is asked to authenticate (its `authenticate` method) when it says it needs to." },
});
