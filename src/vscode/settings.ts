// The extension's settings, read in one place with their defaults.
import * as vscode from "vscode";
import { isDialectName, type DialectName } from "../dialects/registry";
import type { ContextChoice } from "../panel/prompt-context";
import { isProfileSetting, type ProfileSetting } from "../profiles/profile-registry";
import { DEFAULT_MAX_LINE_BYTES } from "../stream/line-reader";

export interface AgentSettings {
  /** Answer with the bundled offline agent instead of an agent CLI. */
  useBuiltinAgent: boolean;
  /** Null: the profile's own command. */
  cliPath: string | null;
  /** Null: the profile's own arguments. */
  cliArgs: string[] | null;
  /** How the CLI is started, stopped and continued; `auto` goes by the CLI's name. */
  cliProfile: ProfileSetting;
  cliEnv: Record<string, string>;
  /** How to read the CLI's output (and recorded streams). */
  dialect: DialectName;
  inactivityTimeoutMs: number;
  maxLineBytes: number;
  /** What "Ask about Workspace" sends with the prompt. */
  context: ContextChoice;
}

export function readSettings(): AgentSettings {
  const config = vscode.workspace.getConfiguration("agentStream");
  const path = String(machineValue<unknown>(config, "cli.path", "") ?? "").trim();
  const args = machineValue<unknown>(config, "cli.args", null);
  const profile = String(machineValue<unknown>(config, "cli.profile", "auto"));
  return {
    useBuiltinAgent: config.get<boolean>("useBuiltinAgent", false),
    cliPath: path === "" ? null : path,
    cliArgs: Array.isArray(args) ? args.filter((a): a is string => typeof a === "string") : null,
    // An unknown name (a typo, a profile of a newer version) falls back to the default rather than failing every run.
    cliProfile: isProfileSetting(profile) ? profile : "auto",
    cliEnv: stringRecord(machineValue<Record<string, unknown>>(config, "cli.env", {})),
    dialect: dialectOf(config.get<string>("dialect", "auto")),
    inactivityTimeoutMs: Math.max(0, config.get<number>("inactivityTimeoutSeconds", 120)) * 1000,
    maxLineBytes: Math.max(1, config.get<number>("maxLineSizeMB", DEFAULT_MAX_LINE_BYTES / (1024 * 1024))) * 1024 * 1024,
    context: {
      workspaceFolder: config.get<boolean>("context.workspaceFolder", true),
      activeFile: config.get<boolean>("context.activeFile", true),
      selection: config.get<boolean>("context.selection", true),
    },
  };
}

/**
 * What runs, with which arguments and environment, comes only from the user's own settings: a workspace's
 * .vscode/settings.json must not be able to make us run its program (or load its code via NODE_OPTIONS).
 */
function machineValue<T>(config: vscode.WorkspaceConfiguration, key: string, fallback: T): T {
  const inspected = config.inspect<T>(key);
  return inspected?.globalValue ?? inspected?.defaultValue ?? fallback;
}

/** An unknown name (a typo, a dialect of a newer version) falls back to the default rather than failing every run. */
function dialectOf(name: string): DialectName {
  return isDialectName(name) ? name : "auto";
}

function stringRecord(value: Record<string, unknown> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value ?? {})) if (typeof v === "string") out[key] = v;
  return out;
}
