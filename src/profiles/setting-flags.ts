// A stream CLI's mode and model at each run (Claude Code's `--permission-mode`, `--model`): the session's chosen ones,
// else the mode that asks, so that a CLI configured elsewhere to approve by itself does not do so unseen; and the
// mode and model its stream says it runs in, as the session's agent state.
import type { AgentModelSetting, AgentStateUpdate, ChosenAgentSettings } from "../protocol/agent-state";
import type { ChannelModel } from "../protocol/settings-channel";
import type { SettingFlags } from "./cli-profile";

/** The flags that put one run in the session's mode and model, added after the CLI's other arguments. */
export function settingArgs(flags: SettingFlags | undefined, args: readonly string[], chosen: ChosenAgentSettings): string[] {
  if (flags === undefined) return [];
  // The user's own arguments that name a mode are their choice, unless a mode was chosen for the session since.
  const userChoseMode = args.some((arg) => flags.userModeFlags.some((flag) => arg === flag || arg.startsWith(`${flag}=`)));
  const mode = chosen.mode ?? (userChoseMode ? undefined : flags.askingMode);
  return [...(mode === undefined ? [] : [flags.modeFlag, mode]), ...(chosen.model === undefined ? [] : [flags.modelFlag, chosen.model])];
}

/**
 * The session's choice as a run applies it. A mode remembered from the agent's earlier sessions (`remembered`: none was
 * chosen for this one) is read from disk: it is applied only if it is one of the CLI's modes and asks before acting,
 * else the run starts in the mode that asks and `dropped` says why. A mode chosen for this session is the user's.
 */
export function rememberedModeChecked(
  flags: SettingFlags | undefined,
  chosen: ChosenAgentSettings & { remembered?: boolean },
): { chosen: ChosenAgentSettings & { remembered?: boolean }; dropped?: string } {
  if (flags === undefined || chosen.remembered !== true || chosen.mode === undefined) return { chosen };
  const known = flags.modes.find((mode) => mode.id === chosen.mode);
  if (known !== undefined && !known.approvesItself) return { chosen };
  const { mode, ...others } = chosen;
  const why = known === undefined ? (unknownModeProblem(flags, mode) ?? "") : `${JSON.stringify(mode)} approves its own actions`;
  return { chosen: others, dropped: `the remembered mode is dropped for this run, which starts in ${JSON.stringify(flags.askingMode)}: ${why}` };
}

/** The rules the session's "always" answers gave the CLI, for a run that would not know them (a new process per turn). */
export function keptRuleArgs(flags: SettingFlags | undefined, rules: readonly string[]): string[] {
  const flag = flags?.allowedToolsFlag;
  return flag === undefined ? [] : rules.flatMap((rule) => [flag, rule]);
}

/** Why a mode the user named is not one of the CLI's, listing them; undefined when it is one. */
export function unknownModeProblem(flags: SettingFlags, mode: string): string | undefined {
  if (flags.modes.some((known) => known.id === mode)) return undefined;
  const listed = flags.modes.map((known) => (known.approvesItself ? `${known.id} (approves its own actions)` : known.id));
  return `unknown mode ${JSON.stringify(mode)}; the modes are ${listed.join(", ")}`;
}

/**
 * What is known of a stream CLI's settings before its first run: its modes, the one that asks current (each run starts
 * in it unless one is chosen), so that a mode can be picked for the first turn. Its `start` says the rest.
 */
export function agentStateBeforeRuns(flags: SettingFlags | undefined): AgentStateUpdate | undefined {
  if (flags === undefined) return undefined;
  return { kind: "settings", mode: { currentId: flags.askingMode, offered: flags.modes.map((known) => ({ ...known })), configId: null }, model: null, configOptions: [] };
}

/** The models a CLI offers (Claude's initialize answer; none before its first run) and the session's chosen one. */
export interface OfferedModels {
  models: readonly ChannelModel[];
  chosen?: string;
}

/**
 * The mode and model a run's `start` says (Claude Code's `system/init`), as the session's agent state: the CLI's modes
 * offered, each marked; the model with the models offered (see `modelSetting`). Undefined when the start says neither.
 */
export function agentStateOfStart(flags: SettingFlags | undefined, start: { mode?: string; model?: string }, offered: OfferedModels = { models: [] }): AgentStateUpdate | undefined {
  if (start.mode === undefined && start.model === undefined) return undefined;
  const mode = start.mode === undefined || flags === undefined ? null : { currentId: start.mode, offered: flags.modes.map((known) => ({ ...known })), configId: null };
  const model = start.model === undefined ? null : modelSetting(start.model, offered);
  return { kind: "settings", mode, model, configOptions: [] };
}

/**
 * The model a run's start names (`named`: Claude's init line names the model an alias resolves to, `claude-opus-5-5`),
 * with the models offered by the ids the CLI takes (`opus`). Marked: the session's chosen one when offered, else the
 * first offered whose id or resolved model is the one named; else the named one as it is (the CLI takes any name).
 */
export function modelSetting(named: string, offered: OfferedModels): AgentModelSetting {
  const { models, chosen } = offered;
  const current = models.find((model) => model.value === chosen) ?? models.find((model) => model.value === named || model.resolvedModel === named);
  return {
    currentId: current?.value ?? named,
    offered: models.map((model) => ({ id: model.value, name: model.name, description: model.description === "" ? null : model.description })),
    configId: null,
  };
}
