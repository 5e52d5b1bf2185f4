// Claude Code's mode and model changed mid-run: a `control_request` on its stdin (`set_permission_mode` with `mode`,
// `set_model` with `model`), answered by a `control_response` naming the request (`success`, or `error` with why);
// and the `system/status` line that says its mode changed.
// Shapes: docs/protocols/claude-stream-json.md ("control_request set_permission_mode / set_model").
import * as z from "zod/mini";
import type { SettingsChannel } from "../protocol/settings-channel";

/** The line Claude writes when its permission mode changed (after `set_permission_mode`, or on leaving plan mode). */
const STATUS = z.object({ type: z.literal("system"), subtype: z.literal("status"), permissionMode: z.string() });
const ANSWER = z.object({
  type: z.literal("control_response"),
  response: z.union([
    z.object({ subtype: z.literal("success"), request_id: z.string() }),
    z.object({ subtype: z.literal("error"), request_id: z.string(), error: z.optional(z.string()) }),
  ]),
});

export const claudeSettingsChannel: SettingsChannel = {
  request(requestId, setting, value) {
    const request = setting === "mode" ? { subtype: "set_permission_mode", mode: value } : { subtype: "set_model", model: value };
    return JSON.stringify({ type: "control_request", request_id: requestId, request });
  },
  read(value) {
    const status = STATUS.safeParse(value);
    if (status.success) return { kind: "said", setting: "mode", value: status.data.permissionMode };
    const parsed = ANSWER.safeParse(value);
    if (!parsed.success) return undefined;
    const response = parsed.data.response;
    return { kind: "answer", requestId: response.request_id, error: response.subtype === "error" ? (response.error ?? "refused, without a reason") : null };
  },
};
