// agent-code: `agent --output-format json --prompt "<prompt>"` (JSONL). One run per prompt, stopped with signals.
import type { CliProfile } from "./cli-profile";

export const agentCodeProfile: CliProfile = {
  name: "agent-code",
  dialect: "agent-code",
  command: "agent",
  defaultArgs: ["--output-format", "json"],
  // Its document names no login command: it is opened as it is, to log in there.
  login: { args: [], hint: "Log in from the CLI's own prompt, or set its API key in agentStream.cli.env." },
  // `--prompt=…` keeps a prompt that starts with "-" from being read as an option.
  invocation: ({ prompt, userArgs }) => ({ args: [...(userArgs ?? agentCodeProfile.defaultArgs), `--prompt=${prompt}`] }),
};
