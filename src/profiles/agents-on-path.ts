// The agent CLIs this machine can run now: every command of a profile found on the PATH (absolute entries only, as a
// run resolves it: never the workspace's), once each. Profiles that share a command (`gemini` speaks ACP and a JSON
// stream) are one agent to the user, run by the profile `auto` picks for that command.
import { resolveCommandPath } from "../process/command-path";
import type { CliProfile } from "./cli-profile";
import { PROFILES, resolveProfile } from "./profile-registry";

export interface AgentOnPath {
  profile: CliProfile;
  /** The file the command resolves to. */
  file: string;
}

export function agentsOnPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): AgentOnPath[] {
  const commands = [...new Set(PROFILES.map((profile) => profile.command))];
  return commands.flatMap((command) => {
    const file = resolveCommandPath(command, env, platform);
    return file.ok ? [{ profile: resolveProfile("auto", command), file: file.file }] : [];
  });
}
