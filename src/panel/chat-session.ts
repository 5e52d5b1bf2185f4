// One conversation of the Sessions list: its id (minted once, never reused), title, agent (fixed for its life), the
// conversation of turns with the run in progress, and the agent's side of it (the CLI's conversation, the ACP
// agent's session) that a follow-up continues, also after a reload. It saves itself to the store as it changes.
import { randomUUID } from "node:crypto";
import { applyAgentState, emptyAgentState, optionValuesOf, type AgentState, type AgentStateUpdate, type ChoiceOutcome, type ChosenAgentSettings } from "../protocol/agent-state";
import type { AgentControls, CliConversation, SessionChange, SessionHeader, Turn } from "../protocol/messages";
import type { PromptPart } from "../protocol/prompt-parts";
import { contextUse, usageCost } from "../protocol/usage";
import type { AgentIdentity, AgentSessionRef, PendingPrompt, SessionId, SessionStatus, SessionSummary, StoredSession } from "../protocol/sessions";
import { STORED_SESSION_VERSION } from "../protocol/sessions";
import type { Scheduler } from "../process/scheduler";
import { titleFromPrompt } from "../common/session-title";
import { changesIn, statusOfLastTurn } from "../sessions/session-summary";
import { agentControls, rememberedChoiceOf } from "./agent-controls";
import { Conversation, type ConversationHost, type Run, type RunRequest } from "./conversation";

/** A run as the editor starts it for a session: the session's own agent, and the agent's session to continue. */
export interface SessionRunRequest extends RunRequest {
  sessionId: SessionId;
  agent: AgentIdentity;
  /** The ACP agent's session a follow-up continues (after a reload: loaded or resumed), or null. */
  acpSessionId: string | null;
  /** The ACP agent opened (or continued) its session: kept so that a follow-up after a reload continues it. */
  onAcpSession(acpSessionId: string): void;
  /** What the agent says about its session (its title, mode, commands, usage), as it says it. */
  onAgentState(update: AgentStateUpdate): void;
  /**
   * The mode and model the user chose for the session: the agent is started in them (a stream CLI at each turn).
   * `remembered`: none was chosen for this session, these are the agent's remembered: what it no longer offers is dropped.
   */
  chosen: ChosenAgentSettings & { remembered?: boolean };
}

/** What every session needs of the editor; the rest of a conversation's host is the session's own. */
export interface SessionsHost
  extends Pick<ConversationHost, "openExternal" | "writeClipboard" | "runEditorAction" | "logRejected" | "restriction" | "openDiff" | "workspaceFiles" | "openWorkspaceFile" | "findFiles" | "addSelection" | "droppedFiles"> {
  startRun(request: SessionRunRequest): Run;
  /**
   * Why this session's agent cannot take these parts' images, or null when it can; a promise when its agent is started
   * first to say (an ACP agent), as a run of `request` would start it.
   */
  imagesRefusal?(request: Omit<SessionRunRequest, "prompt" | "onChange"> & { parts: readonly PromptPart[] }): string | null | Promise<string | null>;
  /** The session ended (deleted): its warm agent, if any, stops. */
  endAgent(sessionId: SessionId): void;
  /**
   * The user chose the session's mode, model or a config option: given to its agent now where it can take it (a warm
   * ACP session, Claude mid-turn), else with the next prompt. Absent: always with the next prompt.
   */
  applyChoice?(sessionId: SessionId, agent: AgentIdentity, chosen: ChosenAgentSettings): Promise<ChoiceOutcome>;
  /** Whether a choice reaches this agent at once, or only with its next prompt. Absent: the next prompt. */
  choiceAppliesAt?(agent: AgentIdentity, running: boolean): AgentControls["appliesAt"];
  /** What the agent is known to offer before its first run (a stream CLI's modes, from its profile), or undefined. */
  agentStateBeforeRuns?(agent: AgentIdentity): AgentStateUpdate | undefined;
  /** The user's last choice for this agent (user scope), for its new sessions; never a mode that approves by itself. */
  rememberedChoice?(agent: AgentIdentity): ChosenAgentSettings;
  rememberChoice?(agent: AgentIdentity, chosen: ChosenAgentSettings): void;
}

