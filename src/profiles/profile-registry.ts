// The registry of agent CLIs: every CLI the panel can run, in one list. Every other list of them is derived from it:
// the names `agentStream.cli.profile` accepts, how `auto` picks one, the settings' descriptions (package.json is
// checked against it by test/unit/profiles/registry.test.ts). Adding a CLI: docs/adding-an-agent-cli.md.
import type { DialectName } from "../dialects/registry";
import type { CliInput } from "../process/cli-process";
import type { ChosenAgentSettings } from "../protocol/agent-state";
import type { PromptImage } from "../protocol/prompt-parts";
import type { PermissionChannel } from "../permissions/permission-channel";
import { acpProfile, claudeAcpProfile, codexAcpProfile, copilotProfile, geminiProfile, opencodeProfile, qwenProfile } from "./acp-profiles";
import { agentCodeProfile } from "./agent-code-profile";
import { userArgumentsOf, type CliProfile, type ConversationKey } from "./cli-profile";
import { claudeProfile } from "./claude-profile";
import { locusProfile } from "./locus-profile";
import { indusagiProfile, piProfile } from "./pi-profile";
import { settingArgs } from "./setting-flags";
import { codexStreamProfile, geminiStreamProfile, opencodeStreamProfile, qwenStreamProfile } from "./stream-mode-profiles";

/** In the order the settings list them. */
export const PROFILES = [
  locusProfile,
  claudeProfile,
  piProfile,
  indusagiProfile,
  agentCodeProfile,
  geminiProfile,
  qwenProfile,
  opencodeProfile,
  codexAcpProfile,
  claudeAcpProfile,
  copilotProfile,
  acpProfile,
  geminiStreamProfile,
  codexStreamProfile,
  opencodeStreamProfile,
  qwenStreamProfile,
] as const;
/** What `auto` runs a CLI it does not recognise as: Locus, the primary contract. */
const FALLBACK_PROFILE: CliProfile = locusProfile;

export type ProfileName = (typeof PROFILES)[number]["name"];
export type ProfileSetting = "auto" | ProfileName;
export const PROFILE_SETTING_VALUES: readonly ProfileSetting[] = ["auto", ...PROFILES.map((profile) => profile.name)];

/** `auto`'s line in the settings' list of profiles. */
export const AUTO_PROFILE_SUMMARY = `Go by the CLI's file name (${PROFILES.filter((p) => p !== FALLBACK_PROFILE)
  .flatMap((p) => p.commandNames)
  .map((name) => `\`${name}\``)
  .join(", ")}); anything else is run as ${FALLBACK_PROFILE.displayName}.`;

export function isProfileSetting(name: string): name is ProfileSetting {
  return PROFILE_SETTING_VALUES.includes(name as ProfileSetting);
}

/** Whether `auto` knows a CLI by its file name; one it does not know runs as the fallback profile. */
export function isKnownCommand(cliPath: string): boolean {
  const name = commandName(cliPath);
  return PROFILES.some((profile) => profile.commandNames.includes(name));
}

/** The CLI's executable name as `auto` reads it: the file name, without `.exe`/`.cmd`/…, in lower case. */
function commandName(cliPath: string): string {
  // Either separator: a Windows path read on any platform.
  return cliPath.split(/[\\/]/).pop()?.replace(/\.(exe|cmd|bat|js|mjs)$/i, "").toLowerCase() ?? "";
}

/** `auto`: the CLI's executable name (`claude`, `pi`, `agent`, …; `.exe`/`.cmd` ignored) decides; anything else is Locus. */
export function resolveProfile(setting: ProfileSetting, cliPath: string | null): CliProfile {
  if (setting !== "auto") return PROFILES.find((profile) => profile.name === setting) ?? FALLBACK_PROFILE;
  const name = commandName(cliPath ?? "");
  return PROFILES.find((profile) => profile.commandNames.includes(name)) ?? FALLBACK_PROFILE;
}

/** What the user chose in settings about the CLI. */
export interface CliChoice {
  /** Null: the profile's command. */
  readonly cliPath: string | null;
  /** Null: the profile's arguments. */
  readonly cliArgs: readonly string[] | null;
  /** Added after those arguments (the profile's or the user's); absent: none. */
  readonly cliExtraArgs?: readonly string[];
  readonly cliProfile: ProfileSetting;
  readonly dialect: DialectName;
}

export interface AgentCommand {
  readonly profile: CliProfile;
  readonly command: string;
  readonly args: string[];
  readonly input: CliInput | undefined;
  readonly isRunOver: ((value: unknown) => boolean) | undefined;
  /** How the CLI's permission requests are read and answered, when it asks on its output. */
  readonly permissionChannel: PermissionChannel | undefined;
  /** The dialect setting, unless it is `auto` and the profile knows its CLI's dialect. */
  readonly dialect: DialectName;
}

/** The CLI the user chose: its profile, and the command to run (the profile's own when no path is set). */
export function resolveCli(choice: Pick<CliChoice, "cliPath" | "cliProfile">): { profile: CliProfile; command: string } {
  const profile = resolveProfile(choice.cliProfile, choice.cliPath);
  return { profile, command: choice.cliPath ?? profile.command };
}

/**
 * The command line (and stdin) for one prompt, from the user's choice and the CLI's profile; in the session's chosen
 * mode and model where the CLI takes them as flags.
 */
export function agentCommand(
  choice: CliChoice,
  prompt: string,
  conversation: ConversationKey,
  chosen: ChosenAgentSettings = {},
  images: readonly PromptImage[] = [],
): AgentCommand {
  const { profile, command } = resolveCli(choice);
  const invocation = profile.invocation({ prompt, userArgs: userArgumentsOf(profile, choice.cliArgs, choice.cliExtraArgs), conversation, images });
  return {
    profile,
    command,
    args: [...invocation.args, ...settingArgs(profile.settingFlags, invocation.args, chosen)],
    input: invocation.input,
    isRunOver: invocation.input?.isRunOver,
    permissionChannel: invocation.input?.permissionChannel,
    dialect: choice.dialect === "auto" ? profile.dialect : choice.dialect,
  };
}
