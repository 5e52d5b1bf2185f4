// What an agent says about its session rather than in a turn (ACP `session_info_update`, `current_mode_update`,
// `config_option_update`, the modes and models of `session/new`, `available_commands_update`, `usage_update`; Claude
// Code's `system/init`): kept with the session as it arrives, in one shape for every agent, and stored with it. The
// session's title shows now; the composer and the header show the rest later (issue 25).
import * as z from "zod/mini";

/** Longer than any real id or name an agent sends: a longer one is not kept. */
const Text = z.string().check(z.maxLength(4096));
/** Descriptions run longer (a command's can be a skill's summary). */
const Description = z.string().check(z.maxLength(65_536));
/** More than any agent offers: a longer list is not a list of choices. */
const MAX_CHOICES = 512;

/** One value of a setting the agent offers: a mode, a model. */
export const AgentChoiceSchema = z.object({ id: Text, name: Text, description: z.nullable(Description) });
export type AgentChoice = z.infer<typeof AgentChoiceSchema>;

/** A mode, marked when the agent approves its own edits or commands in it (nobody is asked before it acts). */
export const AgentModeSchema = z.object({ ...AgentChoiceSchema.shape, approvesItself: z.boolean() });
export type AgentMode = z.infer<typeof AgentModeSchema>;

/**
 * A setting of the session: its value now and the values offered (empty when the agent names its value but lists no
 * others, as Claude Code's model before its first initialize answer). `configId`: the ACP config option that sets it,
 * or null (ACP `session/set_mode`, or a stream CLI's flag at the next turn).
 */
function settingSchema<Choice extends z.ZodMiniType>(choice: Choice) {
  return z.object({ currentId: Text, offered: z.array(choice).check(z.maxLength(MAX_CHOICES)), configId: z.nullable(Text) });
}
export const AgentModeSettingSchema = settingSchema(AgentModeSchema);
export type AgentModeSetting = z.infer<typeof AgentModeSettingSchema>;
export const AgentModelSettingSchema = settingSchema(AgentChoiceSchema);
export type AgentModelSetting = z.infer<typeof AgentModelSettingSchema>;

/** An ACP config option as the session keeps it (`mode`, `model`, `thought_level`, … or the agent's own). */
const ConfigOptionBase = { id: Text, name: Text, description: z.nullable(Description), category: z.nullable(Text) };
export const AgentConfigOptionSchema = z.union([
  z.object({
    ...ConfigOptionBase,
    type: z.literal("select"),
    currentValue: Text,
    values: z.array(z.object({ value: Text, name: Text, description: z.nullable(Description) })).check(z.maxLength(MAX_CHOICES)),
  }),
  z.object({ ...ConfigOptionBase, type: z.literal("boolean"), currentValue: z.boolean() }),
]);
export type AgentConfigOption = z.infer<typeof AgentConfigOptionSchema>;

type OptionValues = { type: "select"; currentValue: string; values: readonly { value: string; name: string; description: string | null }[] } | { type: "boolean"; currentValue: boolean };

/** A boolean option's values, as its on/off picker and a choice (`config`) name them; sent as the booleans they say. */
export const BOOLEAN_VALUES = [
  { value: "true", name: "On", description: null },
  { value: "false", name: "Off", description: null },
] as const;

/** The values a config option offers and its value now, by the ids a picker and a choice name them. */
export function optionValuesOf(option: OptionValues): { current: string; values: readonly { value: string; name: string; description: string | null }[] } {
  return option.type === "select" ? { current: option.currentValue, values: option.values } : { current: String(option.currentValue), values: BOOLEAN_VALUES };
}

const CommandSchema = z.object({ name: Text, description: Description });
const UsageSchema = z.object({
  used: z.number(),
  size: z.number(),
  cost: z.nullable(z.object({ amount: z.number(), currency: Text })),
});

/** The session's agent state as last said; null: not said (yet). */
export const AgentStateSchema = z.object({
  title: z.nullable(Text),
  mode: z.nullable(AgentModeSettingSchema),
  model: z.nullable(AgentModelSettingSchema),
  configOptions: z.array(AgentConfigOptionSchema).check(z.maxLength(MAX_CHOICES)),
  commands: z.array(CommandSchema).check(z.maxLength(MAX_CHOICES)),
  usage: z.nullable(UsageSchema),
});
export type AgentState = z.infer<typeof AgentStateSchema>;

/**
 * The mode and model the user chose for the session (ids the agent knows): given to the agent at each turn or when
 * its session opens, and kept with the session. Unset: the agent's mode that asks first, and its own model.
 */
export const ChosenAgentSettingsSchema = z.object({
  mode: z.optional(Text),
  model: z.optional(Text),
  /** The agent's other config options the user set (ACP `session/set_config_option`), by the option's id. */
  config: z.optional(z.record(Text, Text).check(z.refine((config) => Object.keys(config).length <= MAX_CHOICES, "too many options"))),
});
export type ChosenAgentSettings = z.infer<typeof ChosenAgentSettingsSchema>;

/**
 * What came of a choice given to the agent: it took it now, it takes it with the next prompt (no session or turn to
 * give it to now, or no way to), or it refused it (`reason`, in the agent's words).
 */
export type ChoiceOutcome = { kind: "applied" } | { kind: "next-turn" } | { kind: "refused"; reason: string };

export type AgentStateUpdate =
  | { kind: "title"; title: string }
  /** The mode changed (ACP `current_mode_update`): the modes offered stay as they were said. */
  | { kind: "mode"; modeId: string }
  /** The session's mode, model and config options as they are now: each replaces what was kept. */
  | { kind: "settings"; mode: AgentModeSetting | null; model: AgentModelSetting | null; configOptions: AgentConfigOption[] }
  | { kind: "commands"; commands: { name: string; description: string }[] }
  | { kind: "usage"; used: number; size: number; cost: { amount: number; currency: string } | null }
  /** The model changed (Claude's `set_model` answered): the models offered stay as they were said. */
  | { kind: "model"; modelId: string }
  /** The models offered, learnt after the run's start said its model (Claude's initialize answered late): the mode stays. */
  | { kind: "models"; model: AgentModelSetting };

export function emptyAgentState(): AgentState {
  return { title: null, mode: null, model: null, configOptions: [], commands: [], usage: null };
}

export function applyAgentState(state: AgentState, update: AgentStateUpdate): void {
  switch (update.kind) {
    case "title":
      state.title = update.title;
      return;
    case "mode":
      // An agent that never listed its modes still says which one it is in.
      state.mode = state.mode === null ? { currentId: update.modeId, offered: [], configId: null } : { ...state.mode, currentId: update.modeId };
      return;
    case "settings":
      state.mode = update.mode === null ? null : { ...update.mode, offered: update.mode.offered.map((mode) => ({ ...mode })) };
      state.model = update.model === null ? null : { ...update.model, offered: update.model.offered.map((model) => ({ ...model })) };
      state.configOptions = update.configOptions.map(copyOption);
      return;
    case "commands":
      state.commands = update.commands.map((command) => ({ ...command }));
      return;
    case "usage":
      state.usage = { used: update.used, size: update.size, cost: update.cost === null ? null : { ...update.cost } };
      return;
    case "model":
      state.model = state.model === null ? { currentId: update.modelId, offered: [], configId: null } : { ...state.model, currentId: update.modelId };
      return;
    case "models":
      state.model = { ...update.model, offered: update.model.offered.map((model) => ({ ...model })) };
      return;
  }
}

function copyOption(option: AgentConfigOption): AgentConfigOption {
  return option.type === "select" ? { ...option, values: option.values.map((value) => ({ ...value })) } : { ...option };
}