/** What a session asks of the registry that holds it. */
export interface SessionOwner {
  readonly host: SessionsHost;
  /** Writes the session (the store serialises and bounds its writes). */
  save(session: StoredSession, summary: SessionSummary): void;
  /** The session's row changed (title, state, counts): the list shows it anew. */
  changed(session: ChatSession): void;
  mayStart(session: ChatSession): boolean;
  newSession(): void;
  /** A new session with the agent this session's header offers, or one the user picks. */
  newSessionWithAgent(from: ChatSession): void;
  /** The agent the settings name now: a new session's, until it is fixed. */
  defaultAgent(): AgentIdentity;
  /** When new sessions would get another agent than this one: its name, or null. */
  otherAgentThan(agent: AgentIdentity): string | null;
  readonly scheduler?: Scheduler;
  /** The clock of the sessions' times (created, last used). */
  now(): number;
}

/**
 * What a new session starts from: its agent (undefined: the settings' agent, fixed at its first prompt, so that a
 * session nobody has used yet follows the settings); a stored one brings everything it saved.
 */
export type SessionSeed = { agent: AgentIdentity | undefined } | { stored: StoredSession };

const UNTITLED = "New session";

export class ChatSession {
  readonly id: SessionId;
  /** The agent, once fixed: at creation when the user picked it, else at the first prompt (until then, the settings'). */
  private fixedAgent: AgentIdentity | undefined;
  readonly createdAt: number;
  readonly source: StoredSession["source"];
  readonly conversation: Conversation;
  private titleText: string;
  private titleSource: StoredSession["titleSource"];
  private updatedAt: number;
  private agentSession: AgentSessionRef;
  /** The turns as last saved, and the running turn as last saved (stopped, as a reload would leave it). */
  private savedTurns: Turn[];
  private savedRunning: Turn | null = null;
  /** Prompts sent while a turn runs, in order (the composer adds them; until then none). */
  private pending: PendingPrompt[];
  /** `+N −M` of the saved turns, worked out when they are saved rather than at every look at the list. */
  private changes: SessionSummary["changes"];
  private lastStatus: SessionStatus;
  private ended = false;
  /** What the agent said about the session, as it arrives; saved with the session's next save (a turn's, as it streams). */
  readonly agentState: AgentState;
  /** The mode, model and options the user chose for the session, kept with it; undefined: none yet (the agent's remembered). */
  private chosenSettings: ChosenAgentSettings | undefined;
  /** Why the agent refused the user's last choice, until the next one. */
  private refusal: string | null = null;
  /** The user's last choice, while it is on its way to the agent. */
  private applying: ChosenAgentSettings | undefined;

  constructor(
    private readonly owner: SessionOwner,
    seed: SessionSeed,
  ) {
    const now = owner.now();
    if ("stored" in seed) {
      const stored = seed.stored;
      this.id = stored.id;
      this.fixedAgent = stored.agent;
      this.createdAt = stored.createdAt;
      this.updatedAt = stored.updatedAt;
      this.source = stored.source;
      this.titleText = stored.title;
      this.titleSource = stored.titleSource;
      this.agentSession = stored.agentSession ?? { conversationId: null, spoke: false, acpSessionId: null };
      this.savedTurns = stored.turns;
      this.agentState = stored.agentState ?? emptyAgentState();
      this.chosenSettings = copyOfChoice(stored.chosen ?? {});
      this.pending = stored.pendingPrompts.map((prompt) => ({ ...prompt }));
    } else {
      this.id = randomUUID();
      this.fixedAgent = seed.agent;
      this.createdAt = now;
      this.updatedAt = now;
      this.source = "agent-stream";
      this.titleText = UNTITLED;
      this.titleSource = "prompt";
      this.agentSession = { conversationId: null, spoke: false, acpSessionId: null };
      this.savedTurns = [];
      this.agentState = emptyAgentState();
      // Claude's modes are known before its first init line: a mode can be picked for the first turn.
      const known = owner.host.agentStateBeforeRuns?.(this.agent);
      if (known !== undefined) applyAgentState(this.agentState, known);
      this.chosenSettings = undefined;
      this.pending = [];
    }
    const continued = this.agentSession.spoke && this.agentSession.conversationId !== null ? { agent: this.agent.displayName, id: this.agentSession.conversationId } : null;
    this.conversation = new Conversation(this.conversationHost(), this.savedTurns, continued, owner.scheduler);
    this.conversation.offerCommands(this.agentState.commands);
    this.conversation.offerControls(this.controls());
    this.conversation.restoreQueue(this.pending);
    this.changes = changesIn(this.savedTurns);
    this.lastStatus = this.status;
    this.conversation.observe({ turnStarted: (turn) => this.onTurnStarted(turn), turnChanged: (_turn, change) => this.onTurnChanged(change) });
  }

