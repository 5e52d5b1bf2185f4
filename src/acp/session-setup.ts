// An ACP session's settings from the moment it opens (new, loaded or resumed): it is put in the mode that asks, or the
// mode and model the user chose (session-modes.ts decides which), the agent's answer is checked, and what the agent
// says about its mode, model and config options since is kept as typed state the chat shows (`session_settings`).
import * as acp from "@agentclientprotocol/sdk";
import type { AcpEvent } from "../dialects/acp/acp-events";
import {
  modeChoiceOf,
  modelChoiceOf,
  readConfigOptions,
  readSessionSettings,
  NO_SESSION_SETTINGS,
  withConfigOptions,
  withCurrentMode,
  type SessionChoice,
  type SessionSettings,
} from "../dialects/acp/session-settings";
import type { SessionModeRule } from "../profiles/cli-profile";
import { optionValuesOf, type ChosenAgentSettings } from "../protocol/agent-state";
import { isRecord } from "../protocol/json-record";
import { approvesItself, modelStep, modeStep, noAskingModeMessage, optionStep, shownSettings, type SettingStep } from "./session-modes";

/**
 * The mode and model the user chose for this agent (`agent-stream ask --mode --model`); unset: the mode that asks.
 * `remembered`: the agent's remembered choice, none made for this session: what the agent no longer offers of it is
 * dropped (and logged) rather than refused, since the user did not pick it for this session.
 */
export type ChosenSettings = ChosenAgentSettings & { remembered?: boolean };

/** How a setting reaches the agent's session. */
export interface SettingRequests {
  /** A boolean option's value goes as a boolean (`type: "boolean"`), a select's as its value's id. */
  setConfigOption(configId: string, value: string | boolean): Promise<unknown>;
  setMode(modeId: string): Promise<unknown>;
}

export const NO_MODE_RULE: SessionModeRule = { asking: [], approvingItself: [] };

export class SessionSetup {
  private settings: SessionSettings = NO_SESSION_SETTINGS;
  private opened = false;
  /** The user chose another mode or model since the session was set up: it is set before the next prompt. */
  private choiceChanged = false;
  /** While the session is being set up, updates change the state but are told once, when it is set up. */
  private opening = false;
  /** The settling under way: another waits for it, so that no switch is sent twice. */
  private settling: Promise<unknown> = Promise.resolve();

  /** The choice as given, before a remembered part the agent does not offer was dropped: what `choose` compares with. */
  private given: ChosenSettings;

  constructor(
    private readonly rule: SessionModeRule,
    private chosen: ChosenSettings,
    private readonly emit: (event: AcpEvent) => void,
    private readonly info: (message: string) => void,
  ) {
    this.given = chosen;
  }

  /**
   * The session opened with `answer`: its mode and model are set as they should be. Resolves with why the turn must
   * not run (an unknown mode or model, a mode that approves by itself and cannot be left), or undefined.
   */
  async open(answer: unknown, requests: SettingRequests): Promise<string | undefined> {
    this.settings = readSessionSettings(answer);
    this.opened = true;
    this.choiceChanged = false;
    return this.settle(requests);
  }

  /** The user chose another mode or model (or none: the mode that asks) for the session: set at `applyChoice`. */
  choose(chosen: ChosenSettings): void {
    if (sameChoice(chosen, this.given)) return;
    this.given = chosen;
    this.chosen = { ...chosen, ...(chosen.config === undefined ? {} : { config: { ...chosen.config } }) };
    this.choiceChanged = this.opened;
  }

  /** Whether the session was set up: a choice can then be set at once (`applyChoice`), during a turn or between. */
  get isOpen(): boolean {
    return this.opened;
  }

  /** Before a prompt in a session already set up: the mode and model chosen since are set, as `open` sets them. */
  async applyChoice(requests: SettingRequests): Promise<string | undefined> {
    const settled = this.settling.then(async () => {
      if (!this.choiceChanged) return undefined;
      this.choiceChanged = false;
      const refusal = await this.settle(requests);
      // Refused: each later prompt tries again, rather than run in a mode the user no longer chose.
      if (refusal !== undefined) this.choiceChanged = true;
      return refusal;
    });
    this.settling = settled.catch(() => undefined);
    return settled;
  }

  private async settle(requests: SettingRequests): Promise<string | undefined> {
    this.opening = true;
    try {
      const refusal = (await this.settleMode(requests)) ?? (await this.settleModel(requests)) ?? (await this.settleOptions(requests));
      if (refusal !== undefined) return refusal;
    } finally {
      this.opening = false;
    }
    this.emit({ type: "session_settings", settings: shownSettings(this.settings, this.rule) });
    return undefined;
  }

  /** A decoded update: a mode or config options the agent changed is kept and told. */
  follow(event: AcpEvent): void {
    if (!this.opened) return;
    if (event.type === "mode") this.settings = withCurrentMode(this.settings, event.modeId);
    else if (event.type === "config_options") this.settings = withConfigOptions(this.settings, event.options);
    else return;
    if (!this.opening) this.emit({ type: "session_settings", settings: shownSettings(this.settings, this.rule) });
  }

