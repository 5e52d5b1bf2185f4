// What an ACP agent says about its session's settings: its modes, its models (an unstable part of the protocol some
// agents send) and its config options, from the answer to `session/new`, `session/load` or `session/resume` and from
// `current_mode_update` and `config_option_update` since. Each part is read on its own: one the agent got wrong costs
// that part, not the session. Facts per agent: docs/acp-agents.md, "Session modes".
import * as z from "zod/mini";

export interface SessionModeInfo {
  id: string;
  name: string;
  description: string | null;
}

export interface SessionModelInfo {
  id: string;
  name: string;
  description: string | null;
}

/** One value a select config option offers (groups, where the agent sends them, are flattened). */
export interface ConfigOptionValue {
  value: string;
  name: string;
  description: string | null;
}

interface ConfigOptionBase {
  id: string;
  name: string;
  description: string | null;
  /** `mode`, `model`, `thought_level`, … or the agent's own: for showing it; the protocol forbids relying on it. */
  category: string | null;
}

export type SessionConfigOption =
  | (ConfigOptionBase & { type: "select"; currentValue: string; values: ConfigOptionValue[] })
  | (ConfigOptionBase & { type: "boolean"; currentValue: boolean });

export interface SessionSettings {
  modes: { currentModeId: string; available: SessionModeInfo[] } | null;
  models: { currentModelId: string; available: SessionModelInfo[] } | null;
  configOptions: SessionConfigOption[];
}

/** A setting of the session as the user picks it: one of the values offered, and the config option that sets it. */
export interface SessionChoice<Info> {
  current: string;
  offered: Info[];
  /** The config option to send (`session/set_config_option`); null: set by `session/set_mode`, or not at all. */
  configId: string | null;
}

/** A mode as the chat shows it: named, and marked when the agent approves its own actions in it. */
export interface ShownMode extends SessionModeInfo {
  approvesItself: boolean;
}

/** The session's settings as the chat shows them (issues 23 and 25): each absent when the agent offers none. */
export interface AgentSessionSettings {
  mode: (SessionChoice<ShownMode> & { currentMode: ShownMode }) | null;
  model: SessionChoice<SessionModelInfo> | null;
  configOptions: SessionConfigOption[];
}

const text = z.optional(z.nullable(z.string()));
const ModeSchema = z.object({ id: z.string(), name: z.string(), description: text });
const ModesSchema = z.object({ currentModeId: z.string(), availableModes: z.array(ModeSchema) });
const ModelSchema = z.object({ modelId: z.string(), name: z.string(), description: text });
const ModelsSchema = z.object({ currentModelId: z.string(), availableModels: z.array(ModelSchema) });
const ValueSchema = z.object({ value: z.string(), name: z.string(), description: text });
const GroupSchema = z.object({ group: z.string(), options: z.array(ValueSchema) });
const OptionBaseSchema = { id: z.string(), name: z.string(), description: text, category: text };
const OptionSchema = z.union([
  z.object({ ...OptionBaseSchema, type: z.literal("select"), currentValue: z.string(), options: z.array(z.union([ValueSchema, GroupSchema])) }),
  z.object({ ...OptionBaseSchema, type: z.literal("boolean"), currentValue: z.boolean() }),
]);
const AnswerSchema = z.object({ modes: z.optional(z.unknown()), models: z.optional(z.unknown()), configOptions: z.optional(z.unknown()) });

export const NO_SESSION_SETTINGS: SessionSettings = { modes: null, models: null, configOptions: [] };

/** The settings an agent's answer to `session/new`, `session/load` or `session/resume` carries. */
export function readSessionSettings(answer: unknown): SessionSettings {
  const parsed = AnswerSchema.safeParse(answer);
  if (!parsed.success) return NO_SESSION_SETTINGS;
  const modes = ModesSchema.safeParse(parsed.data.modes);
  const models = ModelsSchema.safeParse(parsed.data.models);
  return {
    modes: modes.success ? { currentModeId: modes.data.currentModeId, available: modes.data.availableModes.map(info) } : null,
    models: models.success
      ? { currentModelId: models.data.currentModelId, available: models.data.availableModels.map((model) => info({ ...model, id: model.modelId })) }
      : null,
    configOptions: readConfigOptions(parsed.data.configOptions) ?? [],
  };
}

