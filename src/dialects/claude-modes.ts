// Claude Code's permission modes, as `--permission-mode` takes them and its `system/init` line names them (2.1.330
// also takes `manual`, which its init line names `default`). `default` asks before edits and commands; `plan` only
// reads and proposes; `dontAsk` refuses what no rule allows; `acceptEdits`, `auto` (a classifier decides) and
// `bypassPermissions` approve by themselves, so none of them is ever a default.
import type { AgentMode } from "../protocol/agent-state";

export const CLAUDE_PERMISSION_MODES: readonly AgentMode[] = [
  { id: "default", name: "Default", description: "Asks before edits and commands", approvesItself: false },
  { id: "acceptEdits", name: "Accept edits", description: "Accepts file edits by itself; asks before commands", approvesItself: true },
  { id: "plan", name: "Plan", description: "Reads and plans; changes nothing", approvesItself: false },
  { id: "auto", name: "Auto", description: "A classifier decides what is approved", approvesItself: true },
  { id: "dontAsk", name: "Don't ask", description: "Refuses whatever the permission rules do not allow", approvesItself: false },
  { id: "bypassPermissions", name: "Bypass permissions", description: "Skips every approval", approvesItself: true },
];