  private async settleMode(requests: SettingRequests): Promise<string | undefined> {
    const before = modeChoiceOf(this.settings);
    let step = modeStep(before, this.rule, this.chosen.mode);
    if (step.kind === "refuse" && this.dropRemembered("mode", step.message)) step = modeStep(before, this.rule);
    if (step.kind !== "switch" || before === null) return step.kind === "refuse" ? step.message : undefined;
    const failure = await this.send(step, requests, (settings) => modeChoiceOf(settings));
    if (failure === undefined) {
      this.info(`the session was in mode ${before.current}; it is now in mode ${step.to.id}${step.reason === "asks" ? ", which asks first" : ", as chosen"}`);
      return undefined;
    }
    if (step.reason === "chosen") return `The agent did not switch to mode ${step.to.id} (${failure}).`;
    const current = modeChoiceOf(this.settings) ?? before;
    const mode = current.offered.find((offered) => offered.id === current.current) ?? { id: current.current, name: current.current, description: null };
    if (approvesItself(mode, this.rule)) return noAskingModeMessage(mode, current.offered, this.rule, failure);
    // Still a mode that does not approve by itself: the agent asks as that mode does.
    this.info(`the session stays in mode ${mode.id}: switching to ${step.to.id} failed (${failure})`);
    return undefined;
  }

  private async settleModel(requests: SettingRequests): Promise<string | undefined> {
    let step = modelStep(modelChoiceOf(this.settings), this.chosen.model);
    if (step.kind === "refuse" && this.dropRemembered("model", step.message)) step = modelStep(modelChoiceOf(this.settings));
    if (step.kind !== "switch") return step.kind === "refuse" ? step.message : undefined;
    const failure = await this.send(step, requests, (settings) => modelChoiceOf(settings));
    return failure === undefined ? undefined : `The agent did not switch to model ${step.to.id} (${failure}).`;
  }

  private async settleOptions(requests: SettingRequests): Promise<string | undefined> {
    for (const [optionId, value] of Object.entries(this.chosen.config ?? {})) {
      const step = optionStep(this.settings.configOptions, optionId, value);
      if (step.kind === "refuse" && this.dropRemembered({ option: optionId }, step.message)) continue;
      if (step.kind === "refuse") return step.message;
      if (step.kind === "keep") continue;
      const failure = await this.send(step, requests, (settings) => optionChoiceOf(settings, optionId));
      if (failure !== undefined) return `The agent did not set ${optionId} to ${value} (${failure}).`;
    }
    return undefined;
  }

  /**
   * A remembered choice (`mode`, `model` or a config option's id) the agent does not offer is forgotten for this session
   * with a log line; the session runs as the agent or the mode that asks has it. False: the user chose it for this one.
   */
  private dropRemembered(setting: "mode" | "model" | { option: string }, why: string): boolean {
    if (this.chosen.remembered !== true) return false;
    if (typeof setting === "string") {
      const { [setting]: _dropped, ...others } = this.chosen;
      this.chosen = others;
    } else {
      const { [setting.option]: _dropped, ...options } = this.chosen.config ?? {};
      this.chosen = { ...this.chosen, config: options };
    }
    this.info(`the remembered ${typeof setting === "string" ? setting : `config option ${setting.option}`} is dropped for this session: ${why}`);
    return true;
  }

  /**
   * Sends the switch and checks it: a config option's answer lists every option's value, which must be the one sent;
   * `session/set_mode` answers nothing, and its success is the switch (an update that says otherwise is kept later).
   * Resolves with why it failed, or undefined.
   */
  private async send<Info extends { id: string }>(
    step: Extract<SettingStep<Info>, { kind: "switch" }>,
    requests: SettingRequests,
    choiceOf: (settings: SessionSettings) => SessionChoice<Info> | null,
  ): Promise<string | undefined> {
    let said = true;
    try {
      if (step.configId === null) {
        await requests.setMode(step.to.id);
        this.settings = withCurrentMode(this.settings, step.to.id);
      } else {
        const option = this.settings.configOptions.find((each) => each.id === step.configId);
        const answer = await requests.setConfigOption(step.configId, option?.type === "boolean" ? step.to.id === "true" : step.to.id);
        // The answer must list the values; an update sent before it may have said so instead.
        const options = readConfigOptions((answer as { configOptions?: unknown } | null)?.configOptions);
        if (options === undefined) said = false;
        else this.settings = withConfigOptions(this.settings, options);
      }
    } catch (error) {
      // Only the agent's refusal; anything else (the agent gone) is the turn's failure.
      if (!(error instanceof acp.RequestError)) throw error;
      return `it answered ${refusalOf(error)}`;
    }
    const now = choiceOf(this.settings)?.current;
    if (now === step.to.id) return undefined;
    return said ? `it answered that it is in ${now ?? "no such setting"}` : "its answer did not say it switched";
  }
}

function sameChoice(a: ChosenSettings, b: ChosenSettings): boolean {
  const options = (chosen: ChosenSettings) => JSON.stringify(Object.entries(chosen.config ?? {}).sort(([x], [y]) => (x < y ? -1 : 1)));
  return a.mode === b.mode && a.model === b.model && options(a) === options(b) && a.remembered === b.remembered;
}

/** A config option's value now (a boolean's as "true" or "false"), as a choice to check a switch against. */
function optionChoiceOf(settings: SessionSettings, optionId: string): SessionChoice<{ id: string }> | null {
  const option = settings.configOptions.find((each) => each.id === optionId);
  if (option === undefined) return null;
  const { current, values } = optionValuesOf(option);
  return { current, offered: values.map((each) => ({ id: each.value })), configId: option.id };
}

/** The agent's words: its error's message, and the details agents put in its data (often the real reason). */
function refusalOf(error: acp.RequestError): string {
  const data: unknown = error.data;
  if (data === undefined || data === null) return error.message;
  const details = isRecord(data) && typeof data.details === "string" ? data.details : JSON.stringify(data).slice(0, 500);
  return `${error.message}: ${details}`;
}
