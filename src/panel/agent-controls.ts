// What the chat header's pickers show of a session's agent state: the mode, model and config options the agent offers,
// as they are now and as the user chose them. And which of the user's choices may be remembered for the agent's next
// sessions: never a mode in which the agent approves its own actions (nothing is allowed by default).
import { optionValuesOf, type AgentState, type ChosenAgentSettings } from "../protocol/agent-state";
import type { AgentControls } from "../protocol/messages";

/** The header's pickers for the session's agent state and the user's choice. */
export function agentControls(
  state: AgentState,
  chosen: ChosenAgentSettings,
  { appliesAt, applying, refusal }: Pick<AgentControls, "appliesAt" | "applying" | "refusal">,
): AgentControls {
  const { mode, model } = state;
  // A config option that is the mode or the model has its own picker.
  const ownPickers = new Set([mode?.configId, model?.configId]);
  // A boolean option is an on/off picker.
  const options = state.configOptions.flatMap((option) => {
    const { current, values } = optionValuesOf(option);
    if (ownPickers.has(option.id) || values.length === 0) return [];
    return [
      {
        optionId: option.id,
        name: option.name,
        currentId: current,
        chosenId: chosen.config?.[option.id] ?? null,
        offered: values.map(({ value, name, description }) => ({ id: value, name, description })),
      },
    ];
  });
  return {
    mode: mode === null ? null : { currentId: mode.currentId, chosenId: chosen.mode ?? null, offered: mode.offered.map((each) => ({ ...each })) },
    model: model === null ? null : { currentId: model.currentId, chosenId: chosen.model ?? null, offered: model.offered.map((each) => ({ ...each })) },
    options,
    appliesAt,
    applying,
    refusal,
  };
}

/**
 * The choice as it may be remembered for the agent's new sessions: a mode in which the agent approves its own actions
 * is left out (each new session starts in the mode that asks unless the user chooses otherwise in it).
 */
export function rememberedChoiceOf(chosen: ChosenAgentSettings, state: AgentState): ChosenAgentSettings {
  const { mode, ...others } = chosen;
  if (mode === undefined) return others;
  const offered = state.mode?.offered.find((each) => each.id === mode);
  // A mode the agent never described is not known to ask: not remembered either.
  return offered === undefined || offered.approvesItself ? others : { ...others, mode };
}
