// Claude Code's mode and model changed mid-run: a `control_request` on its stdin (`set_permission_mode` with `mode`,
// `set_model` with `model`), answered by a `control_response` naming the request (`success`, or `error` with why);
// and the `system/status` line that says its mode changed. Before the prompt, `initialize` asks for its slash commands
// with their descriptions and the models it offers (what the Claude Agent SDK's `supportedCommands()` and
// `supportedModels()` return).
// Shapes: docs/protocols/claude-stream-json.md ("control_request set_permission_mode / set_model", "initialize").
import * as z from "zod/mini";
import type { ChannelCommand, ChannelModel, SettingsChannel } from "../protocol/settings-channel";

/** The line Claude writes when its permission mode changed (after `set_permission_mode`, or on leaving plan mode). */
const STATUS = z.object({ type: z.literal("system"), subtype: z.literal("status"), permissionMode: z.string() });
const ANSWER = z.object({
  type: z.literal("control_response"),
  response: z.union([
    z.object({ subtype: z.literal("success"), request_id: z.string() }),
    z.object({ subtype: z.literal("error"), request_id: z.string(), error: z.optional(z.string()) }),
  ]),
});

/** More than Claude offers (2.1.330 listed 44); a longer name is not a command, a longer description is cut. */
const MAX_COMMANDS = 512;
const MAX_NAME_CHARS = 200;
const MAX_DESCRIPTION_CHARS = 1000;
/** A command of another shape is left out, not the answer: the descriptions only help the composer. */
const COMMAND = z.object({ name: z.string().check(z.minLength(1), z.maxLength(MAX_NAME_CHARS)), description: z.optional(z.string()) });
/** More than Claude offers (2.1.330 listed 5): its aliases, each with the model it names now. */
const MAX_MODELS = 64;
const MODEL = z.object({
  value: z.string().check(z.minLength(1), z.maxLength(MAX_NAME_CHARS)),
  resolvedModel: z.optional(z.string().check(z.maxLength(MAX_NAME_CHARS))),
  displayName: z.optional(z.string().check(z.maxLength(MAX_NAME_CHARS))),
  description: z.optional(z.string()),
});
const INITIALIZED = z.object({
  type: z.literal("control_response"),
  response: z.object({
    subtype: z.literal("success"),
    request_id: z.string(),
    // An answer without models (an older Claude) still describes its commands.
    response: z.object({ commands: z.array(z.unknown()), models: z.optional(z.array(z.unknown())) }),
  }),
});

export const claudeSettingsChannel: SettingsChannel = {
  request(requestId, setting, value) {
    const request = setting === "mode" ? { subtype: "set_permission_mode", mode: value } : { subtype: "set_model", model: value };
    return JSON.stringify({ type: "control_request", request_id: requestId, request });
  },
  commandsRequest(requestId) {
    return JSON.stringify({ type: "control_request", request_id: requestId, request: { subtype: "initialize" } });
  },
  read(value) {
    const status = STATUS.safeParse(value);
    if (status.success) return { kind: "said", setting: "mode", value: status.data.permissionMode };
    const initialized = INITIALIZED.safeParse(value);
    if (initialized.success) {
      const { request_id: requestId, response } = initialized.data.response;
      return { kind: "commands", requestId, commands: commandsOf(response.commands), models: modelsOf(response.models ?? []) };
    }
    const parsed = ANSWER.safeParse(value);
    if (!parsed.success) return undefined;
    const response = parsed.data.response;
    return { kind: "answer", requestId: response.request_id, error: response.subtype === "error" ? (response.error ?? "refused, without a reason") : null };
  },
};

function commandsOf(listed: readonly unknown[]): ChannelCommand[] {
  const commands: ChannelCommand[] = [];
  for (const item of listed) {
    const command = COMMAND.safeParse(item);
    if (!command.success) continue;
    commands.push({ name: command.data.name, description: cut(command.data.description ?? "") });
    if (commands.length === MAX_COMMANDS) break;
  }
  return commands;
}

/** A model of another shape is left out, as is a second one of the same value (the picker's ids are the values). */
function modelsOf(listed: readonly unknown[]): ChannelModel[] {
  const models: ChannelModel[] = [];
  for (const item of listed) {
    const model = MODEL.safeParse(item);
    if (!model.success || models.some((known) => known.value === model.data.value)) continue;
    const { value, resolvedModel, displayName, description } = model.data;
    models.push({ value, resolvedModel: resolvedModel ?? null, name: displayName ?? value, description: cut(description ?? "") });
    if (models.length === MAX_MODELS) break;
  }
  return models;
}

function cut(description: string): string {
  return description.length > MAX_DESCRIPTION_CHARS ? `${description.slice(0, MAX_DESCRIPTION_CHARS)}…` : description;
}
