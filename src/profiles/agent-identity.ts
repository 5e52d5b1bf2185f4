// Which agent a session talks to, as the settings name it when the session is created: kept with the session, so
// that settings changed later start new sessions with another agent but never move an existing one to it.
import * as path from "node:path";
import type { AgentIdentity } from "../protocol/sessions";
import { isKnownCommand, isProfileSetting, resolveCli, type CliChoice, type ProfileSetting } from "./profile-registry";

/** The built-in agent's profile name in an identity: no CLI profile has it. */
export const BUILTIN_AGENT_PROFILE = "builtin";

export function agentIdentityOf(choice: Pick<CliChoice, "cliPath" | "cliProfile" | "cliArgs" | "cliExtraArgs"> & { useBuiltinAgent: boolean }): AgentIdentity {
  if (choice.useBuiltinAgent) return { profile: BUILTIN_AGENT_PROFILE, displayName: "Built-in agent", command: "", args: null };
  const { profile, command } = resolveCli(choice);
  // A CLI `auto` does not know by name is called by its own file name, not by the profile it runs as.
  const unknown = choice.cliProfile === "auto" && choice.cliPath !== null && !isKnownCommand(choice.cliPath);
  const displayName = unknown ? path.basename(command) : profile.displayName;
  const extraArgs = choice.cliExtraArgs ?? [];
  return { profile: profile.name, displayName, command, args: choice.cliArgs === null ? null : [...choice.cliArgs], ...(extraArgs.length === 0 ? {} : { extraArgs: [...extraArgs] }) };
}

/** A stored identity's profile as a setting: a name this version does not know falls back to `auto`. */
export function profileSettingOf(name: string): ProfileSetting {
  return isProfileSetting(name) ? name : "auto";
}
