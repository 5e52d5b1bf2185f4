// pi: rpc mode, where the prompt is a `prompt` command on stdin and Stop first sends `abort`. pi keeps the
// conversation in a session file: every run of one conversation names the same file with `--session`, so a follow-up
// continues it. In rpc mode pi exits as soon as stdin closes, even mid-answer, so stdin stays open until the run is
// over (see isRunOver). indusagi shares pi's event model, but its document gives only `--mode json "<prompt>"`: it
// is run that way, one process per prompt, stopped with signals.
import * as path from "node:path";
import { isRecord } from "../protocol/json-record";
import { IN_BAND_STOP_GRACE_MS, defineProfile, type CliProfile, type Invocation, type InvocationRequest } from "./cli-profile";

/**
 * Errors pi retries by itself (AgentSession._isRetryableError in pi 0.73): after an `agent_end` with one of these, an
 * `auto_retry_start` follows and the run goes on, so it is not over yet.
 */
const RETRIED_BY_PI =
  /overloaded|provider.?returned.?error|rate.?limit|too many requests|429|500|502|503|504|service.?unavailable|server.?error|internal.?error|network.?error|connection.?error|connection.?refused|connection.?lost|websocket.?closed|websocket.?error|other side closed|fetch failed|upstream.?connect|reset before headers|socket hang up|ended without|http2 request did not get a response|timed? out|timeout|terminated|retry delay/i;

function piLikeProfile<const Name extends "pi" | "indusagi">(
  name: Name,
  description: Pick<CliProfile, "summary">,
  invocation: (request: InvocationRequest) => Invocation,
  takesImages: boolean,
): CliProfile<Name> {
  return defineProfile({
    name,
    displayName: name,
    ...description,
    commandNames: [name],
    dialect: name,
    command: name,
    defaultArgs: [],
    login: { args: [], hint: `Type /login in ${name} and pick your provider, then ask again.` },
    invocation,
    takesImages,
  });
}

function rpcInvocation({ prompt, userArgs, conversation, images = [] }: InvocationRequest): Invocation {
  // pi's rpc `prompt` takes images beside the message ({type: "image", data, mimeType}: its ImageContent).
  const attached = images.length === 0 ? {} : { images: images.map(({ data, mimeType }) => ({ type: "image", data, mimeType })) };
  return {
    args: [...withoutMode(userArgs ?? []), "--mode", "rpc", "--session", path.join(conversation.stateDir, `${conversation.id}.jsonl`)],
    input: {
      initial: `${JSON.stringify({ id: "agent-stream-prompt", type: "prompt", message: prompt, ...attached })}\n`,
      interrupt: { line: `${JSON.stringify({ id: "agent-stream-abort", type: "abort" })}\n`, graceMs: IN_BAND_STOP_GRACE_MS },
      isRunOver: isRunOver,
      // pi delivers a steered message after the running tool calls, before its next model call, within the same run.
      // One that arrives after its last look at the queue (it decided to end) waits there for a next `prompt`
      // (pi-agent-core's runLoop): no turn of its own.
      steer: { line: (message) => `${JSON.stringify({ type: "steer", message })}\n`, isTaken: isUserMessage, lateMessage: "left-queued" },
    },
  };
}

/** The mode is the profile's to choose; a `--mode` left in the user's arguments from before would fight it. */
function withoutMode(args: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < args.length; index++) {
    if (args[index] === "--mode") index++;
    else if (!args[index]?.startsWith("--mode=")) kept.push(args[index] ?? "");
  }
  return kept;
}

/** Where one prompt's run ends in pi's rpc stream, which pi does not mark with an event of its own. */
function isRunOver(value: unknown): boolean {
  if (!isRecord(value)) return false;
  switch (value.type) {
    // The prompt was refused (no model, say): nothing will run.
    case "response":
      return value.command === "prompt" && value.success === false;
    // Retries given up: the last word of the run.
    case "auto_retry_end":
      return value.success === false;
    case "agent_end":
      return !endsInRetry(value);
    default:
      return false;
  }
}

/** A user message pi took into its conversation (the prompt, or a steered one): its `message_start`. */
function isUserMessage(value: unknown): boolean {
  return isRecord(value) && value.type === "message_start" && isRecord(value.message) && value.message.role === "user";
}

/** An `agent_end` is final unless its last answer failed with an error pi retries (it says so right after). */
function endsInRetry(agentEnd: Record<string, unknown>): boolean {
  const messages: unknown[] = Array.isArray(agentEnd.messages) ? agentEnd.messages : [];
  const last = [...messages].reverse().find((m) => isRecord(m) && m.role === "assistant");
  if (!isRecord(last) || last.stopReason !== "error" || typeof last.errorMessage !== "string") return false;
  // Context overflow is compacted, not retried.
  return RETRIED_BY_PI.test(last.errorMessage) && !/context.{0,20}(length|window|overflow)|too long/i.test(last.errorMessage);
}

/**
 * `--mode json` takes the prompt as a positional argument and knows no `--`: one that starts with "-" would be read as
 * an option, and one that starts with "@" as a file to include. A leading space keeps it a message.
 */
function jsonModeInvocation({ prompt, userArgs }: InvocationRequest): Invocation {
  const message = /^[-@]/.test(prompt) ? ` ${prompt}` : prompt;
  return { args: [...withoutMode(userArgs ?? []), "--mode", "json", message] };
}

export const piProfile = piLikeProfile(
  "pi",
  { summary: "pi: `pi --mode rpc`, the prompt as an rpc command on stdin; Stop sends `abort` first; a follow-up continues the same pi session file." },
  rpcInvocation,
  true,
);
export const indusagiProfile = piLikeProfile(
  "indusagi",
  { summary: "indusagi: `indusagi --mode json \"<prompt>\"`, the mode its document gives; stopped with signals." },
  jsonModeInvocation,
  false,
);
