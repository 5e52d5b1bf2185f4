// An ACP conversation shaped like the panel's other runs: each prompt is an AcpRun whose session reads the agent's
// events as normalized events (dialect `acp`) and ends with exactly one `done`, however the turn ends.
import { randomUUID } from "node:crypto";
import type { PromptCapabilities } from "@agentclientprotocol/sdk";
import { PROTOCOL_VERSION, type CliEventType, type CliStreamEvent, type EventOfType } from "../protocol/events";
import type { Problem, Transcript } from "../protocol/transcript";
import { Session, type SessionOptions } from "../session/session";
import type { AgentStateUpdate, ChoiceOutcome } from "../protocol/agent-state";
import { AcpEventTranslator } from "../dialects/acp/acp-event-translator";
import type { AcpEvent, AcpUsage } from "../dialects/acp/acp-events";
import type { AgentSessionSettings } from "../dialects/acp/session-settings";
import { AcpAgentConnection, type AcpAgentConnectionOptions, type PromptContent } from "./agent-connection";
import type { ChosenSettings } from "./session-setup";
import { ACP_DIALECT_NAME } from "../dialects/acp/acp-adapter";
import { emitTurnEnd, type AcpTurnOutcome } from "../dialects/acp/turn-outcome";


export interface AcpConversationOptions extends Omit<AcpAgentConnectionOptions, "onEvent" | "onProblem"> {
  /**
   * The agent opened its session: a new one, or the saved one continued (`loaded`, `resumed`). The host keeps the id,
   * so that a reloaded window's next prompt continues the same conversation on the agent's side.
   */
  onSession?(sessionId: string, continued: "new" | "loaded" | "resumed"): void;
  /** What the agent says about its session (its title, mode, commands, usage), between turns as well as in them. */
  onAgentState?(update: AgentStateUpdate): void;
}
export type AcpRunOptions = Omit<SessionOptions, "dialect" | "severalTurns">;

/** One conversation: one warm agent process for all its turns, one turn at a time. */
export class AcpConversation {
  /** The conversation's id in the normalized stream: the same for every turn, so they read back as one. */
  readonly id = randomUUID();
  private readonly connection: AcpAgentConnection;
  private current: AcpRun | undefined;
  /** The agent's last `usage_update`, in a turn or between: a turn's cost is what the next one adds to it. */
  private usage: AcpUsage | undefined;

  constructor(private readonly options: AcpConversationOptions) {
    this.connection = new AcpAgentConnection({
      ...options,
      onEvent: (event) => {
        if (event.type === "session_ready") options.onSession?.(event.sessionId, event.continued);
        const state = agentStateOf(event);
        if (state !== undefined) options.onAgentState?.(state);
        if (event.type === "usage") this.usage = event.usage;
        this.current?.accept(event);
      },
      // A bad line mid-turn is the turn's: a recoverable MALFORMED_EVENT error in its chat and its `--json`.
      onProblem: (problem) => this.current?.acceptProblem(problem),
    });
  }

  /** The agent's process id while it runs. */
  get pid(): number | undefined {
    return this.connection.pid;
  }

  /** The user chose the session's mode or model (or none: the mode that asks): set before the next prompt. */
  choose(chosen: ChosenSettings): void {
    this.connection.choose(chosen);
  }

  /** What the warm agent's prompts may carry (images?), once it said; undefined before it started. */
  get promptCapabilities(): PromptCapabilities | undefined {
    return this.connection.promptCapabilities;
  }

  /** Starts the warm agent ahead of a prompt, for what its prompts may carry; undefined when it could not start. */
  start(): Promise<PromptCapabilities | undefined> {
    return this.connection.start();
  }

  /** The same, set at once where the agent holds its session (agent-connection.ts `chooseNow`). */
  chooseNow(chosen: ChosenSettings): Promise<ChoiceOutcome> {
    return this.connection.chooseNow(chosen);
  }

  /** One turn. A second prompt while one runs is a programmer error, as for the connection. */
  prompt(blocks: PromptContent, options: AcpRunOptions = {}): AcpRun {
    // A turn whose transcript is out takes a follow-up at once, before its own cleanup has run.
    if (this.current?.running === true) throw new Error("AcpConversation.prompt: a turn is already running");
    const run = new AcpRun(this.connection, this.id, this.commandLine(), options, this.usage);
    this.current = run;
    run.begin(blocks).finally(() => {
      if (this.current === run) this.current = undefined;
    });
    return run;
  }

  /** Ends the agent's whole process tree; a turn still running ends canceled. */
  dispose(): Promise<void> {
    this.current?.noteStop();
    return this.connection.dispose();
  }

  kill(): void {
    this.current?.noteStop();
    this.connection.kill();
  }

