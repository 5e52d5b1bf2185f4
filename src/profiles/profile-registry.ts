// The profiles a user can name in `agentStream.cli.profile`, and `auto`, which goes by the CLI's file name.
import type { DialectName } from "../dialects/registry";
import type { CliInput } from "../process/cli-process";
import { agentCodeProfile } from "./agent-code-profile";
import { PROFILE_NAMES, type CliProfile, type ConversationKey, type ProfileName } from "./cli-profile";
import { claudeProfile } from "./claude-profile";
import { locusProfile } from "./locus-profile";
import { indusagiProfile, piProfile } from "./pi-profile";

const PROFILES: Record<ProfileName, CliProfile> = {
  locus: locusProfile,
  claude: claudeProfile,
  pi: piProfile,
  indusagi: indusagiProfile,
  "agent-code": agentCodeProfile,
};

export const PROFILE_SETTING_VALUES = ["auto", ...PROFILE_NAMES] as const;
export type ProfileSetting = (typeof PROFILE_SETTING_VALUES)[number];

export function isProfileSetting(name: string): name is ProfileSetting {
  return (PROFILE_SETTING_VALUES as readonly string[]).includes(name);
}

/** `auto`: the CLI's executable name (`claude`, `pi`, `agent`, …; `.exe`/`.cmd` ignored) decides; anything else is Locus. */
export function resolveProfile(setting: ProfileSetting, cliPath: string | null): CliProfile {
  if (setting !== "auto") return PROFILES[setting];
  // Either separator: a Windows path read on any platform.
  const name = (cliPath ?? "").split(/[\\/]/).pop()?.replace(/\.(exe|cmd|bat|js|mjs)$/i, "").toLowerCase() ?? "";
  const byCommand = Object.values(PROFILES).find((profile) => profile.command === name);
  return byCommand ?? locusProfile;
}

/** What the user chose in settings about the CLI. */
export interface CliChoice {
  /** Null: the profile's command. */
  readonly cliPath: string | null;
  /** Null: the profile's arguments. */
  readonly cliArgs: readonly string[] | null;
  readonly cliProfile: ProfileSetting;
  readonly dialect: DialectName;
}

export interface AgentCommand {
  readonly profile: CliProfile;
  readonly command: string;
  readonly args: string[];
  readonly input: CliInput | undefined;
  readonly isRunOver: ((value: unknown) => boolean) | undefined;
  /** The dialect setting, unless it is `auto` and the profile knows its CLI's dialect. */
  readonly dialect: DialectName;
}

/** The CLI the user chose: its profile, and the command to run (the profile's own when no path is set). */
export function resolveCli(choice: Pick<CliChoice, "cliPath" | "cliProfile">): { profile: CliProfile; command: string } {
  const profile = resolveProfile(choice.cliProfile, choice.cliPath);
  return { profile, command: choice.cliPath ?? profile.command };
}

/** The command line (and stdin) for one prompt, from the user's choice and the CLI's profile. */
export function agentCommand(choice: CliChoice, prompt: string, conversation: ConversationKey): AgentCommand {
  const { profile, command } = resolveCli(choice);
  const invocation = profile.invocation({ prompt, userArgs: choice.cliArgs, conversation });
  return {
    profile,
    command,
    args: invocation.args,
    input: invocation.input,
    isRunOver: invocation.input?.isRunOver,
    dialect: choice.dialect === "auto" ? profile.dialect : choice.dialect,
  };
}
