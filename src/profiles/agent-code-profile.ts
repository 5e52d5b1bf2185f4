// agent-code: `agent --output-format json --prompt "<prompt>"` (JSONL). One run per prompt, stopped with signals.
import type { CliProfile } from "./cli-profile";

export const agentCodeProfile: CliProfile = {
  name: "agent-code",
  dialect: "agent-code",
  command: "agent",
  defaultArgs: ["--output-format", "json"],
  // `--prompt=…` keeps a prompt that starts with "-" from being read as an option.
  invocation: ({ prompt, userArgs }) => ({ args: [...(userArgs ?? agentCodeProfile.defaultArgs), `--prompt=${prompt}`] }),
};