  /** Prompts waiting for the running turn to end, oldest first. */
  get pendingPrompts(): readonly PendingPrompt[] {
    return this.pending;
  }

  /** Who answers: fixed for the session's life once it has been asked something (or was created with an agent). */
  get agent(): AgentIdentity {
    return this.fixedAgent ?? this.owner.defaultAgent();
  }

  get title(): string {
    return this.titleText;
  }

  get status(): SessionStatus {
    return statusOfLastTurn(this.conversation.lastTurn, this.conversation.running);
  }

  /** Whether it has anything worth keeping: a session nobody has asked anything is not saved or listed. */
  get isEmpty(): boolean {
    return this.conversation.lastTurn === undefined;
  }

  /** The list's row: live figures (state, counts) with what was last saved. */
  summary(): SessionSummary {
    return {
      id: this.id,
      title: this.titleText,
      agent: { profile: this.agent.profile, displayName: this.agent.displayName },
      status: this.status,
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
      turnCount: this.conversation.turnCount,
      changes: this.changes,
      source: this.source,
      agentConversationId: this.agentSession.conversationId,
    };
  }

  header(): SessionHeader {
    const agent = this.agent;
    // An unused session follows the settings: only the configured CLI the built-in agent stands in for is offered.
    return { title: this.titleText, agent: agent.displayName, otherAgent: this.owner.otherAgentThan(agent) };
  }

  /** The user named it: that name stays, whatever the agent later calls it. */
  rename(title: string): void {
    const text = title.trim();
    if (text === "" || this.ended) return;
    this.titleText = titleFromPrompt(text);
    this.titleSource = "user";
    this.save();
    this.conversation.refreshHeader();
    this.owner.changed(this);
  }

  /**
   * The mode, model and options the user chose for the session (unset: the agent's mode that asks, and its own model);
   * until they choose, what they last chose for this agent (never a mode that approves by itself).
   */
  get chosen(): ChosenAgentSettings {
    return copyOfChoice(this.chosenSettings ?? this.rememberedChoice());
  }

  /**
   * What the user last chose for this agent, as read back from disk: its mode only if the agent is known to offer it
   * and it asks (the launch checks it again, and logs a drop); an ACP agent that has not said its modes yet checks it
   * as its session is set up.
   */
  private rememberedChoice(): ChosenAgentSettings {
    const remembered = this.owner.host.rememberedChoice?.(this.agent) ?? {};
    return this.agentState.mode === null ? remembered : rememberedChoiceOf(remembered, this.agentState);
  }

  /** What the header's pickers show. */
  controls(): AgentControls {
    const appliesAt = this.owner.host.choiceAppliesAt?.(this.agent, this.conversation.running) ?? "next-turn";
    return agentControls(this.agentState, this.chosen, { appliesAt, applying: this.applying !== undefined, refusal: this.refusal });
  }

  /**
   * The user chose the session's mode or model: kept with the session, remembered for the agent's new sessions, and
   * given to the agent now where it can take it (else from the next turn on). Undefined: back to the default, the mode
   * that asks. False, and nothing kept, for an id the agent does not offer (when it listed what it offers).
   */
  choose(setting: "mode" | "model", id: string | undefined): boolean {
    if (this.ended) return false;
    const offered = this.agentState[setting]?.offered ?? [];
    if (id !== undefined && offered.length > 0 && !offered.some((choice) => choice.id === id)) return false;
    const { [setting]: _previous, ...others } = this.chosen;
    this.changeChoice(id === undefined ? others : { ...others, [setting]: id });
    return true;
  }

