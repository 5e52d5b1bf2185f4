// Which mode an ACP session runs in (issue 24): the one that asks before the agent edits or runs anything, unless the
// user chose another for that agent. A mode in which the agent approves its own actions (a classifier, a reviewer
// model, "accept edits", "yolo") is never kept by default. Pure: what to send is decided here; session-setup.ts sends
// it. The ids below are the ones the agents send (docs/acp-agents.md, "Session modes").
import type { AgentSessionSettings, SessionChoice, SessionConfigOption, SessionModeInfo, SessionModelInfo, SessionSettings, ShownMode } from "../dialects/acp/session-settings";
import { modeChoiceOf, modelChoiceOf } from "../dialects/acp/session-settings";
import type { SessionModeRule } from "../profiles/cli-profile";
import { optionValuesOf } from "../protocol/agent-state";

/**
 * Words in a mode's id or name that say the agent approves by itself: Qwen Code's `auto-edit`, `auto`, `yolo`; Gemini
 * CLI's `autoEdit`, `yolo`; claude-agent-acp's `acceptEdits`, `auto`, `bypassPermissions`; codex-acp's `auto`,
 * `full-access`, `workspace-write`, `agent-full-access`, and `agent`, named "Auto review".
 */
const APPROVES_ITSELF_WORDS = /auto|yolo|bypass|full.?access|accept.?edits|workspace.?write/i;
/** What the descriptions of such modes say ("Automatically approve all tools", "Claude handles permission decisions"). */
const APPROVES_ITSELF_DESCRIPTION = /automatically (approve|accept)|auto-?(approve|accept)|without (asking|approval)|handles permission decisions/i;
/** Ids of the modes that ask, where no profile names one: `default` (Qwen Code, Gemini CLI, Claude), `read-only` (Codex). */
const ASKING_IDS = ["default", "read-only", "manual", "ask"];
/** What the descriptions of modes that ask say ("Require approval for file edits", "prompts for dangerous operations"). */
const ASKS_DESCRIPTION = /\b(always ask|ask before|prompts? for|requires? approval|approval is required)\b/i;

/** What to do about the session's mode (or model) once it opened. */
export type SettingStep<Info> =
  | { kind: "keep" }
  | { kind: "switch"; to: Info; configId: string | null; reason: "asks" | "chosen" }
  /** The turn must not run: why, in words for the chat. */
  | { kind: "refuse"; message: string };

/** Whether the agent approves its own actions in this mode: the profile says so for the ids it knows, else the words. */
export function approvesItself(mode: SessionModeInfo, rule: SessionModeRule): boolean {
  if (rule.approvingItself.includes(mode.id)) return true;
  if (rule.asking.includes(mode.id)) return false;
  return APPROVES_ITSELF_WORDS.test(mode.id) || APPROVES_ITSELF_WORDS.test(mode.name) || APPROVES_ITSELF_DESCRIPTION.test(mode.description ?? "");
}

/** The mode that asks: the first the profile names that the agent offers, else one whose id or words say it asks. */
export function askingModeOf(offered: readonly SessionModeInfo[], rule: SessionModeRule): SessionModeInfo | undefined {
  for (const id of rule.asking) {
    const named = offered.find((mode) => mode.id === id);
    if (named !== undefined) return named;
  }
  const candidates = offered.filter((mode) => !approvesItself(mode, rule));
  for (const id of ASKING_IDS) {
    const known = candidates.find((mode) => mode.id.toLowerCase() === id);
    if (known !== undefined) return known;
  }
  return candidates.find((mode) => ASKS_DESCRIPTION.test(mode.description ?? ""));
}

/**
 * The mode step: the mode the user chose, when they chose one (an id the agent does not offer is refused, with what
 * it offers); else the mode that asks, when the profile names one the agent offers; else a mode that approves by
 * itself is left for one that asks, and refused when there is none.
 */
