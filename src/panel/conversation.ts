// The chat as the host keeps it: turns of prompt and answer, the run in progress, and every view showing them.
// The host owns the transcript; views only display it. Plain TypeScript: the VS Code glue plugs in through the
// small interfaces below, and tests drive it with real fake CLIs.
import { randomUUID } from "node:crypto";
import {
  WebviewIntentSchema,
  type AgentControls,
  type Attachment,
  type CliConversation,
  type ErrorAction,
  type HostMessage,
  type PickedFile,
  type PromptContext,
  type SessionChange,
  type SessionHeader,
  type Turn,
  type WebviewIntent,
} from "../protocol/messages";
import type { PendingPrompt } from "../protocol/sessions";
import type { PermissionBlock, SteerBlock, ToolDiff, Transcript } from "../protocol/transcript";
import { realScheduler, type ScheduledCall, type Scheduler } from "../process/scheduler";
import type { Session } from "../session/session";
import { attachedContext } from "../common/attached-context";
import { isImage, type PromptPart } from "../protocol/prompt-parts";
import { MAX_IMAGE_BASE64_CHARS, MAX_IMAGES } from "../protocol/image-bytes";
import { applyChange } from "../common/turn-changes";
import { TurnParts } from "./turn-parts";
import { failingError } from "../common/turn-failure";
import { charsIn, withRequestsCancelled } from "../sessions/kept-turns";
import { LiveUsage } from "./live-usage";
import type { ContextUse, UsageCost } from "../protocol/usage";

/** A run in progress, as the conversation needs it (a LiveSession, or a replay). */
export interface Run {
  readonly session: Session;
  readonly finished: Promise<Transcript>;
  stop(): Promise<unknown>;
  kill(): void;
  /**
   * Only a run whose agent asks permission has it: the user's answer to one of its waiting requests, by the request's
   * id (one of its options, or null: dismissed, answered `cancelled`). False when none of its requests waits with that
   * id, as once the run is over.
   */
  answer?(requestId: string, optionId: string | null): boolean;
  /**
   * Only a run whose agent may take a message mid-turn has it: delivers `prompt` to the running turn, which shows
   * `shown`; false when it cannot now.
   */
  steer?(prompt: string, shown: string): boolean;
  /** How many of the last messages steered into the run its agent never took (known once it finished); they go again. */
  untakenSteers?(): number;
}

export interface RunRequest {
  prompt: string;
  /** What the user attached (files, folders, a selection, images), for the agent to take each as it can. */
  parts?: readonly PromptPart[];
  /** The CLI's conversation this prompt belongs to (a CLI that cannot continue one ignores it). */
  conversation: { id: string; continues: boolean };
  onChange(change: SessionChange): void;
}

/**
 * What a replay's run is started with: its changes, and word that the conversation's turn holds the transcript (built
 * from the changes), so the run keeps no second copy, as the panel's live runs keep none.
 */
export interface ReplayListener {
  onChange(change: SessionChange): void;
  readonly heldByListener: true;
}

export interface ConversationHost {
  /** The session this conversation is: every message to a view names it. */
  readonly sessionId: string;
  /** What the chat's header says: the session's title and agent. */
  header(): SessionHeader;
  /**
   * Whether a run may start now, beside the restriction (a limit on sessions running at once): when not, the host has
   * told the user why. Absent: always.
   */
  mayStart?(): boolean;
  /** Starts the agent for a prompt; throws only for programmer errors. */
  startRun(request: RunRequest): Run;
  /** Opens an http(s) URL the view asked for, after the conversation checked it. */
  openExternal(url: string): void;
  writeClipboard(text: string): void;
  /**
   * An error card's button that acts on the editor (settings, the log, a login terminal). Retry and New Session are
   * the conversation's own; after `useBuiltinAgent` has changed the setting, the conversation retries the turn.
   */
  runEditorAction(action: EditorAction, turn: Turn): Thenable<void> | void;
  /** Something a view sent that is not an intent: dropped, and said in the log. */
  logRejected(reason: string): void;
  /** Why no CLI may run now (Restricted Mode), or null. */
  restriction(): string | null;
  /** Who answers, for the turn header. */
  agentName(): string;
  /** Keeps finished turns, and the CLI conversation to continue, across a window reload (the extension host restarts). */
  persist(turns: readonly Turn[], cliConversation: CliConversation | null): void;
  /**
   * Keeps the running turn as a reload would leave it (stopped), or null once no turn runs. A reloaded window shows it
   * after the turns `persist` kept (unless they hold a turn with its id), and its next prompt continues
   * `cliConversation` when that is not null.
   */
  persistRunning(turn: Turn | null, cliConversation: CliConversation | null): void;
  /** A tool card's "Open Diff": shows the editor's diff of that file, before ↔ after. Absent: the view's button does nothing. */
  openDiff?(diff: ToolDiff): void;
  /** Of these paths as answers write them (absolute, or relative to a workspace folder), those that are workspace files. */
  workspaceFiles?(paths: readonly string[]): Promise<string[]>;
  /** Opens a workspace file at the line; anything that is not one is refused (and logged), never opened. */
  openWorkspaceFile?(path: string, line: number | null): void;
  /** Keeps the queued messages with the session (they survive a window reload). */
  persistQueue?(queued: readonly PendingPrompt[]): void;
  /** The composer's Add Selection: the editor's selection offered to this conversation (see offerAttachment). */
  addSelection?(): void;
  /**
   * Why the session's agent cannot take these parts' images, or null when it can: nothing is sent then. A promise when
   * the agent must be asked first (an ACP agent not started yet: it is started for `conversation`, the one the prompt
   * goes to).
   */
  imagesRefusal?(parts: readonly PromptPart[], conversation: RunRequest["conversation"]): string | null | Promise<string | null>;
  /** The @ picker: the workspace's files and folders that best match what was typed. */
  findFiles?(query: string): Promise<PickedFile[]>;
  /** Files and folders dropped on the composer, by their URIs: chips for the workspace ones, the rest refused. */
  droppedFiles?(uris: readonly string[]): Promise<{ attachments: Attachment[]; refused: string[] }>;
  /** The session is deleted: the agent's side of the conversation ends too (a warm ACP agent is stopped). */
  endConversation?(): void;
  /** New Session (a button, an error card's action): another session; this one stays as it is. */
  newSession?(): void;
  /** New Session with Agent…: the user picks the agent of a new session. */
  newSessionWithAgent?(): void;
  /**
   * A header picker: the session's mode, model or config option (`optionId`) set to a value, or null (the default).
   * False when the agent does not offer it.
   */
  chooseSetting?(setting: "mode" | "model" | "option", optionId: string | undefined, value: string | null): boolean;
}

