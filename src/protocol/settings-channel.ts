// How a stream CLI that reads its stdin during a run takes a change of its mode or model then, and answers it on its
// output (Claude Code's `set_permission_mode` and `set_model` control requests). Nothing here knows which CLI it is.

/** A setting a CLI can change mid-run. */
export type ChannelSetting = "mode" | "model";

export interface SettingsChannel {
  /** The line (without its newline) that asks the CLI to change `setting` to `value`; its answer names `requestId`. */
  request(requestId: string, setting: ChannelSetting, value: string): string;
  /** The CLI's answer to a request, by its id (`error`: why it refused, in its words); undefined for every other value. */
  read(value: unknown): { requestId: string; error: string | null } | undefined;
}
