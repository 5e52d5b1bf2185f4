// Gemini CLI, Codex, opencode and Qwen Code through their headless stream modes, for users who prefer them to ACP or
// run versions without it: one process per prompt, the prompt as an argument, stdin closed, stopped with signals.
// None of them keeps our conversation id, so each prompt starts a new conversation. They have no command names:
// `auto` picks these CLIs' ACP profiles by file name, and a stream profile is chosen by its name only.
// Facts: test/fixtures/{gemini,codex,opencode,qwen}-recorded/README.md and docs/dialects.md.
import { defineProfile, type Invocation, type InvocationRequest } from "./cli-profile";

const GEMINI_ARGS = ["--output-format", "stream-json"];
const CODEX_ARGS = ["exec", "--json", "--skip-git-repo-check"];
const OPENCODE_ARGS = ["run", "--format", "json"];
const QWEN_ARGS = ["--output-format", "stream-json", "--include-partial-messages"];

/**
 * A prompt given as a positional argument to a CLI whose parser knows no `--` for it (yargs): one that starts with
 * "-" would be read as an option. A leading space keeps it a message.
 */
function asPositional(prompt: string): string {
  return prompt.startsWith("-") ? ` ${prompt}` : prompt;
}

export const geminiStreamProfile = defineProfile({
  name: "gemini-stream",
  displayName: "Gemini CLI",
  summary:
    "Gemini CLI's stream mode: `gemini --output-format stream-json --prompt=\"<prompt>\"`; stopped with SIGINT; each prompt a new conversation. Chosen by name only (`auto` runs `gemini` through ACP).",
  commandNames: [],
  dialect: "gemini",
  command: "gemini",
  defaultArgs: GEMINI_ARGS,
  login: { args: [], hint: "Choose how to log in when Gemini CLI asks (or set GEMINI_API_KEY in agentStream.cli.env), then ask again.", apiKeyVariables: ["GEMINI_API_KEY"] },
  // `--prompt=…` keeps a prompt that starts with "-" one value.
  invocation: ({ prompt, userArgs }: InvocationRequest): Invocation => ({ args: [...(userArgs ?? GEMINI_ARGS), `--prompt=${prompt}`] }),
});

export const codexStreamProfile = defineProfile({
  name: "codex-stream",
  displayName: "Codex",
  summary:
    "Codex's stream mode: `codex exec --json --skip-git-repo-check -- \"<prompt>\"`, stdin closed; stopped with signals; each prompt a new conversation. Chosen by name only (`auto` runs `codex-acp` through ACP).",
  commandNames: [],
  dialect: "codex",
  command: "codex",
  defaultArgs: CODEX_ARGS,
  login: { args: ["login"], apiKeyVariables: ["OPENAI_API_KEY"] },
  // Codex reads its prompt from stdin when none is given or it is "-": stdin stays closed, and `--` keeps a prompt
  // that starts with "-" an argument.
  invocation: ({ prompt, userArgs }: InvocationRequest): Invocation => ({ args: [...(userArgs ?? CODEX_ARGS), "--", prompt] }),
});

export const opencodeStreamProfile = defineProfile({
  name: "opencode-stream",
  displayName: "opencode",
  summary:
    "opencode's stream mode: `opencode run --format json \"<prompt>\"`; stopped with signals (SIGINT ends `run`, SIGTERM follows); each prompt a new conversation. Chosen by name only (`auto` runs `opencode` through ACP).",
  commandNames: [],
  dialect: "opencode",
  command: "opencode",
  defaultArgs: OPENCODE_ARGS,
  login: { args: ["auth", "login"] },
  invocation: ({ prompt, userArgs }: InvocationRequest): Invocation => ({ args: [...(userArgs ?? OPENCODE_ARGS), asPositional(prompt)] }),
});

export const qwenStreamProfile = defineProfile({
  name: "qwen-stream",
  displayName: "Qwen Code",
  summary:
    "Qwen Code's stream mode: `qwen --output-format stream-json --include-partial-messages \"<prompt>\"`; stopped with SIGINT; each prompt a new conversation. Chosen by name only (`auto` runs `qwen` through ACP).",
  commandNames: [],
  dialect: "qwen",
  command: "qwen",
  defaultArgs: QWEN_ARGS,
  login: { args: [], hint: "Type /auth in Qwen Code and choose how to log in (or set OPENAI_API_KEY in agentStream.cli.env), then ask again.", apiKeyVariables: ["OPENAI_API_KEY"] },
  invocation: ({ prompt, userArgs }: InvocationRequest): Invocation => ({ args: [...(userArgs ?? QWEN_ARGS), asPositional(prompt)] }),
});
