// How Claude Code's permission mode and model are chosen at each turn: `--permission-mode` (its modes:
// dialects/claude-modes.ts; `default`, the one that asks, unless another was chosen) and `--model`.
import { CLAUDE_PERMISSION_MODES } from "../dialects/claude-modes";
import type { SettingFlags } from "./cli-profile";

export const CLAUDE_SETTING_FLAGS: SettingFlags = {
  modes: CLAUDE_PERMISSION_MODES,
  askingMode: "default",
  modeFlag: "--permission-mode",
  userModeFlags: ["--permission-mode", "--dangerously-skip-permissions"],
  modelFlag: "--model",
  allowedToolsFlag: "--allowedTools",
};