  /** The same for one of the agent's other config options (ACP `session/set_config_option`): one of its values. */
  chooseOption(optionId: string, value: string | undefined): boolean {
    if (this.ended) return false;
    const option = this.agentState.configOptions.find((each) => each.id === optionId);
    if (option === undefined || (value !== undefined && !optionValuesOf(option).values.some((each) => each.value === value))) return false;
    const { config = {}, ...others } = this.chosen;
    const { [optionId]: _previous, ...otherOptions } = config;
    this.changeChoice({ ...others, config: value === undefined ? otherOptions : { ...otherOptions, [optionId]: value } });
    return true;
  }

  private changeChoice(next: ChosenAgentSettings): void {
    const before = this.chosen;
    this.chosenSettings = next;
    this.refusal = null;
    this.save();
    this.owner.host.rememberChoice?.(this.agent, rememberedChoiceOf(next, this.agentState));
    const applied = this.owner.host.applyChoice?.(this.id, this.agent, next);
    this.applying = applied === undefined ? undefined : next;
    this.conversation.offerControls(this.controls());
    void applied?.then((outcome) => {
      // A later choice has the last word.
      if (this.ended || this.chosenSettings !== next) return;
      this.applying = undefined;
      if (outcome.kind !== "refused") {
        this.conversation.offerControls(this.controls());
        return;
      }
      // Refused: the picker goes back to what it was, and says why; new sessions do not start in it either.
      this.chosenSettings = before;
      this.refusal = outcome.reason;
      this.save();
      this.owner.host.rememberChoice?.(this.agent, rememberedChoiceOf(before, this.agentState));
      this.conversation.offerControls(this.controls());
      void this.owner.host.applyChoice?.(this.id, this.agent, before);
    });
  }

  /** Deleted: stops whatever runs and ends its agent; it saves nothing from now on. */
  async end(): Promise<void> {
    this.ended = true;
    await this.conversation.end();
  }

  /** The window closes: its process ends now and what it said is saved (the running turn as stopped). */
  dispose(): void {
    this.conversation.dispose();
  }

  private onAgentState(update: AgentStateUpdate): void {
    if (this.ended) return;
    applyAgentState(this.agentState, update);
    if (update.kind === "commands") this.conversation.offerCommands(this.agentState.commands);
    // The header shows how full the context is, and the session's cost, as the agent says them, mid-turn too.
    if (update.kind === "usage") this.conversation.offerUsage(contextUse(update.used, update.size), usageCost(update.cost));
    if (update.kind === "mode" || update.kind === "model" || update.kind === "models" || update.kind === "settings") this.conversation.offerControls(this.controls());
    // The agent's own title names the session, unless the user named it.
    if (update.kind !== "title" || this.titleSource === "user") return;
    const title = titleFromPrompt(update.title);
    if (title === "" || title === this.titleText) return;
    this.titleText = title;
    this.titleSource = "agent";
    this.save();
    this.conversation.refreshHeader();
    this.owner.changed(this);
  }

  private onTurnStarted(turn: Turn): void {
    if (this.titleSource === "prompt" && this.titleText === UNTITLED && turn.origin === "prompt") {
      this.titleText = titleFromPrompt(turn.prompt);
      this.conversation.refreshHeader();
    }
    this.updatedAt = this.owner.now();
    this.noticeStatus(true);
  }

  private onTurnChanged(change: SessionChange): void {
    // When it was last used: a turn's start and end, not every save (the window's closing saves everything).
    if (change.kind === "done") this.updatedAt = this.owner.now();
    // Only what can change the row's state: a request appearing or answered, the turn's end.
    if (change.kind === "done" || ((change.kind === "block-added" || change.kind === "block-updated") && change.block.kind === "permission")) this.noticeStatus(false);
  }

  private noticeStatus(always: boolean): void {
    const status = this.status;
    if (!always && status === this.lastStatus) return;
    this.lastStatus = status;
    this.owner.changed(this);
  }

