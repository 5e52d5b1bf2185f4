// The extension's settings, read in one place; settings-values.ts checks them.
import * as vscode from "vscode";
import { settingsFrom, type AgentSettings } from "./settings-values";

/**
 * What runs, with which arguments and environment, comes only from the user's own settings: a workspace's
 * .vscode/settings.json must not be able to make us run its program (or load its code via NODE_OPTIONS).
 */
const MACHINE_KEYS = new Set(["cli.path", "cli.args", "cli.extraArgs", "cli.profile", "cli.env"]);

/**
 * Set only in the user's settings, or not at all (no default): the auto-approvals, under their new and old names, of
 * which the new wins when it is set.
 */
const USER_ONLY_KEYS = new Set(["autoApprove", "acp.autoApprove"]);

/** Settings are read on every run: each unusable value is logged once, not every time. */
const warned = new Set<string>();

/** Every value that was not usable is logged with what is used instead. */
export function readSettings(log: { warn(message: string): void }): AgentSettings {
  const config = vscode.workspace.getConfiguration("agentStream");
  const warn = (message: string): void => {
    if (warned.has(message)) return;
    warned.add(message);
    log.warn(message);
  };
  return settingsFrom((key) => {
    if (USER_ONLY_KEYS.has(key)) return config.inspect<unknown>(key)?.globalValue;
    return MACHINE_KEYS.has(key) ? machineValue(config, key) : config.get<unknown>(key);
  }, warn);
}

function machineValue(config: vscode.WorkspaceConfiguration, key: string): unknown {
  const inspected = config.inspect<unknown>(key);
  return inspected?.globalValue ?? inspected?.defaultValue;
}
