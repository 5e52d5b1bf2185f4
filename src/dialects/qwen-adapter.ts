// Qwen Code's `qwen --output-format stream-json --include-partial-messages` (test/fixtures/qwen-recorded/README.md):
// Claude Code's stream-json, read by the Claude adapter with Qwen's differences (ClaudeFlavour): each content block
// repeated under its own id, and a failed model call made up as text, "[API Error: 401 …]", which 0.15 even
// reports as a successful result.
import { ClaudeAdapter, type ClaudeFlavour } from "./claude-adapter";
import { defineDialect } from "./dialect";
import type { Json } from "./kit/cli-line";

const QWEN_FLAVOUR: ClaudeFlavour = { dialect: "qwen", cliName: "Qwen Code", blockRepeatsWithNewIds: true, apiErrorsAsText: true };

export const qwenDialect = defineDialect({
  name: "qwen",
  summary: "Qwen Code: `qwen --output-format stream-json --include-partial-messages` (Claude Code's stream, with Qwen's errors).",
  create: () => new ClaudeAdapter(Date.now, QWEN_FLAVOUR),
  recognizes: isQwenValue,
});

/**
 * Only Qwen Code's `system/init` names `qwen_code_version`; its other lines are Claude Code's shapes, so the init
 * line is what `auto` knows it by (a Qwen stream cut before its init is read as Claude's).
 */
function isQwenValue(value: Json): boolean {
  return value.type === "system" && value.subtype === "init" && typeof value.qwen_code_version === "string";
}