  private commandLine(): string {
    return [this.options.command, ...this.options.args].join(" ");
  }
}

/** One prompt's turn: a session fed by the agent's events; `finished` settles with its transcript, never rejects. */
export class AcpRun {
  readonly session: Session;
  readonly finished: Promise<Transcript>;
  private readonly translator: AcpEventTranslator;
  private settle: (transcript: Transcript) => void = () => {};
  private beganAt = 0;
  /** Set once the turn has its outcome: its permission requests were all answered by then, and no answer is taken. */
  private over = false;

  constructor(
    private readonly connection: AcpAgentConnection,
    private readonly conversationId: string,
    private readonly command: string,
    options: AcpRunOptions,
    usageBefore?: AcpUsage,
  ) {
    this.session = new Session({ ...options, dialect: ACP_DIALECT_NAME });
    this.translator = new AcpEventTranslator((type, payload) => this.feed(type, payload), usageBefore);
    this.finished = new Promise((resolve) => (this.settle = resolve));
  }

  /** Until the agent answered the prompt: the connection takes no other turn meanwhile. */
  get running(): boolean {
    return !this.over;
  }

  /** The user's Stop: in band first (`session/cancel`), the signal escalation after the connection's grace. */
  async stop(): Promise<Transcript> {
    this.noteStop();
    await this.connection.cancel();
    return this.finished;
  }

  /**
   * The user's answer to one of this turn's permission requests, by its id: an option it offers, or null (dismissed).
   * False when none of the turn's requests waits with that id (answered already, or the turn is over).
   */
  answer(requestId: string, optionId: string | null): boolean {
    return !this.over && this.connection.answerPermission(requestId, optionId) === "answered";
  }

  /** Backpressure, as a LiveSession's: the agent's output is not read until resume(). */
  pause(): void {
    this.connection.pause();
  }

  resume(): void {
    this.connection.resume();
  }

  /** @internal The conversation's events for this turn. */
  accept(event: AcpEvent): void {
    this.translator.translate(event);
  }

  /** @internal A line of the agent's output refused during this turn. */
  acceptProblem(problem: Problem): void {
    this.session.acceptProblem(problem);
  }

  /** @internal The session hears of a stop before the agent's last words, so they are not shown as failures. */
  noteStop(): void {
    this.session.stopRequested("user");
  }

  /** @internal */
  async begin(blocks: PromptContent): Promise<void> {
    this.beganAt = Date.now();
    this.session.begin();
    this.feed("start", { command: this.command, dialect: ACP_DIALECT_NAME });
    const outcome = await this.connection.prompt(blocks);
    this.over = true;
    this.end(outcome);
    this.settle(this.session.toTranscript());
  }

  private end(outcome: AcpTurnOutcome): void {
    if (outcome.status === "canceled") this.noteStop();
    emitTurnEnd((type, payload) => this.feed(type, payload), outcome, Math.max(0, Date.now() - this.beganAt), this.translator.tokensUsed, this.translator.turnUsage());
  }

  private feed<T extends CliEventType>(type: T, payload: EventOfType<T>["payload"]): void {
    this.session.acceptEvent(this.envelope(type, payload), null);
  }

  private envelope<T extends CliEventType>(type: T, payload: EventOfType<T>["payload"]): CliStreamEvent {
    return { protocol: PROTOCOL_VERSION, type, sessionId: this.conversationId, timestamp: Date.now(), payload } as EventOfType<T>;
  }
}

/** The session-level news of an ACP event, in the session's own words; undefined for what belongs to a turn. */
function agentStateOf(event: AcpEvent): AgentStateUpdate | undefined {
  switch (event.type) {
    case "session_title":
      return { kind: "title", title: event.title };
    case "mode":
      return { kind: "mode", modeId: event.modeId };
    case "session_settings":
      return settingsStateOf(event.settings);
    case "commands":
      return { kind: "commands", commands: event.commands.map((command) => ({ name: command.name, description: command.description })) };
    case "usage":
      return { kind: "usage", used: event.usage.used, size: event.usage.size, cost: event.usage.cost === null ? null : { ...event.usage.cost } };
    default:
      return undefined;
  }
}

/** The session's settings as the agent state keeps them for every agent: each mode marked when it approves by itself. */
function settingsStateOf(settings: AgentSessionSettings): AgentStateUpdate {
  const { mode, model } = settings;
  return {
    kind: "settings",
    mode:
      mode === null
        ? null
        : {
            currentId: mode.current,
            offered: mode.offered.map(({ id, name, description, approvesItself }) => ({ id, name, description, approvesItself })),
            configId: mode.configId,
          },
    model: model === null ? null : { currentId: model.current, offered: model.offered.map(({ id, name, description }) => ({ id, name, description })), configId: model.configId },
    configOptions: settings.configOptions,
  };
}