/** The error actions the host carries out; the rest (retry, newSession) are the conversation's. */
export type EditorAction = Exclude<ErrorAction, "retry" | "newSession">;

/** The prompt as the agent receives it: the user's words, then the editor context they chose to send. */
export function promptWithContext(prompt: string, context: PromptContext | null): string {
  return context === null ? prompt : `${prompt}\n\n${context.text}`;
}

/** As many as one prompt may carry. */
const MAX_OFFERED_ATTACHMENTS = 20;
/** More waiting messages than anyone queues by hand (within what a stored session may keep, MAX_PENDING_PROMPTS). */
const MAX_QUEUED = 20;
/**
 * Image text the turns of a window keep for their Retry: one prompt's worth at most (five images of 5 MB). A newer
 * turn's images push out the oldest turns' ones; their files and selections are kept.
 */
const MAX_RETRY_IMAGE_CHARS = MAX_IMAGES * MAX_IMAGE_BASE64_CHARS;

/** How many turns survive a reload; older ones are dropped first. */
export const MAX_PERSISTED_TURNS = 50;

/** Watches the conversation as it happens (the status bar, notifications). Turns passed in are live: read only. */
export interface ConversationObserver {
  turnStarted?(turn: Turn): void;
  /** Every change of every turn, unbatched, after it was applied to the turn. */
  turnChanged?(turn: Turn, change: SessionChange): void;
}

export interface ConversationView {
  post(message: HostMessage): void;
}

/** Changes are sent at most once per frame; a fast model's hundreds of deltas a second become ~60 messages. */
const BATCH_MS = 16;

/**
 * While a turn runs, what it said so far is saved this often at most, as a reload would leave it (stopped), on its own
 * so the rest of the conversation is not written again each time. Saving only when the window closes is not enough: a
 * reload of a remote or web window ends the extension host after its storage has gone, and that last save never
 * arrives. A reload, or a window that dies, loses at most this much of an answer (of a huge one, its longer interval).
 */
export const SAVE_RUNNING_MS = 1000;

/**
 * Each save of a running turn writes all of it again. Past this much text a second, saves come less often in
 * proportion, so a huge answer costs about this much writing a second rather than its whole size each second.
 */
export const SAVED_CHARS_PER_SECOND = 1_000_000;

/** How long after a save of a running turn holding `chars` characters of text the next save may come. */
export function runningSaveDelayMs(chars: number): number {
  return Math.max(SAVE_RUNNING_MS, Math.ceil((chars / SAVED_CHARS_PER_SECOND) * 1000));
}

