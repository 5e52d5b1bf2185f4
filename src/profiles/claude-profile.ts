// Claude Code: its stream-json output, with the prompt written on stdin as a stream-json user message, so that Stop
// can first send the in-band `interrupt` control request (Claude then ends the turn with its closing lines) and only
// then signals. A follow-up resumes the same Claude session: the first run names it (`--session-id`), later ones
// `--resume` it. Facts: docs/real-cli-recording.md and docs/dialects.md.
import { claudePermissionChannel } from "../dialects/claude-permission-request";
import { isRecord } from "../protocol/json-record";
import { CLAUDE_SETTING_FLAGS } from "./claude-setting-flags";
import type { PromptImage } from "../protocol/prompt-parts";
import { IN_BAND_STOP_GRACE_MS, defineProfile } from "./cli-profile";

const CLAUDE_ARGS = ["-p", "--verbose", "--output-format", "stream-json", "--include-partial-messages"];

export const claudeProfile = defineProfile({
  name: "claude",
  displayName: "Claude Code",
  summary:
    "Claude Code: `claude -p --verbose --output-format stream-json --include-partial-messages --input-format stream-json --permission-prompt-tool stdio`, the prompt as a stream-json message on stdin, each tool Claude asks about answered on stdin through the permission card; Stop sends Claude's `interrupt` first; a follow-up resumes the same Claude session.",
  commandNames: ["claude"],
  dialect: "claude",
  command: "claude",
  defaultArgs: CLAUDE_ARGS,
  login: { args: ["auth", "login"], apiKeyVariables: ["ANTHROPIC_API_KEY"] },
  settingFlags: CLAUDE_SETTING_FLAGS,
  takesImages: true,
  invocation: ({ prompt, userArgs, conversation, images = [] }) => {
    // Attached files are references in the text: Claude Code does not expand `@path` in a stream-json message (2.1.330
    // sent the model the words only), so it reads them with its Read tool as it needs. Images are its image blocks.
    return {
      args: [
        ...(userArgs ?? CLAUDE_ARGS),
        "--input-format",
        "stream-json",
        // Each tool call Claude would otherwise refuse in print mode is asked on stdout and answered on stdin.
        "--permission-prompt-tool",
        "stdio",
        // Claude echoes each message it takes from stdin: how a message sent mid-turn is known to be taken.
        "--replay-user-messages",
        ...(conversation.continues ? ["--resume", conversation.id] : ["--session-id", conversation.id]),
      ],
      input: {
        initial: userMessageLine(prompt, images),
        interrupt: {
          line: `${JSON.stringify({ type: "control_request", request_id: "agent-stream-stop", request: { subtype: "interrupt" } })}\n`,
          graceMs: IN_BAND_STOP_GRACE_MS,
        },
        // With stdin still open Claude would wait for the next message. A message sent mid-turn may get a `result` of
        // its own after the turn's (docs/protocols/claude-stream-json.md): the run waits for it (live-session.ts).
        isRunOver: (value) => isRecord(value) && value.type === "result",
        steer: { line: userMessageLine, isTaken: isReplayedMessage, lateMessage: "answered" },
        permissionChannel: claudePermissionChannel,
      },
    };
  },
});

function userMessageLine(text: string, images: readonly PromptImage[] = []): string {
  const content = [{ type: "text", text }, ...images.map(claudeImageBlock)];
  return `${JSON.stringify({ type: "user", message: { role: "user", content } })}\n`;
}

/** An image as the Anthropic Messages API takes it, which Claude Code passes on as it is. */
function claudeImageBlock(image: PromptImage): { type: "image"; source: { type: "base64"; media_type: string; data: string } } {
  return { type: "image", source: { type: "base64", media_type: image.mimeType, data: image.data } };
}

/** Claude echoes each message it takes from stdin (`--replay-user-messages`); a tool's result is not one. */
function isReplayedMessage(value: unknown): boolean {
  if (!isRecord(value) || value.type !== "user" || value.isReplay !== true || !isRecord(value.message)) return false;
  const content = value.message.content;
  return !Array.isArray(content) || !content.some((block) => isRecord(block) && block.type === "tool_result");
}
