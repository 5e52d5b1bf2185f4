// One conversation with an ACP agent (issue 14): one agent process, started on the first prompt, kept warm between
// turns and stopped after an idle time; `initialize` → `authenticate` (only when the agent asks for it) →
// `session/new` (or `session/resume`/`session/load` of a saved session) → `session/prompt` per turn. Every turn ends
// with exactly one outcome, whatever the agent does.
import * as acp from "@agentclientprotocol/sdk";
import type { ContentBlock, InitializeRequest, InitializeResponse, PromptCapabilities, RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { formatDuration } from "../common/duration";
import { stderrExcerpt } from "../common/stderr-excerpt";
import { ByteTail } from "../process/byte-tail";
import type { CliExit } from "../process/cli-process";
import { InactivityTimer } from "../process/inactivity-timer";
import { realScheduler, type ScheduledCall, type Scheduler } from "../process/scheduler";
import type { ChoiceOutcome } from "../protocol/agent-state";
import type { ProtocolError } from "../protocol/events";
import type { Problem } from "../protocol/transcript";
import { withCause, type RunEnvironment } from "../session/error-cause";
import { inactivityTimeoutMessage } from "../session/run-limits";
import { formatBytes } from "../stream/json-line";
import { IN_BAND_STOP_GRACE_MS } from "../profiles/cli-profile";
import { isRecord } from "../protocol/json-record";
import type { AcpEvent } from "../dialects/acp/acp-events";
import { AgentProcess } from "./agent-process";
import type { AnswerOutcome, PermissionDesk } from "../permissions/permission-desk";
import { requestPermission } from "./request-permission";
import { SessionUpdateDecoder } from "../dialects/acp/session-update-decoder";
import { crashedError, outcomeOfStopReason, protocolErrorOfRpcError, type AcpTurnOutcome } from "../dialects/acp/turn-outcome";
import type { WorkspaceFiles } from "./workspace-files";
import type { SessionModeRule } from "../profiles/cli-profile";
import { NO_MODE_RULE, SessionSetup, type ChosenSettings, type SettingRequests } from "./session-setup";
import { sessionListOf, type AcpSessionList } from "./session-list";
import { EditSnapshots } from "./edit-snapshots";

export const DEFAULT_IDLE_STOP_MS = 10 * 60 * 1000;
/** Stop's in-band step for an ACP agent (`session/cancel`) gets what Claude Code's and pi's get. */
export const DEFAULT_CANCEL_GRACE_MS = IN_BAND_STOP_GRACE_MS;
/** How long an idle agent gets to exit by itself once its stdin is closed, before the signals. */
export const DEFAULT_CLOSE_GRACE_MS = 2000;

/** Where the connection reports what the user does not see in the chat. */
export interface AcpLog {
  /** Ignored on purpose: unknown update kinds and fields, notifications nobody handles. */
  trace(message: string): void;
  /** The agent broke the protocol (a line that is not JSON-RPC) or asked for something refused (a path outside). */
  problem(message: string): void;
  /** Lifecycle: started, stopped when idle, continued a saved session. */
  info(message: string): void;
}

export interface AuthMethodChoice {
  id: string;
  name: string;
  description: string | null;
}

export interface AcpAgentConnectionOptions {
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  /**
   * The workspace folders (absolute), the first the default `cwd`. The bounds of what the agent may name are `files`'
   * and the permission desk's, made for the same folders.
   */
  workspaceRoots: readonly string[];
  /** Where the agent runs and its sessions' `cwd` (absolute); default: the first workspace folder. */
  cwd?: string;
  files: WorkspaceFiles;
  onEvent(event: AcpEvent): void;
  /**
   * A line of the agent's output refused during a turn (not JSON-RPC, too deep, too long, an answer to nothing): the
   * turn's to show, as a stream CLI's bad line is. Between turns, and without this, such lines go to the log.
   */
  onProblem?(problem: Problem): void;
  /**
   * The conversation's permission desk: every `session/request_permission` is answered there, and shown through
   * `onEvent`. Its open requests are answered `cancelled` at Stop, dispose and kill.
   */
  permissions: PermissionDesk;
  log?: Partial<AcpLog>;
  onStderr?(chunk: Buffer): void;
  /** The agent's environment as the run knows it: a failed turn's error it explains (a refused API key, root) gets its cause. */
  environment?: RunEnvironment;
  /** A session id saved before (a window reload): continued when the agent can load or resume it. */
  savedSessionId?: string;
  /**
   * Each update `session/load` replays of the saved session, before the turn begins: what the agent holds of it
   * (replayed-turns.ts makes turns of them). Without this they are dropped: the host already shows that conversation.
   */
  onReplayedUpdate?(update: unknown): void;
  /** The profile's word on which of the agent's modes asks; unset: judged by the modes' ids and names alone. */
  modeRule?: SessionModeRule;
  /** The mode and model the user chose for this agent; unset: the mode that asks first, the agent's own model. */
  chosenSettings?: ChosenSettings;
  /**
   * Only when `session/new` answers that authentication is required: which of the agent's methods to use.
   * Undefined (or no callback): the turn fails with AUTH_EXPIRED, whose card offers Log In.
   */
  chooseAuthMethod?(methods: readonly AuthMethodChoice[]): string | undefined;
  clientInfo?: { name: string; version: string };
  /** The process is stopped after this long without a turn; default 10 minutes; 0 keeps it until dispose. */
  idleStopMs?: number;
  /** How long an idle agent whose stdin was closed gets to exit by itself (its session deleted, idle stop); default 2000. */
  closeGraceMs?: number;
  /**
   * A turn with nothing from the agent for this long fails NETWORK_TIMEOUT and the agent is stopped, as a stream CLI's
   * run is. Only while a turn runs (the warm agent is silent between turns) and no permission request waits for the
   * user (that wait is theirs). 0 or undefined: off.
   */
  inactivityTimeoutMs?: number;
  /**
   * How long Stop waits for the agent to answer `cancelled` before the signal escalation; default
   * DEFAULT_CANCEL_GRACE_MS, so that Stop's promise (the whole tree gone within 5 s) holds for ACP agents too.
   */
  cancelGraceMs?: number;
  stopGraceMs?: number;
  killGraceMs?: number;
  maxLineBytes?: number;
  /** The clock of the idle stop, the inactivity timeout and Stop's grace; default the real one. */
  scheduler?: Scheduler;
}

/**
 * A prompt's content blocks, or how to make them once the agent's `initialize` answer says what it takes (an image
 * only if it takes images): the first turn of a session is sent before that answer is known.
 */
export type PromptContent =
  | readonly ContentBlock[]
  | ((capabilities: PromptCapabilities | undefined) => { ok: true; blocks: readonly ContentBlock[] } | { ok: false; refusal: string });

/** The running agent and the session it is in. */
interface LiveAgent {
  process: AgentProcess;
  sessionId: string | undefined;
  /** Updates while `session/load` replays history: the host already shows that conversation. */
  replaying: boolean;
  /** The agent's answer to `session/new`, `session/resume` or `session/load`: the session's modes and options. */
  opened?: unknown;
  /** The agent's answer to `initialize`: what it offers. */
  init?: InitializeResponse;
}

interface Turn {
  cancelRequested: boolean;
  graceTimer: ScheduledCall | undefined;
  ended: Promise<void>;
  /** The turn's inactivity timeout, when there is one. */
  silence: InactivityTimer | undefined;
  /** Set when the inactivity timeout fired: the turn's one outcome, whatever the stopped agent says. */
  timedOut: ProtocolError | undefined;
  /** What the agent wrote on stderr during the turn: a failed turn shows its last lines. */
  stderr: ByteTail;
}

/** How much of the agent's stderr during a turn is kept (the card shows at most STDERR_EXCERPT_CHARS of it). */
const TURN_STDERR_BYTES = 16 * 1024;

class TurnFailure extends Error {
  constructor(readonly error: ProtocolError) {
    super(error.message);
  }
}

const JSON_RPC_RESOURCE_NOT_FOUND = -32002;
const JSON_RPC_INVALID_PARAMS = -32602;
/** The SDK's "Request cancelled": what a request made after Stop is. */
const JSON_RPC_REQUEST_CANCELLED = -32800;
/** JSON-RPC's server-error range: a request refused for now, which the agent may make again later. */
const JSON_RPC_BUSY = -32000;

/**
 * File requests served at once. Each holds what it reads or writes (a read at most 4 MiB of text, its answer a few
 * times that once escaped as JSON) until answered: an agent that sends thousands at once must not hold them all. Real
 * agents read a few files in parallel; more is answered "busy", to ask again.
 */
export const MAX_FILE_REQUESTS_AT_ONCE = 8;
/**
 * Answers the agent has not read from its stdin yet: past this, no more file is read for it. Each answer waits in our
 * memory until the agent reads it, so an agent that asks and never reads would otherwise grow it without end.
 */
export const MAX_UNREAD_ANSWER_BYTES = 16 * 1024 * 1024;
/** An answer's line beside its content and id: `{"jsonrpc":"2.0","id":…,"result":{"content":…}}` and its newline. */
const ANSWER_ENVELOPE_BYTES = 64;

export class AcpAgentConnection {
  private readonly app: acp.ClientApp;
  private readonly decoder: SessionUpdateDecoder;
  private readonly permissions: PermissionDesk;
  /** Permission requests of the agent not answered yet: while it waits for one, its silence is not its own. */
  private permissionsInHand = 0;
  private readonly log: AcpLog;
  private readonly settings: SessionSetup;
  private agent: LiveAgent | undefined;
  /** The agent starting and opening its session (a prompt's, or `start`'s ahead of one). */
  private starting: Promise<LiveAgent> | undefined;
  private turn: Turn | undefined;
  private idleTimer: ScheduledCall | undefined;
  private savedSessionId: string | undefined;
  private disposed = false;
  /** File requests being served now (see MAX_FILE_REQUESTS_AT_ONCE). */
  private fileRequestsInHand = 0;
  /** Our own reader is behind (see pause()). */
  private outputPaused = false;
  /** Copies of the files of edits the agent sends no diff for, for the diff the card shows once they complete. */
  private readonly edits: EditSnapshots;
  /** Diffs being computed for the turn's completed edits: the turn ends once they are shown. */
  private readonly computing = new Set<Promise<void>>();

  constructor(private readonly options: AcpAgentConnectionOptions) {
    const log = options.log ?? {};
    this.log = { trace: log.trace ?? (() => {}), problem: log.problem ?? (() => {}), info: log.info ?? (() => {}) };
    this.savedSessionId = options.savedSessionId;
    this.settings = new SessionSetup(options.modeRule ?? NO_MODE_RULE, options.chosenSettings ?? {}, (event) => options.onEvent(event), this.log.info);
    const onUpdate = (event: AcpEvent) => {
      options.onEvent(event);
      this.settings.follow(event);
      if (event.type === "tool_call") this.followEdit(event);
    };
    this.edits = new EditSnapshots((path) => options.files.read(path));
    this.decoder = new SessionUpdateDecoder({ event: onUpdate, trace: this.log.trace });
    this.permissions = options.permissions;
    this.app = this.buildClient();
  }

  /** The agent's session id once it has one: saved by the host so a reloaded window can continue it. */
  get sessionId(): string | undefined {
    return this.agent?.sessionId ?? this.savedSessionId;
  }

  /** The agent's process id while it runs. */
  get pid(): number | undefined {
    return this.agent?.process.pid;
  }

  /** What the running agent's prompts may carry, as its `initialize` answer said; undefined until it answered. */
  get promptCapabilities(): PromptCapabilities | undefined {
    const init = this.agent?.init;
    return init === undefined ? undefined : (init.agentCapabilities?.promptCapabilities ?? {});
  }

  get turnRunning(): boolean {
    return this.turn !== undefined;
  }

  /** The agent's list of its own sessions: while it runs, and only when it offers one. */
  get sessionList(): AcpSessionList | undefined {
    const agent = this.agent;
    if (agent?.init === undefined || agent.process.exitReport !== undefined) return undefined;
    const request = agent.process.connection.agent;
    return sessionListOf(agent.init, (_method, params) => request.request(acp.methods.agent.session.list, params), this.log.problem);
  }

  /** The user chose the session's mode or model (or none): set before the next prompt, the agent kept warm. */
  choose(chosen: ChosenSettings): void {
    this.settings.choose(chosen);
  }

  /**
   * The user chose the session's mode, model or options in the header: set at once while the agent holds its session
   * (between turns and during one), else when it next opens it, before the next prompt. The agent's answer updates the
   * session's state as ever; a refusal is said, and the choice is tried again only if it is chosen again.
   */
  async chooseNow(chosen: ChosenSettings): Promise<ChoiceOutcome> {
    this.settings.choose(chosen);
    const agent = this.agent;
    if (agent?.sessionId === undefined || agent.replaying || agent.process.exitReport !== undefined || !this.settings.isOpen) return { kind: "next-turn" };
    try {
      const refusal = await this.settings.applyChoice(this.settingRequests(agent));
      return refusal === undefined ? { kind: "applied" } : { kind: "refused", reason: refusal };
    } catch (error) {
      // The agent went away meanwhile: its next session is set up with the choice.
      this.log.info(`setting the session's choice failed: ${error instanceof Error ? error.message : String(error)}`);
      return { kind: "next-turn" };
    }
  }

  /** The user's answer to a waiting permission request, by its id: an option it offers, or null (dismissed). */
  answerPermission(requestId: string, optionId: string | null): AnswerOutcome {
    return this.permissions.answer(requestId, optionId);
  }

  /**
   * One turn: starts the agent if it is not running, sends the prompt, and settles with the one outcome. Never
   * rejects. Only one turn at a time (a second call while one runs is a programmer error).
   */
  async prompt(blocks: PromptContent): Promise<AcpTurnOutcome> {
    if (this.turn !== undefined) throw new Error("AcpAgentConnection.prompt: a turn is already running");
    if (this.disposed) return failed({ code: "UNKNOWN", message: "The conversation was closed.", recoverable: false });
    this.clearIdleTimer();
    let endTurn: () => void = () => {};
    const turn: Turn = {
      cancelRequested: false,
      graceTimer: undefined,
      ended: new Promise((resolve) => (endTurn = resolve)),
      silence: undefined,
      timedOut: undefined,
      stderr: new ByteTail(TURN_STDERR_BYTES),
    };
    this.turn = turn;
    const timeoutMs = this.options.inactivityTimeoutMs ?? 0;
    if (timeoutMs > 0) turn.silence = InactivityTimer.start(timeoutMs, () => this.onSilence(turn, timeoutMs), this.scheduler);
    if (this.outputPaused) turn.silence?.pause();
    try {
      const outcome = await this.runTurn(turn, blocks);
      // The diffs of the turn's last edits belong to it: shown before its end.
      await Promise.all(this.computing);
      return outcome;
    } finally {
      this.edits.clear();
      turn.silence?.dispose();
      turn.graceTimer?.cancel();
      this.permissions.cancelAll();
      this.turn = undefined;
      endTurn();
      this.armIdleTimer();
    }
  }

  /**
   * Stop: `session/cancel`, every open permission request answered `cancelled`; if the agent has not ended the turn
   * after the in-band grace, the signal escalation. Resolves once the turn has its outcome.
   */
  cancel(): Promise<void> {
    const turn = this.turn;
    if (turn === undefined) return Promise.resolve();
    if (turn.cancelRequested) return turn.ended;
    turn.cancelRequested = true;
    this.permissions.cancelAll();
    const agent = this.agent;
    if (agent === undefined) return turn.ended;
    if (agent.sessionId === undefined) {
      // Still starting: there is no session to cancel, only a process to stop.
      void agent.process.stop();
      return turn.ended;
    }
    agent.process.connection.agent.notify(acp.methods.agent.session.cancel, { sessionId: agent.sessionId }).catch(() => {});
    turn.graceTimer = this.scheduler.after(this.options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS, () => void agent.process.stop());
    return turn.ended;
  }

  /**
   * Backpressure from whoever reads our output (`ask` into a slow pipe): the agent's stdout is not read until
   * resume(). The agent is not silent meanwhile, only unheard: the inactivity timeout waits too.
   */
  pause(): void {
    this.outputPaused = true;
    this.agent?.process.pause();
    this.turn?.silence?.pause();
  }

  resume(): void {
    this.outputPaused = false;
    this.agent?.process.resume();
    if (this.permissionsInHand === 0) this.turn?.silence?.resume();
  }

  /** Its session deleted, window close: the turn (if any) is canceled and the agent's whole process tree ended. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.clearIdleTimer();
    if (this.turn !== undefined) this.turn.cancelRequested = true;
    this.permissions.cancelAll();
    const agent = this.agent;
    this.agent = undefined;
    // Mid-turn, the turn ends canceled at once; between turns the agent may first save the session it holds.
    if (agent !== undefined) await (this.turn === undefined ? agent.process.close(this.closeGraceMs) : agent.process.stop());
    await this.turn?.ended;
  }

  /** Deactivation: SIGKILL to the agent's process group, no grace. */
  kill(): void {
    this.disposed = true;
    this.clearIdleTimer();
    if (this.turn !== undefined) this.turn.cancelRequested = true;
    this.permissions.cancelAll();
    this.agent?.process.kill();
  }

  /** Nothing from the agent for the whole timeout mid-turn: the turn fails as a silent stream CLI's run does. */
  private onSilence(turn: Turn, timeoutMs: number): void {
    if (this.turn !== turn || turn.cancelRequested || turn.timedOut !== undefined) return;
    turn.timedOut = { code: "NETWORK_TIMEOUT", message: inactivityTimeoutMessage(formatDuration(timeoutMs)), recoverable: false };
    this.log.info(`the agent sent nothing for ${formatDuration(timeoutMs)} during a turn and is stopped`);
    this.permissions.cancelAll();
    const agent = this.agent;
    if (agent !== undefined) void agent.process.stop();
  }

  private async runTurn(turn: Turn, content: PromptContent): Promise<AcpTurnOutcome> {
    let agent: LiveAgent | undefined;
    try {
      agent = await this.ready();
      await this.applyChoice(agent);
      if (turn.cancelRequested) return canceled(null);
      const blocks = typeof content === "function" ? content(agent.init?.agentCapabilities?.promptCapabilities ?? undefined) : { ok: true as const, blocks: content };
      // A part the agent does not take (an image): the turn says why, and nothing is sent.
      if (!blocks.ok) return failed({ code: "UNKNOWN", message: blocks.refusal, recoverable: true });
      const response = await agent.process.connection.agent.request(acp.methods.agent.session.prompt, {
        sessionId: agent.sessionId as string,
        prompt: [...blocks.blocks],
      });
      const outcome = outcomeOfStopReason(response.stopReason);
      if (turn.timedOut !== undefined) return failed(turn.timedOut);
      // The user pressed Stop: the turn is stopped, whatever the agent called it.
      return turn.cancelRequested ? canceled(response.stopReason) : outcome;
    } catch (error) {
      if (turn.timedOut !== undefined) return failed(turn.timedOut);
      if (turn.cancelRequested) return canceled(null);
      return failed(this.explained(await this.meaningOf(error, agent ?? this.agent), turn));
    }
  }

  /**
   * A failed turn's error with what the run knows besides: its cause (a refused API key, root), and what the agent
   * wrote on stderr meanwhile, often the only account of why. An agent that exited has its stderr in the error already.
   */
  private explained(error: ProtocolError, turn: Turn): ProtocolError {
    const environment = this.options.environment;
    const explained = environment === undefined ? error : withCause(error, environment);
    if (explained.code === "PROCESS_CRASHED" || explained.code === "CLI_NOT_FOUND") return explained;
    const stderr = stderrExcerpt(turn.stderr.text());
    return stderr === "" ? explained : { ...explained, message: `${explained.message}\nIts last output on stderr:\n${stderr}` };
  }

  /** What a failed request means: the agent's JSON-RPC error, or the agent gone (crashed, never started). */
  private async meaningOf(error: unknown, agent: LiveAgent | undefined): Promise<ProtocolError> {
    if (error instanceof TurnFailure) return error.error;
    if (agent === undefined) return { code: "UNKNOWN", message: describe(error), recoverable: false };
    // The agent's own error first: an agent may answer with an error and then exit.
    if (error instanceof acp.RequestError) return protocolErrorOfRpcError(error);
    const exit = agent.process.exitReport;
    if (exit !== undefined) return this.exitError(exit);
    if (agent.process.connection.signal.aborted) {
      // The connection closed with the process still there (its stdin broke): end it, then say what happened.
      return this.exitError(await agent.process.stop());
    }
    return { code: "UNKNOWN", message: `The agent's answer could not be read: ${describe(error)}`, recoverable: false };
  }

  private exitError(exit: CliExit): ProtocolError {
    if (exit.reason === "spawn-failed") {
      return { code: "CLI_NOT_FOUND", message: exit.spawnError?.message ?? `${this.options.command} could not be started.`, recoverable: false };
    }
    return crashedError(exit.exitCode, exit.signal, exit.stderrTail);
  }

  /**
   * Starts the agent and its session ahead of a prompt, to learn what its prompts may carry (an image?) before one is
   * sent; kept warm for that prompt as after a turn. Undefined when it could not start: the prompt then says why.
   */
  async start(): Promise<PromptCapabilities | undefined> {
    if (this.disposed) return undefined;
    try {
      await this.ready();
    } catch (error) {
      this.log.info(`the agent did not start ahead of a prompt: ${describe(error)}`);
      return undefined;
    }
    if (this.turn === undefined && this.idleTimer === undefined) this.armIdleTimer();
    return this.promptCapabilities;
  }

  /** The running agent with a session, starting both when needed: a start under way is the one waited for. */
  private ready(): Promise<LiveAgent> {
    if (this.starting !== undefined) return this.starting;
    if (this.agent !== undefined && this.agent.process.exitReport === undefined) return Promise.resolve(this.agent);
    const starting = this.startWithSession().finally(() => {
      if (this.starting === starting) this.starting = undefined;
    });
    this.starting = starting;
    return starting;
  }

  private async startWithSession(): Promise<LiveAgent> {
    const agent = this.startAgent();
    try {
      await this.handshake(agent);
      return agent;
    } catch (error) {
      // An agent that cannot start a session is of no use warm: say why, and end it.
      const meaning = await this.meaningOf(error, agent);
      if (this.agent === agent) this.agent = undefined;
      if (agent.process.exitReport === undefined) void agent.process.stop();
      throw new TurnFailure(meaning);
    }
  }

  private async handshake(agent: LiveAgent): Promise<void> {
    const params: InitializeRequest = {
      protocolVersion: acp.PROTOCOL_VERSION,
      // Files go through the workspace (unsaved changes, Undo); no terminal yet.
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
      clientInfo: this.options.clientInfo ?? { name: "agent-stream", version: "0.1.0" },
    };
    const init = await agent.process.connection.agent.request(acp.methods.agent.initialize, params);
    agent.init = init;
    if (init.protocolVersion !== acp.PROTOCOL_VERSION) {
      this.log.info(`the agent speaks ACP protocol ${init.protocolVersion}; this client speaks ${acp.PROTOCOL_VERSION} and goes on`);
    }
    await this.openSession(agent, init);
  }

  private startAgent(): LiveAgent {
    const cwd = this.cwd;
    const process = new AgentProcess(
      this.app,
      {
        command: this.options.command,
        args: this.options.args,
        cwd,
        env: this.options.env,
        stopGraceMs: this.options.stopGraceMs,
        killGraceMs: this.options.killGraceMs,
        maxLineBytes: this.options.maxLineBytes,
      },
      {
        sessionUpdate: (params) => this.onSessionUpdate(agent, params),
        problem: (problem) => this.onLineProblem(agent, problem),
        promptTokens: (tokens) => {
          if (this.agent === agent && this.turn !== undefined) this.options.onEvent({ type: "prompt_tokens", tokens });
        },
        onStderr: (chunk) => {
          if (this.agent === agent) this.turn?.stderr.push(chunk);
          this.options.onStderr?.(chunk);
        },
        onActivity: () => {
          if (this.agent === agent) this.turn?.silence?.recordActivity();
        },
        onExit: (exit) => this.onAgentExit(agent, exit),
      },
    );
    const agent: LiveAgent = { process, sessionId: undefined, replaying: false };
    this.agent = agent;
    if (this.outputPaused) process.pause();
    this.log.info(`started ${process.commandLine} (pid ${process.pid ?? "none"})`);
    return agent;
  }

  private async openSession(agent: LiveAgent, init: InitializeResponse): Promise<void> {
    const cwd = this.cwd;
    const saved = this.savedSessionId;
    if (saved !== undefined) {
      const continued = await this.continueSession(agent, init, saved, cwd);
      if (continued !== undefined) {
        agent.sessionId = saved;
        await this.settle(agent);
        this.options.onEvent({ type: "session_ready", sessionId: saved, continued });
        return;
      }
    }
    const created = await this.newSession(agent, init, cwd);
    agent.sessionId = created;
    this.savedSessionId = created;
    await this.settle(agent);
    this.options.onEvent({ type: "session_ready", sessionId: created, continued: "new", ...(saved === undefined ? {} : { lost: saved }) });
  }

  /**
   * `session/resume` (no replay) when offered, then `session/load`; undefined when neither works. Each is tried on its
   * own: Qwen Code 0.15.10 offers resume but answers it "Method not found", and loads the session fine.
   */
  private async continueSession(agent: LiveAgent, init: InitializeResponse, sessionId: string, cwd: string): Promise<"resumed" | "loaded" | undefined> {
    const capabilities = init.agentCapabilities;
    const request = agent.process.connection.agent;
    const params = { sessionId, cwd, mcpServers: [] };
    if (capabilities?.sessionCapabilities?.resume != null) {
      if (await this.tryToContinue(agent, "session/resume", async () => (agent.opened = await request.request(acp.methods.agent.session.resume, params)))) return "resumed";
    }
    if (capabilities?.loadSession === true) {
      agent.replaying = true;
      try {
        if (await this.tryToContinue(agent, "session/load", async () => (agent.opened = await request.request(acp.methods.agent.session.load, params)))) return "loaded";
      } finally {
        agent.replaying = false;
      }
    }
    this.log.info(`the agent could not continue session ${sessionId}; starting a new one`);
    return undefined;
  }

  /** False when the agent refused; the agent's exit is the turn's failure, not a refusal. */
  private async tryToContinue(agent: LiveAgent, method: string, send: () => Promise<unknown>): Promise<boolean> {
    try {
      await send();
      return true;
    } catch (error) {
      if (agent.process.exitReport !== undefined) throw error;
      this.log.info(`${method} was refused: ${describe(error)}`);
      return false;
    }
  }

  private async newSession(agent: LiveAgent, init: InitializeResponse, cwd: string): Promise<string> {
    const request = agent.process.connection.agent;
    let created;
    try {
      created = await request.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
    } catch (error) {
      const methodId = this.authMethodFor(error, init);
      if (methodId === undefined) throw error;
      await request.request(acp.methods.agent.authenticate, { methodId });
      created = await request.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
    }
    agent.opened = created;
    return created.sessionId;
  }

  /** The session starts in the mode that asks first, or in the mode and model the user chose (session-setup.ts). */
  private async settle(agent: LiveAgent): Promise<void> {
    const refusal = await this.settings.open(agent.opened, this.settingRequests(agent));
    if (refusal !== undefined) throw new TurnFailure({ code: "UNKNOWN", message: refusal, recoverable: false });
  }

  /** A mode or model chosen since the session was set up is set before the prompt, as at its start. */
  private async applyChoice(agent: LiveAgent): Promise<void> {
    const refusal = await this.settings.applyChoice(this.settingRequests(agent));
    if (refusal !== undefined) throw new TurnFailure({ code: "UNKNOWN", message: refusal, recoverable: false });
  }

  private settingRequests(agent: LiveAgent): SettingRequests {
    const request = agent.process.connection.agent;
    const sessionId = agent.sessionId as string;
    return {
      setConfigOption: (configId, value) =>
        request.request(
          acp.methods.agent.session.setConfigOption,
          typeof value === "boolean" ? { sessionId, configId, type: "boolean", value } : { sessionId, configId, value },
        ),
      setMode: (modeId) => request.request(acp.methods.agent.session.setMode, { sessionId, modeId }),
    };
  }

  /** Authentication only when the agent asked for it and the host chose one of its methods. */
  private authMethodFor(error: unknown, init: InitializeResponse): string | undefined {
    if (!(error instanceof acp.RequestError) || protocolErrorOfRpcError(error).code !== "AUTH_EXPIRED") return undefined;
    const methods = (init.authMethods ?? []).map((method) => ({ id: method.id, name: method.name, description: method.description ?? null }));
    if (methods.length === 0 || this.options.chooseAuthMethod === undefined) return undefined;
    const chosen = this.options.chooseAuthMethod(methods);
    return methods.some((method) => method.id === chosen) ? chosen : undefined;
  }

  private onSessionUpdate(agent: LiveAgent, params: unknown): void {
    if (agent !== this.agent || !isRecord(params)) return;
    if (agent.sessionId !== undefined && params.sessionId !== agent.sessionId) {
      this.log.trace(`session/update for another session (${String(params.sessionId)}) ignored`);
      return;
    }
    if (agent.replaying) {
      this.options.onReplayedUpdate?.(params.update);
      return;
    }
    this.decoder.decode(params.update);
  }

  private onLineProblem(agent: LiveAgent, problem: Problem): void {
    const onProblem = this.options.onProblem;
    if (this.turn !== undefined && this.agent === agent && onProblem !== undefined) onProblem(problem);
    else this.log.problem(`line ${problem.line ?? "?"} of the agent's output: ${problem.message}`);
  }

  private onAgentExit(agent: LiveAgent, exit: CliExit): void {
    const how = exit.signal !== null ? `signal ${exit.signal}` : `code ${exit.exitCode}`;
    this.log.info(`the agent (pid ${agent.process.pid ?? "none"}) ended: ${exit.reason}, ${how}`);
    if (this.agent === agent) this.agent = undefined;
    // A session it had can be continued by the next process, if the agent can load or resume sessions.
    if (agent.sessionId !== undefined) this.savedSessionId = agent.sessionId;
  }

  private armIdleTimer(): void {
    const idleMs = this.options.idleStopMs ?? DEFAULT_IDLE_STOP_MS;
    if (this.disposed || idleMs <= 0 || this.agent === undefined) return;
    const agent = this.agent;
    const stopIdleAgent = (): void => {
      this.idleTimer = undefined;
      if (this.turn !== undefined || this.agent !== agent) return;
      this.log.info(`the agent was idle for ${Math.round(idleMs / 1000)} s and is stopped; the next prompt starts it again`);
      this.agent = undefined;
      void agent.process.close(this.closeGraceMs);
    };
    // An idle agent must not keep a command-line run alive.
    this.idleTimer = this.scheduler.after(idleMs, stopIdleAgent, { unref: true });
  }

  private get scheduler(): Scheduler {
    return this.options.scheduler ?? realScheduler;
  }

  private get cwd(): string {
    const cwd = this.options.cwd ?? this.options.workspaceRoots[0];
    if (cwd === undefined) throw new Error("AcpAgentConnection: no cwd and no workspace folder");
    return cwd;
  }

  private get closeGraceMs(): number {
    return this.options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
  }

  private clearIdleTimer(): void {
    this.idleTimer?.cancel();
    this.idleTimer = undefined;
  }

  private buildClient(): acp.ClientApp {
    return acp
      .client({ name: "agent-stream" })
      .onRequest(acp.methods.client.session.requestPermission, ({ params, signal }) => this.onPermission(params, signal))
      .onRequest(acp.methods.client.fs.readTextFile, async ({ params, requestId }) => {
        const content = await this.serveFile("read", params.path, () => this.options.files.read(params.path, params.line, params.limit));
        this.reserveAnswer(params.path, requestId, content);
        return { content };
      })
      .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
        await this.serveFile("write", params.path, () => this.options.files.write(params.path, params.content));
        return {};
      })
      .onNotification("*", ({ method }) => this.log.trace(`notification ${method} ignored`));
  }

  private async onPermission(params: RequestPermissionRequest, agentSignal: AbortSignal) {
    const tool = this.decoder.mentionTool(params.toolCall);
    // The files it may change are copied before the answer lets it: an "allow" answered at once is not sent before.
    if (tool !== undefined && this.turn !== undefined) await this.edits.before(tool);
    const turn = this.turn;
    const accepting = () => turn !== undefined && this.turn === turn && !turn.cancelRequested;
    this.permissionsInHand++;
    turn?.silence?.pause();
    try {
      return await requestPermission(this.permissions, params, tool, { show: (event) => this.options.onEvent(event), accepting, agentSignal });
    } finally {
      this.permissionsInHand--;
      if (this.permissionsInHand === 0 && !this.outputPaused) this.turn?.silence?.resume();
    }
  }

  /**
   * An edit the agent sends no diff for gets one from the host: its files are copied when it starts, and compared once
   * it completed. Only during a turn, as file access is.
   */
  private followEdit(event: Extract<AcpEvent, { type: "tool_call" }>): void {
    const call = event.call;
    if (this.turn === undefined || event.endedBefore) return;
    if (call.status === "failed") return this.edits.forget(call.toolCallId);
    if (call.status !== "completed") {
      void this.edits.before(call);
      return;
    }
    // What the agent said with the completion stays on the card beside the diff.
    const said = event.contentChanged ? call.content.filter((item) => item.type !== "diff") : [];
    const shown = this.edits.after(call).then((computed) => {
      if (computed === undefined || (computed.diffs.length === 0 && computed.notes.length === 0)) return;
      const notes = computed.notes.map((note) => ({ type: "text" as const, text: note }));
      this.decoder.clientContent(call.toolCallId, [...said, ...notes, ...computed.diffs]);
    });
    const settled = shown.catch((error: unknown) => this.log.problem(`the diff of tool call ${call.toolCallId} could not be computed: ${describe(error)}`));
    this.computing.add(settled);
    void settled.finally(() => this.computing.delete(settled));
  }

  /**
   * Files are the turn's: served only while a turn runs (its handshake included) and no Stop or timeout has ended it,
   * as permission requests are. Refusals and failures go back to the agent as JSON-RPC errors and into the log; they
   * never end the turn.
   */
  private async serveFile<T>(what: "read" | "write", path: string, serve: () => Promise<T>): Promise<T> {
    const closed = this.fileAccessClosed();
    if (closed !== undefined) {
      const message = `fs ${what} of ${path} refused: ${closed}`;
      this.log.problem(message);
      throw new acp.RequestError(JSON_RPC_REQUEST_CANCELLED, message);
    }
    const busy = this.fileAccessBusy();
    if (busy !== undefined) {
      const message = `fs ${what} of ${path} refused for now: ${busy}; ask again once earlier requests are answered`;
      this.log.problem(message);
      throw new acp.RequestError(JSON_RPC_BUSY, message);
    }
    this.fileRequestsInHand++;
    let served: T;
    try {
      served = await serve();
    } catch (error) {
      const message = `fs ${what} of ${path} refused: ${describe(error)}`;
      this.log.problem(message);
      const missing = (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
      throw new acp.RequestError(missing ? JSON_RPC_RESOURCE_NOT_FOUND : JSON_RPC_INVALID_PARAMS, message);
    } finally {
      this.fileRequestsInHand--;
    }
    return served;
  }

  /**
   * A read's answer is counted as unread from the moment it is served: the SDK queues it before our wire writes it to
   * stdin, and reads served at once would each pass the bound before any earlier answer was written. Past the bound
   * it is refused "busy" instead; one answer alone always goes, however large.
   */
  private reserveAnswer(path: string, requestId: acp.JsonRpcId | undefined, content: string): void {
    // The answer's line: the content as JSON, and its envelope (the id, the JSON-RPC fields) generously.
    const bytes = Buffer.byteLength(JSON.stringify(content)) + Buffer.byteLength(JSON.stringify(requestId ?? null)) + ANSWER_ENVELOPE_BYTES;
    const unread = this.unreadAnswers(bytes);
    if (unread !== undefined) {
      const message = `fs read of ${path} refused for now: ${unread}; ask again once earlier requests are answered`;
      this.log.problem(message);
      throw new acp.RequestError(JSON_RPC_BUSY, message);
    }
    if (requestId !== undefined && requestId !== null) this.agent?.process.reserveAnswer(requestId, bytes);
  }

  /** Why no more file request is served now, though the turn may touch files; undefined while one may be. */
  private fileAccessBusy(): string | undefined {
    if (this.fileRequestsInHand >= MAX_FILE_REQUESTS_AT_ONCE) return `${MAX_FILE_REQUESTS_AT_ONCE} file requests are being served already`;
    return this.unreadAnswers();
  }

  /** Why no more answer (of `adding` bytes) may be written to the agent now: its earlier ones wait unread past the bound. */
  private unreadAnswers(adding = 0): string | undefined {
    const unread = this.agent?.process.unreadInputBytes ?? 0;
    const over = adding === 0 ? unread > MAX_UNREAD_ANSWER_BYTES : unread > 0 && unread + adding > MAX_UNREAD_ANSWER_BYTES;
    return over ? `the agent has not read ${formatBytes(unread)} of earlier answers` : undefined;
  }

  /** Why the agent may not touch files now, or undefined while it may. */
  private fileAccessClosed(): string | undefined {
    const turn = this.turn;
    if (turn === undefined) return "no turn is running";
    if (turn.cancelRequested) return "the turn was stopped";
    if (turn.timedOut !== undefined) return "the turn timed out";
    return undefined;
  }
}

function canceled(stopReason: string | null): AcpTurnOutcome {
  return { status: "canceled", stopReason };
}

function failed(error: ProtocolError): AcpTurnOutcome {
  return { status: "failed", stopReason: null, error };
}

/** The error's message, and the details an agent put in a JSON-RPC error's data (often the real reason). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const data = error instanceof acp.RequestError ? error.data : undefined;
  return data === undefined || data === null ? error.message : `${error.message}: ${JSON.stringify(data).slice(0, 500)}`;
}
