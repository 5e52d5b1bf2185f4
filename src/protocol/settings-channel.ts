// How a stream CLI that reads its stdin during a run takes a change of its mode or model then, and answers it on its
// output (Claude Code's `set_permission_mode` and `set_model` control requests). Nothing here knows which CLI it is.

/** A setting a CLI can change mid-run. */
export type ChannelSetting = "mode" | "model";

/** A slash command the CLI takes, with what it does in its own words ("" when it says nothing). */
export interface ChannelCommand {
  name: string;
  description: string;
}

/**
 * A model the CLI offers (Claude's initialize answer): `value` is what it takes (an alias such as `opus`), `resolvedModel`
 * the model that alias names now (as its start line names it; null when it does not say).
 */
export interface ChannelModel {
  value: string;
  resolvedModel: string | null;
  name: string;
  description: string;
}

export interface SettingsChannel {
  /** The line (without its newline) that asks the CLI to change `setting` to `value`; its answer names `requestId`. */
  request(requestId: string, setting: ChannelSetting, value: string): string;
  /**
   * The line (without its newline) written before the prompt that asks the CLI which slash commands it takes, with
   * their descriptions, and the models it offers (Claude's `initialize`); its answer names `requestId`. Absent: the CLI
   * is not asked.
   */
  commandsRequest?(requestId: string): string;
  /**
   * The CLI's answer to a request, by its id (`error`: why it refused, in its words); or a setting the CLI says it now
   * has, asked or not (Claude's status line after a switch, or when it leaves plan mode); or the commands it answered
   * `commandsRequest` with (and its models); undefined for other values.
   */
  read(
    value: unknown,
  ):
    | { kind: "answer"; requestId: string; error: string | null }
    | { kind: "said"; setting: ChannelSetting; value: string }
    | { kind: "commands"; requestId: string; commands: ChannelCommand[]; models: ChannelModel[] }
    | undefined;
}
