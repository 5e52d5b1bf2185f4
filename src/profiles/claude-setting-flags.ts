// How Claude Code's permission mode and model are chosen at each turn: `--permission-mode` (its modes:
// dialects/claude-modes.ts; `default`, the one that asks, unless another was chosen) and `--model`.
import { CLAUDE_PERMISSION_MODES } from "../dialects/claude-modes";
import { claudeSettingsChannel } from "../dialects/claude-settings-request";
import type { SettingFlags } from "./cli-profile";

export const CLAUDE_SETTING_FLAGS: SettingFlags = {
  modes: CLAUDE_PERMISSION_MODES,
  askingMode: "default",
  modeFlag: "--permission-mode",
  userModeFlags: ["--permission-mode", "--dangerously-skip-permissions"],
  modelFlag: "--model",
  // During a turn, Claude takes a change on its stdin (its control requests); between turns, the flags above.
  channel: claudeSettingsChannel,
  allowedToolsFlag: "--allowedTools",
};