export class Conversation {
  private readonly turns: Turn[] = [];
  private readonly views = new Set<ConversationView>();
  /** Messages waiting for the running turn, first to go first. */
  private queued: PendingPrompt[] = [];
  /** The queue waits for the user's word: the last turn did not complete (or the window reloaded while one ran). */
  private held = false;
  /** The user's Send now stopped the turn: the first queued message goes next, however the turn ended. */
  private sendNextAfterStop = false;
  /** The agent's slash commands as it last said them. */
  private commands: { name: string; description: string }[] = [];
  /** Each turn's parts, for its Retry (within a bound of images). */
  private readonly turnParts = new TurnParts(MAX_RETRY_IMAGE_CHARS);
  /** What the header's pickers show, once the session has any. */
  private controls: AgentControls | undefined;
  /** Attachments offered while no view was attached, for the first one that is. */
  private readonly offered: Attachment[] = [];
  private current:
    | { turn: Turn; run: Run; startedAt: number; cliConversation: CliConversation | null; steered: PendingPrompt[] }
    | undefined;
  private pending: { turnId: number; changes: SessionChange[] } | undefined;
  private flushTimer: ScheduledCall | undefined;
  private saveTimer: ScheduledCall | undefined;
  private saveDelayMs = SAVE_RUNNING_MS;
  /** Characters of the finished turns as last saved: a running turn's save writes them again. */
  private savedChars = 0;
  private disposed = false;
  private nextTurnId: number;
  private readonly observers = new Set<ConversationObserver>();
  /** How full the agent's context is, as it said mid-turn: for the header before the turn's end says it. */
  private readonly liveUsage: LiveUsage;
  /** Set once a run of an agent CLI said something: the next prompt to the same agent continues that conversation. */
  private cliConversation: CliConversation | null;
  /** The id of the next new CLI conversation, minted again once a prompt started it (see nextConversation). */
  private newConversationId = randomUUID();

