// Every conversation of this workspace: the sessions open in this window (live, each with its own agent and run) and
// the ones the store keeps. Creates, opens, lists, renames and deletes them, and knows the active one: the session
// the sidebar chat shows and commands such as Stop and Ask about Workspace act on.
import type { AgentIdentity, SessionId, SessionSummary, StoredSession } from "../protocol/sessions";
import type { Scheduler } from "../process/scheduler";
import { ChatSession, type SessionOwner, type SessionsHost } from "./chat-session";
import type { ConversationObserver } from "./conversation";

/** What the registry needs of the store (src/sessions/session-store.ts). */
export interface SessionStorePort {
  list(): SessionSummary[];
  load(id: SessionId): Promise<StoredSession | undefined>;
  /** Resolves once written (to whatever it says of the write). */
  save(session: StoredSession, summary: SessionSummary): Promise<unknown>;
  delete(id: SessionId): Promise<void>;
  flush(): Promise<void>;
  /** Deletes the oldest sessions past the store's bound, never one of `open`; returns the ids deleted. */
  evict(open: ReadonlySet<SessionId>): Promise<SessionId[]>;
}

export interface ChatSessionsOptions {
  store: SessionStorePort;
  host: SessionsHost;
  /** The agent a new session gets: the one the settings name now. */
  defaultAgent(): AgentIdentity;
  /**
   * The CLI the settings configure even while the built-in agent answers (`npm start` turns the built-in agent on):
   * the header offers it. Null when none is configured.
   */
  configuredAgent?(): AgentIdentity | null;
  /** How many sessions may run at once (`agentStream.sessions.maxRunning`). */
  maxRunning(): number;
  /** Tells the user something they should know now (a limit reached): a notification. */
  say(message: string): void;
  /** New Session with Agent…: the user picks one, or dismisses the pick. */
  pickAgent(): Thenable<AgentIdentity | undefined>;
  log(message: string): void;
  scheduler?: Scheduler;
  /** The clock of the sessions' times; Date.now unless a test gives its own. */
  now?: () => number;
}

export type SessionsChange = "list" | "active";

export class ChatSessions implements SessionOwner {
  private readonly live = new Map<SessionId, ChatSession>();
  private activeSession: ChatSession;
  private readonly listeners = new Set<(change: SessionsChange, session: ChatSession | undefined) => void>();
  /** Each watcher's observers, per live session, to let go of them when the watcher goes. */
  private readonly stopWatching = new Map<(session: ChatSession) => ConversationObserver, Map<SessionId, () => void>>();
  private disposed = false;
  /** The window closed and its sessions' last saves were asked for: a later change is not written, as nobody waits for it. */
  private closed = false;

  private constructor(private readonly options: ChatSessionsOptions) {
    this.activeSession = this.adopt(new ChatSession(this, { agent: undefined }));
  }

  /**
   * The sessions of this workspace, with `activeId` (the one active when the window closed) open and active when the
   * store still has it; else a new, empty session is active, and the stored ones wait in the list.
   */
  static async open(options: ChatSessionsOptions, activeId: SessionId | undefined): Promise<ChatSessions> {
    const sessions = new ChatSessions(options);
    if (activeId !== undefined) {
      const restored = await sessions.open(activeId);
      if (restored !== undefined) sessions.activate(restored);
    }
    return sessions;
  }

  get host(): SessionsHost {
    return this.options.host;
  }

  get scheduler(): Scheduler | undefined {
    return this.options.scheduler;
  }

  now(): number {
    return (this.options.now ?? Date.now)();
  }

  get active(): ChatSession {
    return this.activeSession;
  }

  /** A live session by id (open in this window), or undefined. */
  get(id: SessionId): ChatSession | undefined {
    return this.live.get(id);
  }

