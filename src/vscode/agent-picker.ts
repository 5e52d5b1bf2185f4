// New Session with Agent…: the agents this machine can run now — the built-in agent, the configured CLI, and every
// agent CLI found on the PATH, once each (profiles/agents-on-path.ts).
import * as vscode from "vscode";
import { agentIdentityOf } from "../profiles/agent-identity";
import { agentsOnPath } from "../profiles/agents-on-path";
import type { AgentIdentity } from "../protocol/sessions";
import { readSettings } from "./settings";

type AgentItem = vscode.QuickPickItem & { agent?: AgentIdentity };

/** The agent the settings name now: a new session's, until its first prompt fixes it. */
export function settingsAgent(log: vscode.LogOutputChannel): AgentIdentity {
  return agentIdentityOf(readSettings(log));
}

/** The CLI `agentStream.cli.path` names, even while the built-in agent answers; null when none is set. */
export function configuredAgent(log: vscode.LogOutputChannel): AgentIdentity | null {
  const settings = readSettings(log);
  return settings.cliPath === null ? null : agentIdentityOf({ ...settings, useBuiltinAgent: false });
}

export async function pickAgent(log: vscode.LogOutputChannel): Promise<AgentIdentity | undefined> {
  const settings = readSettings(log);
  const env = { ...process.env, ...settings.cliEnv };
  const items: AgentItem[] = [
    { label: "$(hubot) Built-in agent", description: "offline, answers from this workspace's files", agent: agentIdentityOf({ ...settings, useBuiltinAgent: true }) },
  ];
  if (settings.cliPath !== null) {
    const configured = agentIdentityOf({ ...settings, useBuiltinAgent: false });
    items.push({ label: `$(gear) ${configured.displayName}`, description: settings.cliPath, detail: "agentStream.cli.path", agent: configured });
  }
  const found: AgentItem[] = agentsOnPath(env).map(({ profile, file }) => ({
    label: profile.displayName,
    description: `${profile.name} · ${file}`,
    agent: { profile: profile.name, displayName: profile.displayName, command: profile.command, args: null },
  }));
  if (found.length > 0) items.push({ label: "On the PATH", kind: vscode.QuickPickItemKind.Separator }, ...found);
  const picked = await vscode.window.showQuickPick(items, {
    title: "Agent Stream: New Session with Agent",
    placeHolder: found.length === 0 && settings.cliPath === null ? "No agent CLI was found on the PATH; set agentStream.cli.path to use one" : "The agent for the new session",
    matchOnDescription: true,
  });
  return picked?.agent;
}