  private conversationHost(): ConversationHost {
    const host = this.owner.host;
    return {
      sessionId: this.id,
      header: () => this.header(),
      mayStart: () => this.owner.mayStart(this),
      startRun: (request) => host.startRun({ ...request, ...this.agentOfRun() }),
      openExternal: (url) => host.openExternal(url),
      writeClipboard: (text) => host.writeClipboard(text),
      runEditorAction: async (action, turn) => {
        await host.runEditorAction(action, turn);
        // "Use Built-in Agent" on a turn is a choice for this session: its retry, and what follows, are answered offline.
        if (action === "useBuiltinAgent") {
          this.fixedAgent = this.owner.defaultAgent();
          this.conversation.refreshHeader();
        }
      },
      logRejected: (reason) => host.logRejected(reason),
      restriction: () => host.restriction(),
      // Asked as a prompt is sent: from then on the session keeps this agent, whatever the settings say later.
      agentName: () => (this.fixedAgent ??= this.owner.defaultAgent()).displayName,
      persist: (turns, cli) => {
        this.savedTurns = [...turns];
        this.savedRunning = null;
        this.changes = changesIn(this.savedTurns);
        this.keepCliConversation(cli);
        this.save();
        this.noticeStatus(false);
        // No turn runs now: a choice for a CLI that takes it only mid-run waits for the next prompt, and says so.
        this.conversation.offerControls(this.controls());
      },
      persistQueue: (queued) => {
        this.pending = queued.map((item) => ({ ...item }));
        this.save();
      },
      persistRunning: (turn, cli) => {
        this.savedRunning = turn;
        // No running turn (it ended, and `persist` kept its conversation): nothing to say of the agent's conversation.
        if (turn === null) return;
        this.keepCliConversation(cli);
        this.save();
      },
      openDiff: (diff) => host.openDiff?.(diff),
      workspaceFiles: (paths) => host.workspaceFiles?.(paths) ?? Promise.resolve([]),
      openWorkspaceFile: (path, line) => host.openWorkspaceFile?.(path, line),
      findFiles: (query) => host.findFiles?.(query) ?? Promise.resolve([]),
      droppedFiles: (uris) => host.droppedFiles?.(uris) ?? Promise.resolve({ attachments: [], refused: [...uris] }),
      addSelection: () => host.addSelection?.(),
      imagesRefusal: (parts, conversation) => host.imagesRefusal?.({ ...this.agentOfRun(), parts, conversation }) ?? null,
      endConversation: () => host.endAgent(this.id),
      newSession: () => this.owner.newSession(),
      newSessionWithAgent: () => this.owner.newSessionWithAgent(this),
      chooseSetting: (setting, optionId, value) =>
        setting === "option" ? this.chooseOption(optionId ?? "", value ?? undefined) : this.choose(setting, value ?? undefined),
    };
  }

  /** What a run of this session is started with besides its prompt: its agent, and the agent's session to continue. */
  private agentOfRun(): Pick<SessionRunRequest, "sessionId" | "agent" | "acpSessionId" | "onAcpSession" | "onAgentState" | "chosen"> {
    return {
      sessionId: this.id,
      agent: this.agent,
      acpSessionId: this.agentSession.acpSessionId,
      onAcpSession: (acpSessionId) => {
        this.agentSession = { ...this.agentSession, acpSessionId };
      },
      onAgentState: (update) => this.onAgentState(update),
      chosen: { ...this.chosen, ...(this.chosenSettings === undefined ? { remembered: true } : {}) },
    };
  }

  private keepCliConversation(cli: CliConversation | null): void {
    this.agentSession = { ...this.agentSession, conversationId: cli?.id ?? null, spoke: cli !== null };
  }

  /** The session as its file holds it: the saved turns, then the running turn as a reload would leave it. */
  private stored(): StoredSession {
    const running = this.savedRunning;
    const turns = running === null || this.savedTurns.some((turn) => turn.id === running.id) ? this.savedTurns : [...this.savedTurns, running];
    return {
      version: STORED_SESSION_VERSION,
      id: this.id,
      title: this.titleText,
      titleSource: this.titleSource,
      agent: this.agent,
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
      turns,
      agentSession: this.agentSession,
      source: this.source,
      agentState: this.agentState,
      chosen: this.chosen,
      pendingPrompts: this.pending.map((prompt) => ({ ...prompt })),
    };
  }

  private save(): void {
    if (this.ended) return;
    const stored = this.stored();
    if (stored.turns.length === 0 && this.titleSource !== "user") return;
    this.owner.save(stored, { ...this.summary(), turnCount: stored.turns.length });
  }
}

function copyOfChoice(chosen: ChosenAgentSettings): ChosenAgentSettings {
  return { ...chosen, ...(chosen.config === undefined ? {} : { config: { ...chosen.config } }) };
}