  /** Called with what changed: the list (a row's title, state or counts; a session added or gone), or the active session. */
  onDidChange(listener: (change: SessionsChange, session: ChatSession | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Observes every session, live now or opened later: `observe` makes each one's observer. */
  watch(observe: (session: ChatSession) => ConversationObserver): () => void {
    const stops = new Map<SessionId, () => void>();
    this.stopWatching.set(observe, stops);
    for (const session of this.live.values()) stops.set(session.id, session.conversation.observe(observe(session)));
    return () => {
      for (const stop of stops.values()) stop();
      this.stopWatching.delete(observe);
    };
  }

  /**
   * Every session of the list, newest first: the live ones as they are now, and the stored ones as the store's index
   * says. An empty session (nothing asked yet) is listed only while it is the active one.
   */
  list(): SessionSummary[] {
    const rows = new Map<SessionId, SessionSummary>();
    // A stored session that no window of ours runs now is not running, whatever the index said when it was written.
    for (const summary of this.options.store.list()) rows.set(summary.id, summary.status === "running" || summary.status === "waiting" ? { ...summary, status: "stopped" } : summary);
    for (const session of this.live.values()) {
      if (session.isEmpty && session !== this.activeSession) rows.delete(session.id);
      else rows.set(session.id, session.summary());
    }
    return [...rows.values()].sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** What was asked in a session, in order (a search reads them): a live one's turns, else its file's; [] when gone. */
  async promptsOf(id: SessionId): Promise<string[]> {
    const live = this.live.get(id);
    if (live !== undefined) return live.conversation.prompts();
    const stored = await this.options.store.load(id);
    return stored?.turns.map((turn) => turn.prompt) ?? [];
  }

  /** Sessions with a permission request waiting for the user, the one waiting longest first. */
  waiting(): ChatSession[] {
    return [...this.live.values()].filter((session) => session.status === "waiting");
  }

  /**
   * A new session, active from now on; the one active before stays as it is (running, if it runs). With no agent named,
   * it answers with the settings' agent as they are at its first prompt.
   */
  create(agent?: AgentIdentity): ChatSession {
    const previous = this.activeSession;
    const session = this.adopt(new ChatSession(this, { agent }));
    this.activate(session);
    // An empty session left behind would be a row of nothing: it goes (it never ran, and was never saved).
    if (previous.isEmpty && !previous.conversation.running) this.forget(previous);
    return session;
  }

  /** A session of the list, live from now on (read from the store if it is not yet); undefined when there is none. */
  async open(id: SessionId): Promise<ChatSession | undefined> {
    const live = this.live.get(id);
    if (live !== undefined) return live;
    const stored = await this.options.store.load(id);
    if (stored === undefined || this.disposed) return undefined;
    // Opened twice at once: the first one read wins.
    return this.live.get(id) ?? this.adopt(new ChatSession(this, { stored }));
  }

  /**
   * A session read from elsewhere (a CLI's own store) joins the list as ours: it is saved to our store from its first
   * change on, and the CLI's store is never written. Already live: that one.
   */
  adoptStored(stored: StoredSession): ChatSession {
    return this.live.get(stored.id) ?? this.adopt(new ChatSession(this, { stored }));
  }

  /** Tells every view of every live session that the restriction changed (trust granted, say). */
  refresh(): void {
    for (const session of this.live.values()) session.conversation.refresh();
  }

  /** Opens a session of the list and makes it the active one (the sidebar chat shows it). */
  async show(id: SessionId): Promise<ChatSession | undefined> {
    const session = await this.open(id);
    if (session !== undefined) this.activate(session);
    return session;
  }

  activate(session: ChatSession): void {
    if (!this.live.has(session.id) || session === this.activeSession) return;
    const previous = this.activeSession;
    this.activeSession = session;
    this.emit("active", session);
    if (previous.isEmpty && !previous.conversation.running) this.forget(previous);
  }

  async rename(id: SessionId, title: string): Promise<void> {
    (await this.open(id))?.rename(title);
  }

  /**
   * The user chose a session's mode or model (the composer's pickers, issue 25): kept with the session and given to its
   * agent from its next turn on. False when there is no such session or its agent does not offer that id.
   */
  async choose(id: SessionId, setting: "mode" | "model", value: string | undefined): Promise<boolean> {
    return (await this.open(id))?.choose(setting, value) ?? false;
  }

  /**
   * Deletes a session: its run stops, its agent ends and its file goes. When it was the active one, the newest other
   * session becomes active (a new one when there is none).
   */
  async delete(id: SessionId): Promise<void> {
    const session = this.live.get(id);
    if (session !== undefined) {
      this.live.delete(id);
      this.unwatch(session);
      await session.end();
    }
    await this.options.store.delete(id);
    if (this.activeSession.id === id) {
      const next = this.list().find((summary) => summary.id !== id && summary.source === "agent-stream");
      const opened = next === undefined ? undefined : await this.open(next.id);
      this.activeSession = opened ?? this.adopt(new ChatSession(this, { agent: undefined }));
      this.emit("active", this.activeSession);
    }
    this.emit("list", undefined);
  }

  /** Deletes every session of ours; an empty new session is active afterwards (none is read just to be deleted). */
  async deleteAll(): Promise<void> {
    const doomed = this.list().filter((summary) => summary.source === "agent-stream" && !(summary.id === this.activeSession.id && this.activeSession.isEmpty));
    if (!this.activeSession.isEmpty) this.activate(this.adopt(new ChatSession(this, { agent: undefined })));
    for (const summary of doomed) await this.delete(summary.id);
  }

  /** Keeps the store to its bound: the oldest sessions go first, never one open in this window. */
  async evict(): Promise<void> {
    const evicted = await this.options.store.evict(new Set(this.live.keys()));
    if (evicted.length > 0) {
      this.options.log(`${evicted.length} of the oldest sessions were deleted to keep the sessions' storage to agentStream.sessions.maxStorageMB`);
      this.emit("list", undefined);
    }
  }

  /** Window closing: every process ends now, what every session said is saved, and the store's writes finish. */
  async dispose(): Promise<void> {
    this.disposed = true;
    for (const session of this.live.values()) session.dispose();
    this.listeners.clear();
    // The sessions' last saves are asked for: a change after this one (a run's end, an answer that comes late) would
    // be written while, or after, the window's folder goes.
    this.closed = true;
    await this.options.store.flush();
  }

  // ---- SessionOwner: what a session asks of the registry ----

  save(session: StoredSession, summary: SessionSummary): void {
    if (this.closed) {
      this.options.log(`session ${session.id} changed after the window closed; not saved`);
      return;
    }
    void this.options.store.save(session, summary).catch((error: unknown) => this.options.log(`session ${session.id} could not be saved: ${String(error)}`));
  }

  changed(session: ChatSession): void {
    if (this.live.has(session.id)) this.emit("list", session);
  }

  mayStart(session: ChatSession): boolean {
    const limit = this.options.maxRunning();
    const running = [...this.live.values()].filter((other) => other !== session && other.conversation.running).length;
    if (running < limit) return true;
    this.options.say(
      `${running} sessions are running, the most Agent Stream runs at once (agentStream.sessions.maxRunning). Stop one, or wait for one to finish, then send again.`,
    );
    return false;
  }

  newSession(): void {
    this.create();
  }

  newSessionWithAgent(from?: ChatSession): void {
    // The header's offer names an agent: that one. Otherwise the user picks.
    const offered = from === undefined ? null : this.offeredAgent(from.agent);
    if (offered !== null) {
      this.create(offered);
      return;
    }
    void this.options.pickAgent().then((agent) => {
      if (agent !== undefined && !this.disposed) this.create(agent);
    });
  }

  defaultAgent(): AgentIdentity {
    return this.options.defaultAgent();
  }

  /** The settings changed: a session not yet asked anything now names their agent in its header. */
  settingsChanged(): void {
    for (const session of this.live.values()) session.conversation.refreshHeader();
  }

  otherAgentThan(agent: AgentIdentity): string | null {
    return this.offeredAgent(agent)?.displayName ?? null;
  }

  /**
   * The agent a session's header offers for a new session: the settings' agent when it is another than the session's,
   * or the configured CLI when the built-in agent answers in its place. Null: nothing to offer.
   */
  private offeredAgent(agent: AgentIdentity): AgentIdentity | null {
    const now = this.options.defaultAgent();
    if (!sameAgent(now, agent)) return now;
    const configured = this.options.configuredAgent?.() ?? null;
    return configured !== null && !sameAgent(configured, agent) ? configured : null;
  }

  private adopt(session: ChatSession): ChatSession {
    this.live.set(session.id, session);
    for (const [observe, stops] of this.stopWatching) stops.set(session.id, session.conversation.observe(observe(session)));
    this.emit("list", session);
    return session;
  }

  /** A session that was never saved leaves the window's sessions (nothing of it is stored). */
  private forget(session: ChatSession): void {
    this.live.delete(session.id);
    this.unwatch(session);
    session.dispose();
    this.emit("list", undefined);
  }

  private unwatch(session: ChatSession): void {
    for (const stops of this.stopWatching.values()) {
      stops.get(session.id)?.();
      stops.delete(session.id);
    }
  }

  private emit(change: SessionsChange, session: ChatSession | undefined): void {
    for (const listener of this.listeners) listener(change, session);
  }
}

function sameAgent(a: AgentIdentity, b: AgentIdentity): boolean {
  return a.profile === b.profile && a.command === b.command && JSON.stringify([a.args, a.extraArgs ?? []]) === JSON.stringify([b.args, b.extraArgs ?? []]);
}