  constructor(
    private readonly host: ConversationHost,
    restored: readonly Turn[] = [],
    restoredCliConversation: CliConversation | null = null,
    /** The clock of the batching of changes and of the saves of a running turn. */
    private readonly scheduler: Scheduler = realScheduler,
  ) {
    this.cliConversation = restored.length > 0 ? restoredCliConversation : null;
    // No restored turn runs: a request one shows waiting (saved by an earlier version) waits for nobody.
    for (const turn of restored.slice(-MAX_PERSISTED_TURNS)) this.turns.push(withRequestsCancelled(copyTurn(turn)));
    this.nextTurnId = this.turns.reduce((max, t) => Math.max(max, t.id + 1), 0);
    this.savedChars = charsIn(this.turns);
    this.liveUsage = new LiveUsage((now) => this.broadcast({ type: "context", sessionId: this.host.sessionId, ...now }), scheduler, BATCH_MS);
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  get activeRun(): Run | undefined {
    return this.current?.run;
  }

  /** What was asked, turn by turn. */
  prompts(): string[] {
    return this.turns.map((turn) => turn.prompt);
  }

  get turnCount(): number {
    return this.turns.length;
  }

  get lastTurn(): Turn | undefined {
    return this.turns.at(-1);
  }

  /** For the status bar and notifications; returns the way to stop observing. */
  observe(observer: ConversationObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /** A view joins (at its `ready`, or moved here from another session): a snapshot first, then the changes. */
  attach(view: ConversationView): void {
    // Snapshot first (it flushes what is pending to the other views), then this view joins the stream.
    const snapshot = this.snapshot();
    this.views.add(view);
    view.post(snapshot);
    if (this.commands.length > 0) view.post({ type: "commands", sessionId: this.host.sessionId, commands: this.commands });
    if (this.controls !== undefined) view.post({ type: "controls", sessionId: this.host.sessionId, controls: this.controls });
    const usageNow = this.liveUsage.current;
    if (usageNow !== null) view.post({ type: "context", sessionId: this.host.sessionId, ...usageNow });
    if (this.queued.length > 0) view.post(this.queueMessage());
    // An attachment offered while no view showed the session (the chat was still opening) goes to the first one.
    for (const attachment of this.offered.splice(0)) view.post({ type: "attach", sessionId: this.host.sessionId, attachment });
  }

  /**
   * The messages a stored session kept waiting: a reload ended the turn they waited for, so they wait for the user's
   * word, as after a failed turn.
   */
  restoreQueue(queued: readonly PendingPrompt[]): void {
    this.queued = queued.slice(0, MAX_QUEUED).map((item) => ({ ...item }));
    this.held = this.queued.length > 0;
  }

  private enqueue(prompt: string, context: PromptContext | null, parts: readonly PromptPart[]): void {
    const text = prompt.trim();
    if (text === "") return;
    if (this.queued.length >= MAX_QUEUED) {
      this.host.logRejected(`a message arrived while ${MAX_QUEUED} already wait for the running turn; ignored`);
      return;
    }
    this.queued.push(pendingPrompt(text, context, parts));
    this.queueChanged();
  }

  private onQueued(action: "remove" | "up" | "down" | "sendNow", id: string): void {
    const index = this.queued.findIndex((item) => item.id === id);
    if (index === -1) {
      this.host.logRejected(`a change to a queued message that no longer waits (${describe(id)})`);
      return;
    }
    const [item] = this.queued.splice(index, 1);
    if (action === "up") this.queued.splice(Math.max(0, index - 1), 0, item);
    if (action === "down") this.queued.splice(Math.min(this.queued.length, index + 1), 0, item);
    if (action === "sendNow") this.sendNow(item);
    this.queueChanged();
  }

  /**
   * A message for the running turn: the agent takes it as it works where it can (Claude Code, pi); otherwise the turn
   * stops in band and this one goes next. With no turn running it is simply sent.
   */
  private sendNow(item: PendingPrompt): void {
    // An image cannot ride on a steered line: a message with images goes next, after the stop.
    const steerable = (item.images ?? []).length === 0;
    if (steerable && this.current?.run.steer?.(promptWithContext(item.prompt, item.context), item.prompt) === true) {
      this.current.steered.push(item);
      return;
    }
    this.queued.unshift(item);
    this.held = false;
    if (this.current === undefined) this.sendQueued();
    else {
      this.sendNextAfterStop = true;
      void this.stop();
    }
  }

  /** The turn ended: the next queued message goes if it completed (or Send now stopped it); else the queue is held. */
  private afterTurn(turn: Turn): void {
    const goesOn = this.queueGoesOn(turn);
    this.sendNextAfterStop = false;
    if (this.queued.length === 0 || this.held) return;
    if (goesOn) this.sendQueued();
    else this.held = true;
    this.showQueue();
  }

  /** Whether the queue's first message goes once `turn` has ended, rather than waiting for the user's word. */
  private queueGoesOn(turn: Turn): boolean {
    return !this.held && (this.sendNextAfterStop || turn.status === "completed");
  }

  private sendQueued(): void {
    const next = this.queued[0];
    if (next === undefined || this.current !== undefined) return;
    if (!this.send(next.prompt, next.context, partsOf(next))) {
      this.held = true;
      return;
    }
    this.queued.shift();
    // Kept at once, whoever sent it (a turn's end, Send queued): a reload must not find it waiting and send it again.
    this.host.persistQueue?.(this.queued);
  }

  private queueChanged(): void {
    this.host.persistQueue?.(this.queued);
    this.showQueue();
  }

  private showQueue(): void {
    this.broadcast(this.queueMessage());
  }

  private queueMessage(): Extract<HostMessage, { type: "queue" }> {
    return {
      type: "queue",
      sessionId: this.host.sessionId,
      items: this.queued.map((item) => ({ id: item.id, prompt: item.prompt, summary: item.context?.summary ?? null })),
      held: this.held && this.queued.length > 0,
    };
  }

  /** The slash commands the agent takes, for the composer to complete after `/`: every view now and each that joins. */
  offerCommands(commands: readonly { name: string; description: string }[]): void {
    this.commands = commands.map((command) => ({ ...command }));
    this.broadcast({ type: "commands", sessionId: this.host.sessionId, commands: this.commands });
  }

  /** The header's pickers as they are now (the agent said, or the user chose): every view now and each that joins. */
  offerControls(controls: AgentControls): void {
    // Nothing to pick, and nothing shown: views need not hear of it.
    if (this.controls === undefined && controls.mode === null && controls.model === null && controls.options.length === 0) return;
    this.controls = controls;
    this.broadcast({ type: "controls", sessionId: this.host.sessionId, controls });
  }

  /**
   * The agent said how full its context is, or the session's cost so far, or both (ACP `usage_update`): every view's
   * header, at most once a frame.
   */
  offerUsage(context: ContextUse | undefined, cost: UsageCost | null): void {
    if (!this.disposed) this.liveUsage.update(context, cost);
  }

  /**
   * "Add Selection to Chat": a chip in the composer of each view showing the session, or of the first one to show it
   * (the chat may still be opening).
   */
  offerAttachment(attachment: Attachment): void {
    if (this.views.size === 0) {
      if (this.offered.length < MAX_OFFERED_ATTACHMENTS) this.offered.push(attachment);
      return;
    }
    this.broadcast({ type: "attach", sessionId: this.host.sessionId, attachment });
  }

  private chooseSetting(setting: "mode" | "model" | "option", optionId: string | undefined, value: string | null): void {
    if ((setting === "option") !== (optionId !== undefined)) {
      this.host.logRejected(`a choice of ${setting} ${optionId === undefined ? "without" : "with"} an option id; ignored`);
      return;
    }
    if (this.host.chooseSetting?.(setting, optionId, value) === false) {
      this.host.logRejected(`a choice the agent does not offer: ${setting} ${describe(optionId ?? "")} ${describe(value ?? "")}`);
      // The view's picker shows what the agent offers again.
      if (this.controls !== undefined) this.broadcast({ type: "controls", sessionId: this.host.sessionId, controls: this.controls });
    }
  }

  /** This is for when a view goes away, or moves to another session. */
  detach(view: ConversationView): void {
    this.views.delete(view);
  }

  /** Everything a view sends comes through here, checked against the intent schema. */
  handleIntent(view: ConversationView, raw: unknown): void {
    const parsed = WebviewIntentSchema.safeParse(raw);
    if (!parsed.success) {
      this.host.logRejected(`dropped a message from the chat view that is not an intent: ${describe(raw)}`);
      return;
    }
    this.dispatch(view, parsed.data);
  }

  /**
   * Starts a run for a prompt, with the editor context the user chose; false when one is running already or runs
   * are not allowed here.
   */
  send(prompt: string, context: PromptContext | null = null, parts?: readonly PromptPart[]): boolean {
    const text = prompt.trim();
    if (text.length === 0 || this.current !== undefined || this.host.restriction() !== null) return false;
    if (this.host.mayStart?.() === false) return false;
    const agent = this.host.agentName();
    const conversation = this.nextConversation();
    if (!conversation.continues) this.newConversationId = randomUUID();
    const turn = this.beginTurn({ prompt: text, agent, context, origin: "prompt" });
    if (parts !== undefined) this.turnParts.keep(turn.id, parts);
    // Typed parts go as they are, for each agent to take its way; a context without them (the editor's) goes as text.
    const request = parts === undefined ? { prompt: promptWithContext(text, context) } : { prompt: text, parts };
    const run = this.host.startRun({ ...request, conversation, onChange: (change) => this.onChange(turn, change) });
    this.track(turn, run, { agent, id: conversation.id });
    return true;
  }

  /**
   * The CLI conversation the next prompt goes to: the running turn's or the last one's, to continue, else a new one,
   * whose id stays the same until a prompt starts it (an agent started ahead for it is the one that prompt finds).
   */
  private nextConversation(): RunRequest["conversation"] {
    const agent = this.host.agentName();
    const continued = [this.current?.cliConversation, this.cliConversation].find((known) => known?.agent === agent) ?? null;
    return { id: continued?.id ?? this.newConversationId, continues: continued !== null };
  }

  /** An error card's or a notification's button, for the turn it belongs to. */
  async runErrorAction(action: ErrorAction, turn: Turn): Promise<void> {
    switch (action) {
      case "retry":
        await this.retry(turn);
        return;
      case "newSession":
        this.host.newSession?.();
        return;
      case "useBuiltinAgent":
        // The setting first, then the same prompt again, now answered by the built-in agent.
        await this.host.runEditorAction(action, turn);
        await this.retry(turn);
        return;
      default:
        await this.host.runEditorAction(action, turn);
    }
  }

  /**
   * Asks the same again: stops the turn's run if it is still going, then sends its prompt and context anew, with every
   * part it was sent with (a turn from before a reload: its context, as text).
   */
  async retry(turn: Turn): Promise<boolean> {
    await this.stop();
    const kept = this.turnParts.of(turn.id);
    if (kept?.imagesDropped === true) this.host.logRejected("retried without its images: newer turns' images took their place");
    let parts = kept?.parts;
    // Another agent may answer the retry (Use Built-in Agent): one that takes no images gets the rest.
    const refusal = parts?.some(isImage) === true ? ((await this.host.imagesRefusal?.(parts, this.nextConversation())) ?? null) : null;
    if (refusal !== null) {
      this.host.logRejected(`retried without its images: ${refusal}`);
      parts = parts?.filter((part) => !isImage(part));
    }
    return this.send(turn.prompt, turn.context, parts === undefined || parts.length === 0 ? undefined : parts);
  }

  /**
   * Shows a recorded stream as a turn. Nothing runs, so Restricted Mode allows it; false while a run is in
   * progress (one turn streams at a time).
   */
  replay(title: string, start: (listener: ReplayListener) => Run): boolean {
    if (this.current !== undefined) return false;
    const turn = this.beginTurn({ prompt: title, agent: "Recorded stream", context: null, origin: "replay" });
    this.track(turn, start({ onChange: (change) => this.onChange(turn, change), heldByListener: true }));
    return true;
  }

  private beginTurn(start: Pick<Turn, "prompt" | "agent" | "context" | "origin">): Turn {
    this.flush();
    const turn: Turn = { id: this.nextTurnId++, ...start, state: "idle", blocks: [], problems: [], done: null, status: null };
    this.turns.push(turn);
    this.broadcast({ type: "turn-started", sessionId: this.host.sessionId, turn: copyTurn(turn) });
    for (const observer of this.observers) observer.turnStarted?.(turn);
    return turn;
  }

  private track(turn: Turn, run: Run, cliConversation: CliConversation | null = null): void {
    this.current = { turn, run, startedAt: Date.now(), cliConversation, steered: [] };
    this.liveUsage.turnStarted();
    this.saveDelayMs = SAVE_RUNNING_MS;
    // The prompt is kept at once: a reload right after sending still shows what was asked.
    this.saveRunning();
    void run.finished.then(() => this.onFinished(turn, cliConversation));
  }

  /** The user's Stop. Resolves once the run has ended. */
  async stop(): Promise<void> {
    const current = this.current;
    if (current === undefined) return;
    await current.run.stop();
  }

  /**
   * The session is deleted: whatever runs stops, the agent's side of the conversation ends, and every view lets go.
   * Nothing is saved any more.
   */
  async end(): Promise<void> {
    await this.stop();
    this.disposed = true;
    this.host.endConversation?.();
    this.cancelSave();
    this.flushTimer?.cancel();
    this.flushTimer = undefined;
    this.liveUsage.dispose();
    this.views.clear();
    this.observers.clear();
  }

  /** Window closing: end every process now, without grace periods, and keep what was said. */
  dispose(): void {
    this.disposed = true;
    const current = this.current;
    if (current !== undefined) {
      current.run.kill();
      // The save below keeps the turn as stopped whatever happens next; this says so to the save made when the killed
      // run ends, should the extension host still be there and the run report no end of its own.
      current.turn.status = "canceled";
      current.turn.state = "canceled";
    }
    this.persistTurns();
    this.flushTimer?.cancel();
    this.flushTimer = undefined;
    this.liveUsage.dispose();
    this.views.clear();
    this.observers.clear();
  }

  snapshot(): HostMessage {
    this.flush();
    return { type: "snapshot", sessionId: this.host.sessionId, header: this.host.header(), turns: this.turns.map(copyTurn), restriction: this.host.restriction() };
  }

  /** Tells every view the header changed (a rename, the agent's title). */
  refreshHeader(): void {
    this.broadcast({ type: "header", sessionId: this.host.sessionId, header: this.host.header() });
  }

  /** Tells every view the restriction changed (trust granted, say). */
  refresh(): void {
    this.broadcast(this.snapshot());
  }

  private dispatch(view: ConversationView, intent: WebviewIntent): void {
    switch (intent.type) {
      case "ready":
        this.attach(view);
        return;
      case "send":
      case "sendNow": {
        const parts: PromptPart[] = [...(intent.attachments ?? []), ...(intent.images ?? [])];
        // An agent that takes no images gets none of this prompt: the view says why and keeps the draft. An agent that
        // has not said yet is asked first (started ahead of its first prompt).
        const refusal = parts.some(isImage) ? (this.host.imagesRefusal?.(parts, this.nextConversation()) ?? null) : null;
        if (refusal instanceof Promise) {
          void refusal.then(
            (known) => this.takePrompt(view, intent, parts, known),
            () => this.takePrompt(view, intent, parts, null),
          );
        } else this.takePrompt(view, intent, parts, refusal);
        return;
      }
      case "queued":
        this.onQueued(intent.action, intent.id);
        return;
      case "resumeQueue":
        this.held = false;
        this.sendQueued();
        this.showQueue();
        return;
      case "addSelection":
        this.host.addSelection?.();
        return;
      case "findFiles": {
        const { requestId } = intent;
        // Answered to the view that asked; an answer to an older request is the page's to drop.
        void (this.host.findFiles?.(intent.query) ?? Promise.resolve([])).then(
          (files) => view.post({ type: "filesFound", sessionId: this.host.sessionId, requestId, files }),
          () => view.post({ type: "filesFound", sessionId: this.host.sessionId, requestId, files: [] }),
        );
        return;
      }
      case "dropFiles": {
        // Answered to the view that was dropped on: its composer gets the chips.
        const refuseAll = { attachments: [], refused: intent.uris };
        void (this.host.droppedFiles?.(intent.uris) ?? Promise.resolve(refuseAll)).then(
          (dropped) => view.post({ type: "filesDropped", sessionId: this.host.sessionId, ...dropped }),
          () => view.post({ type: "filesDropped", sessionId: this.host.sessionId, ...refuseAll }),
        );
        return;
      }
      case "stop":
        void this.stop();
        return;
      case "newSession":
        this.host.newSession?.();
        return;
      case "newSessionWithAgent":
        this.host.newSessionWithAgent?.();
        return;
      case "openLink": {
        const url = checkedLink(intent.url);
        if (url === null) this.host.logRejected(`refused to open a link that is not http(s): ${describe(intent.url)}`);
        else this.host.openExternal(url);
        return;
      }
      case "copy":
        this.host.writeClipboard(intent.text);
        return;
      case "errorAction": {
        const turn = this.turns.find((t) => t.id === intent.turnId);
        if (turn === undefined) this.host.logRejected(`error action for a turn that no longer exists (${intent.turnId})`);
        else void this.runErrorAction(intent.action, turn);
        return;
      }
      case "openDiff":
        this.openDiff(intent);
        return;
      case "checkPaths": {
        const checked = intent.paths;
        // Answered to the view that asked: its page keeps what it learnt.
        void (this.host.workspaceFiles?.(checked) ?? Promise.resolve([])).then(
          (found) => view.post({ type: "pathsChecked", sessionId: this.host.sessionId, checked, found }),
          () => view.post({ type: "pathsChecked", sessionId: this.host.sessionId, checked, found: [] }),
        );
        return;
      }
      case "openPath":
        this.host.openWorkspaceFile?.(intent.path, intent.line);
        return;
      case "answerPermission":
        this.answerPermission(intent.turnId, intent.requestId, intent.optionId);
        return;
      case "chooseSetting":
        this.chooseSetting(intent.setting, intent.optionId, intent.value);
        return;
    }
  }

  /** A prompt from the composer, once its agent's refusal of its images (or null) is known: sent, queued or refused. */
  private takePrompt(view: ConversationView, intent: Extract<WebviewIntent, { type: "send" | "sendNow" }>, parts: PromptPart[], refusal: string | null): void {
    if (this.disposed) return;
    if (refusal !== null) {
      view.post({ type: "promptRefused", sessionId: this.host.sessionId, reason: refusal });
      return;
    }
    const context = attachedContext(parts);
    const prompt = intent.prompt.trim();
    if (this.current === undefined) {
      if (!this.send(prompt, context, parts.length === 0 ? undefined : parts)) this.host.logRejected("a prompt arrived while runs are not allowed; ignored");
    } else if (intent.type === "sendNow") {
      // While a turn runs, Send now goes into it (or stops it and goes next).
      this.sendNow(pendingPrompt(prompt, context, parts));
      this.queueChanged();
    }
    // While a turn runs, a message waits its turn: sent when this one completes.
    else this.enqueue(prompt, context, parts);
  }

  /** Opens a diff only from a tool card the conversation holds: the view names it, the host's copy supplies it. */
  private openDiff(intent: Extract<WebviewIntent, { type: "openDiff" }>): void {
    const block = this.turns.find((t) => t.id === intent.turnId)?.blocks[intent.blockIndex];
    const diff = block?.kind === "tool" ? block.diffs[intent.diffIndex] : undefined;
    if (diff === undefined) {
      this.host.logRejected(`Open Diff for a diff that does not exist (turn ${intent.turnId}, block ${intent.blockIndex}, diff ${intent.diffIndex})`);
      return;
    }
    this.host.openDiff?.(diff);
  }

  /**
   * The user's answer to a permission request, from its card or its notification, named by the request's id: passed
   * on only to the run that asked, while the request waits, and only with one of the options the agent offered (null:
   * dismissed, answered `cancelled`). False when it was not passed on (and the log says why): never a throw, never a
   * guess at another request.
   */
  answerPermission(turnId: number, requestId: string, optionId: string | null): boolean {
    const turn = this.turns.find((t) => t.id === turnId);
    const block = turn?.blocks.find((b): b is PermissionBlock => b.kind === "permission" && b.requestId === requestId);
    if (block === undefined || block.decision !== null) {
      this.host.logRejected(`an answer for a permission request that is not waiting (turn ${turnId}, request ${describe(requestId)})`);
      return false;
    }
    if (optionId !== null && !block.options.some((option) => option.id === optionId)) {
      this.host.logRejected(`an answer that is not one of the agent's options: ${describe(optionId)}`);
      return false;
    }
    // The return channel is the run's: a turn that no longer runs has nobody to answer.
    const current = this.current;
    const run = current !== undefined && current.turn === turn ? current.run : undefined;
    if (run?.answer?.(requestId, optionId) !== true) {
      this.host.logRejected(`an answer to a permission request that no run waits for (turn ${turnId}, request ${describe(requestId)}) was dropped`);
      return false;
    }
    return true;
  }

  private onChange(turn: Turn, change: SessionChange): void {
    applyChange(turn, change);
    for (const observer of this.observers) observer.turnChanged?.(turn, change);
    if (this.pending !== undefined && this.pending.turnId !== turn.id) this.flush();
    this.pending ??= { turnId: turn.id, changes: [] };
    this.pending.changes.push(change);
    if (change.kind === "done") this.flush();
    else this.flushTimer ??= this.scheduler.after(BATCH_MS, () => this.flush());
    if (this.current?.turn === turn && change.kind !== "done" && !this.disposed) this.saveTimer ??= this.scheduler.after(this.saveDelayMs, () => this.saveRunning());
  }

  private onFinished(turn: Turn, cliConversation: CliConversation | null): void {
    if (this.current?.turn === turn) {
      const untaken = this.requeueUntaken(this.current);
      this.current = undefined;
      this.markUntaken(turn, untaken, this.queueGoesOn(turn) ? "sent next" : "queued");
    }
    if (cliConversation !== null && this.turns.includes(turn) && cliSpoke(turn)) this.cliConversation = cliConversation;
    // The agent no longer has the conversation (a `--resume` of a session it lost): the next prompt starts a new one,
    // with this session's history still shown above, rather than failing the same way again.
    if (turn.status === "failed" && failingError(turn)?.code === "SESSION_NOT_FOUND") this.cliConversation = null;
    this.flush();
    this.liveUsage.turnEnded(turn.done?.usage ?? null);
    this.persistTurns();
    this.afterTurn(turn);
  }

  /** The messages steered into a run its agent never took go first in the queue, in the order they were sent; how many. */
  private requeueUntaken({ run, steered }: NonNullable<Conversation["current"]>): number {
    const untaken = Math.min(run.untakenSteers?.() ?? 0, steered.length);
    if (untaken === 0) return 0;
    this.queued.unshift(...steered.slice(steered.length - untaken));
    this.queueChanged();
    return untaken;
  }

  /**
   * The turn's last `count` steered messages say the agent never took them, and where they went: the turn must not
   * read as if it had, when the same words come again as the next message (or wait in the queue).
   */
  private markUntaken(turn: Turn, count: number, where: NonNullable<SteerBlock["untaken"]>): void {
    const steers = turn.blocks.flatMap((block, index) => (block.kind === "steer" ? [{ block, index }] : []));
    for (const { block, index } of steers.slice(steers.length - count)) {
      this.onChange(turn, { kind: "block-updated", index, block: { ...block, untaken: where } });
    }
  }

  /** What survives a reload: the newest turns, as copies the host may keep; one still running (the window closes), stopped. */
  private persistTurns(): void {
    this.cancelSave();
    const current = this.current;
    const kept = this.turns
      .slice(-MAX_PERSISTED_TURNS)
      .map((turn) => (turn === current?.turn ? stoppedByTheWindow(turn, Date.now() - current.startedAt) : copyTurn(turn)));
    this.host.persist(kept, this.conversationToContinue());
    this.host.persistRunning(null, null);
    this.savedChars = charsIn(kept);
  }

  /** The running turn so far, as a reload would leave it. */
  private saveRunning(): void {
    this.cancelSave();
    const current = this.current;
    if (current === undefined) return;
    const saved = stoppedByTheWindow(current.turn, Date.now() - current.startedAt);
    this.host.persistRunning(saved, this.conversationToContinue());
    // Each save writes the session's whole file again: the turns kept before, and the running turn.
    this.saveDelayMs = runningSaveDelayMs(this.savedChars + charsIn(saved));
  }

  /**
   * What a follow-up after a reload continues: the running turn's CLI conversation once the CLI has said something in
   * it (it holds the prompt by then), else the last finished one's.
   */
  private conversationToContinue(): CliConversation | null {
    const current = this.current;
    if (current === undefined || current.cliConversation === null || !cliSpoke(current.turn)) return this.cliConversation;
    return current.cliConversation;
  }

  private cancelSave(): void {
    this.saveTimer?.cancel();
    this.saveTimer = undefined;
  }

  private flush(): void {
    this.flushTimer?.cancel();
    this.flushTimer = undefined;
    const pending = this.pending;
    this.pending = undefined;
    if (pending !== undefined && pending.changes.length > 0) this.broadcast({ type: "changes", sessionId: this.host.sessionId, ...pending });
  }

  private broadcast(message: HostMessage): void {
    for (const view of this.views) view.post(message);
  }
}

/**
 * Whether the CLI itself wrote something in this turn (more than an error we made up for a CLI that crashed or never
 * started): then it holds a conversation a follow-up can continue.
 */
function cliSpoke(turn: Turn): boolean {
  return turn.blocks.some((block) => block.kind !== "error") || (turn.done !== null && !turn.done.synthesized);
}

/** A message to wait for the running turn, with everything the user attached: kept with the session, images too. */
function pendingPrompt(prompt: string, context: PromptContext | null, parts: readonly PromptPart[]): PendingPrompt {
  const attachments = parts.filter((part): part is Attachment => !isImage(part));
  const images = parts.filter(isImage);
  return {
    id: randomUUID(),
    prompt,
    context,
    createdAt: Date.now(),
    ...(attachments.length === 0 ? {} : { attachments }),
    ...(images.length === 0 ? {} : { images }),
  };
}

/** A waiting message's parts as they are sent (a message kept before parts were, or without any: none). */
function partsOf(item: PendingPrompt): readonly PromptPart[] | undefined {
  const parts = [...(item.attachments ?? []), ...(item.images ?? [])];
  return parts.length === 0 ? undefined : parts;
}

/** Only absolute http(s) URLs leave the editor; everything else (javascript:, command:, vscode:, file:) is refused. */
export function checkedLink(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username !== "" || url.password !== "") return null;
  return url.toString();
}

function copyTurn(turn: Turn): Turn {
  return { ...turn, blocks: turn.blocks.map((b) => ({ ...b })), problems: [...turn.problems] };
}

/**
 * A running turn as a reloaded window shows it: stopped, after what it had said, with an end of our making (there is
 * no exit code: the process still ran when this was saved), and any request still waiting answered `cancelled`, as
 * the agent is answered when the window goes.
 */
function stoppedByTheWindow(turn: Turn, durationMs: number): Turn {
  const toolsUsed = [...new Set(turn.blocks.flatMap((block) => (block.kind === "tool" ? [block.tool] : [])))];
  const done = { exitCode: -1, durationMs, toolsUsed, tokensUsed: null, success: false, synthesized: true, usage: null };
  return { ...withRequestsCancelled(copyTurn(turn)), state: "canceled", status: "canceled", done };
}

function describe(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 200 ? text.slice(0, 197) + "..." : text;
}