export function modeStep(choice: SessionChoice<SessionModeInfo> | null, rule: SessionModeRule, chosenId?: string): SettingStep<SessionModeInfo> {
  if (chosenId !== undefined) {
    const chosen = choice?.offered.find((mode) => mode.id === chosenId);
    if (choice === null) return { kind: "refuse", message: `The agent offers no modes, so it cannot be put in mode ${chosenId}.` };
    if (chosen === undefined) return { kind: "refuse", message: `The agent has no mode ${chosenId}. It offers: ${listModes(choice.offered, rule)}.` };
    return choice.current === chosen.id ? { kind: "keep" } : { kind: "switch", to: chosen, configId: choice.configId, reason: "chosen" };
  }
  if (choice === null) return { kind: "keep" };
  const asking = askingModeOf(choice.offered, rule);
  if (asking !== undefined && asking.id === choice.current) return { kind: "keep" };
  const current = currentModeOf(choice);
  // A mode the profile names as asking is where every session starts; else only a mode that approves by itself is left.
  const leave = (asking !== undefined && rule.asking.includes(asking.id)) || approvesItself(current, rule);
  if (!leave) return { kind: "keep" };
  if (asking === undefined) return { kind: "refuse", message: noAskingModeMessage(current, choice.offered, rule) };
  return { kind: "switch", to: asking, configId: choice.configId, reason: "asks" };
}

/** The model step: only when the user chose one, and only by a config option (`session/set_model` is not stable ACP). */
export function modelStep(choice: SessionChoice<SessionModelInfo> | null, chosenId?: string): SettingStep<SessionModelInfo> {
  if (chosenId === undefined) return { kind: "keep" };
  if (choice === null) return { kind: "refuse", message: `The agent offers no models to choose from, so it cannot use model ${chosenId}.` };
  const chosen = choice.offered.find((model) => model.id === chosenId);
  if (chosen === undefined) return { kind: "refuse", message: `The agent has no model ${chosenId}. It offers: ${listModels(choice.offered)}.` };
  if (choice.current === chosen.id) return { kind: "keep" };
  if (choice.configId === null) {
    return { kind: "refuse", message: `The agent lists model ${chosenId} but offers no config option to choose a model; its own arguments may choose one.` };
  }
  return { kind: "switch", to: chosen, configId: choice.configId, reason: "chosen" };
}

/** A config option the user set (`ask --config`, a header picker): one of its values, by `session/set_config_option`. */
export function optionStep(options: readonly SessionConfigOption[], optionId: string, value: string): SettingStep<{ id: string }> {
  const option = options.find((each) => each.id === optionId);
  const offered = options.map((each) => each.id).join(", ") || "none";
  if (option === undefined) return { kind: "refuse", message: `The agent has no config option ${optionId}. It offers: ${offered}.` };
  const { current, values } = optionValuesOf(option);
  if (!values.some((each) => each.value === value)) {
    return { kind: "refuse", message: `The agent's config option ${optionId} has no value ${value}. It offers: ${values.map((each) => each.value).join(", ")}.` };
  }
  return current === value ? { kind: "keep" } : { kind: "switch", to: { id: value }, configId: optionId, reason: "chosen" };
}

/** What the chat shows of the session's settings: each mode marked when the agent approves its own actions in it. */
export function shownSettings(settings: SessionSettings, rule: SessionModeRule): AgentSessionSettings {
  const mode = modeChoiceOf(settings);
  const shown = (info: SessionModeInfo): ShownMode => ({ ...info, approvesItself: approvesItself(info, rule) });
  return {
    mode: mode === null ? null : { ...mode, offered: mode.offered.map(shown), currentMode: shown(currentModeOf(mode)) },
    model: modelChoiceOf(settings),
    configOptions: settings.configOptions,
  };
}

/** Said when the session stays in a mode that approves by itself: the prompt is not sent. */
export function noAskingModeMessage(current: SessionModeInfo, offered: readonly SessionModeInfo[], rule: SessionModeRule, why?: string): string {
  const failed = why === undefined ? "it offers no mode that asks first" : `it could not be put in a mode that asks first (${why})`;
  return (
    `The agent's session is in mode ${current.name} (${current.id}), in which it approves edits or commands by itself, and ${failed}; ` +
    `so the prompt was not sent. Its modes: ${listModes(offered, rule)}. Choose one for this agent to run it anyway (agent-stream ask --mode ID).`
  );
}

function currentModeOf(choice: SessionChoice<SessionModeInfo>): SessionModeInfo {
  return choice.offered.find((mode) => mode.id === choice.current) ?? { id: choice.current, name: choice.current, description: null };
}

function listModes(modes: readonly SessionModeInfo[], rule: SessionModeRule): string {
  return modes.map((mode) => `${mode.id} ("${mode.name}"${approvesItself(mode, rule) ? ", approves its own actions" : ""})`).join(", ");
}

function listModels(models: readonly SessionModelInfo[]): string {
  return models.map((model) => (model.name === model.id ? model.id : `${model.id} ("${model.name}")`)).join(", ");
}
