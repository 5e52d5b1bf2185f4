// The mode, model and options the user last chose for each agent, kept in user scope (the extension's global state)
// for the agent's new sessions. What is kept was filtered by the session (never a mode that approves by itself); what
// is read back is checked again, as anything read from disk.
import type * as vscode from "vscode";
import { ChosenAgentSettingsSchema, type ChosenAgentSettings } from "../protocol/agent-state";
import type { AgentIdentity } from "../protocol/sessions";

const KEY = "agentStream.chosenSettings";
/** More agents than anyone runs: the oldest choice goes first. */
const MAX_AGENTS = 64;

export class RememberedChoices {
  constructor(private readonly state: vscode.Memento) {}

  /** The last choice for this agent (by its profile and command), or none. */
  of(agent: AgentIdentity): ChosenAgentSettings {
    const parsed = ChosenAgentSettingsSchema.safeParse(this.all()[keyOf(agent)]);
    return parsed.success ? parsed.data : {};
  }

  remember(agent: AgentIdentity, chosen: ChosenAgentSettings): void {
    const { [keyOf(agent)]: _previous, ...others } = this.all();
    const kept = Object.entries(others).slice(-(MAX_AGENTS - 1));
    void this.state.update(KEY, Object.fromEntries([...kept, [keyOf(agent), chosen]]));
  }

  private all(): Record<string, unknown> {
    const value: unknown = this.state.get(KEY);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  }
}

function keyOf(agent: AgentIdentity): string {
  return JSON.stringify([agent.profile, agent.command]);
}
