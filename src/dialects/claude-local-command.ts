// Claude Code logs a local command the user ran (a slash command such as /model, and what it printed) as `user`
// messages in tags of its own, beside the prompts: in its session files, and in what claude-agent-acp's `session/load`
// replays (test/fixtures/claude-recorded/2.1.83/sessions/README.md). They are not something the user asked the model.

const LOCAL_COMMAND_OPENINGS = ["<command-name>", "<command-message>", "<command-args>", "<local-command-stdout>", "<local-command-stderr>", "<local-command-caveat>"];

/** Whether a user message's text is Claude Code's record of a local command, not a prompt. */
export function isClaudeLocalCommand(text: string): boolean {
  const start = text.trimStart();
  return LOCAL_COMMAND_OPENINGS.some((opening) => start.startsWith(opening));
}