/** A list of config options, each read on its own (one the agent got wrong is left out); undefined if not a list. */
export function readConfigOptions(value: unknown): SessionConfigOption[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.flatMap((item): SessionConfigOption[] => {
    const result = OptionSchema.safeParse(item);
    if (!result.success) return [];
    const option = result.data;
    const base = { id: option.id, name: option.name, description: option.description ?? null, category: option.category ?? null };
    if (option.type === "boolean") return [{ ...base, type: "boolean", currentValue: option.currentValue }];
    const values = option.options.flatMap((entry) => ("group" in entry ? entry.options : [entry]));
    return [{ ...base, type: "select", currentValue: option.currentValue, values: values.map((v) => ({ value: v.value, name: v.name, description: v.description ?? null })) }];
  });
}

/** `current_mode_update`: the mode changed (the mode config option, if any, says the same). */
export function withCurrentMode(settings: SessionSettings, modeId: string): SessionSettings {
  const mode = modeOption(settings.configOptions);
  // An agent that never listed its modes still says which one it is in.
  const modes = settings.modes === null ? (mode === undefined ? { currentModeId: modeId, available: [] } : null) : { ...settings.modes, currentModeId: modeId };
  const configOptions = settings.configOptions.map((option) => (option === mode ? { ...option, currentValue: modeId } : option));
  return { ...settings, modes, configOptions };
}

/** `config_option_update`, or the answer to `session/set_config_option`: every option and its value now. */
export function withConfigOptions(settings: SessionSettings, configOptions: SessionConfigOption[]): SessionSettings {
  const mode = modeOption(configOptions);
  const modes = settings.modes !== null && mode !== undefined ? { ...settings.modes, currentModeId: mode.currentValue } : settings.modes;
  return { ...settings, modes, configOptions };
}

/**
 * The session's mode: through its mode config option when it has one (the protocol folds modes into config options,
 * and agents that send both keep them alike), else through its modes; null when the agent offers no mode.
 */
export function modeChoiceOf(settings: SessionSettings): SessionChoice<SessionModeInfo> | null {
  const option = modeOption(settings.configOptions);
  if (option !== undefined) return { current: option.currentValue, offered: option.values.map(valueInfo), configId: option.id };
  if (settings.modes === null) return null;
  return { current: settings.modes.currentModeId, offered: settings.modes.available, configId: null };
}

/** The session's model: its model config option, else its (unstable) models, which this client cannot set. */
export function modelChoiceOf(settings: SessionSettings): SessionChoice<SessionModelInfo> | null {
  const option = selectOption(settings.configOptions, "model");
  if (option !== undefined) return { current: option.currentValue, offered: option.values.map(valueInfo), configId: option.id };
  if (settings.models === null) return null;
  return { current: settings.models.currentModelId, offered: settings.models.available, configId: null };
}

function modeOption(options: readonly SessionConfigOption[]) {
  return selectOption(options, "mode");
}

/** The select option of that category; the one whose id is the category first, when there are several. */
function selectOption(options: readonly SessionConfigOption[], category: string) {
  const selects = options.filter((option): option is Extract<SessionConfigOption, { type: "select" }> => option.type === "select" && option.category === category);
  return selects.find((option) => option.id === category) ?? selects[0];
}

function info(value: { id: string; name: string; description?: string | null }): SessionModeInfo {
  return { id: value.id, name: value.name, description: value.description ?? null };
}

function valueInfo(value: ConfigOptionValue): SessionModeInfo {
  return { id: value.value, name: value.name, description: value.description };
}
