// What an agent says about its session rather than in a turn (ACP `session_info_update`, `current_mode_update`,
// `available_commands_update`, `usage_update`): kept with the session as it arrives. The session's title shows now;
// the composer and the header show the rest later (issue 25).
export type AgentStateUpdate =
  | { kind: "title"; title: string }
  | { kind: "mode"; modeId: string }
  | { kind: "commands"; commands: { name: string; description: string }[] }
  | { kind: "usage"; used: number; size: number; cost: { amount: number; currency: string } | null };

/** The session's agent state as last said; null: not said (yet). */
export interface AgentState {
  title: string | null;
  modeId: string | null;
  commands: { name: string; description: string }[];
  usage: { used: number; size: number; cost: { amount: number; currency: string } | null } | null;
}

export function emptyAgentState(): AgentState {
  return { title: null, modeId: null, commands: [], usage: null };
}

export function applyAgentState(state: AgentState, update: AgentStateUpdate): void {
  switch (update.kind) {
    case "title":
      state.title = update.title;
      return;
    case "mode":
      state.modeId = update.modeId;
      return;
    case "commands":
      state.commands = update.commands.map((command) => ({ ...command }));
      return;
    case "usage":
      state.usage = { used: update.used, size: update.size, cost: update.cost === null ? null : { ...update.cost } };
      return;
  }
}
