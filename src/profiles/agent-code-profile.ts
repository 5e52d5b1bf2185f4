// agent-code: `agent --output-format json --prompt "<prompt>"` (JSONL). One run per prompt, stopped with signals.
import { defineProfile } from "./cli-profile";

const AGENT_CODE_ARGS = ["--output-format", "json"];

export const agentCodeProfile = defineProfile({
  name: "agent-code",
  displayName: "agent-code",
  summary: "agent-code: `agent --output-format json --prompt=\"<prompt>\"`; stopped with signals.",
  commandNames: ["agent"],
  dialect: "agent-code",
  command: "agent",
  defaultArgs: AGENT_CODE_ARGS,
  // Its document names no login command: it is opened as it is, to log in there.
  login: { args: [], hint: "Log in from the CLI's own prompt, or set its API key in agentStream.cli.env." },
  // `--prompt=…` keeps a prompt that starts with "-" from being read as an option.
  invocation: ({ prompt, userArgs }) => ({ args: [...(userArgs ?? AGENT_CODE_ARGS), `--prompt=${prompt}`] }),
});
