// Starts a session's agent for one prompt, the same way for the panel and for `agent-stream ask`: a stream CLI (or the
// built-in agent) as one process per turn, an ACP agent as one warm process per session for all its turns. What differs
// between the two comes in as values: the settings of the run, the workspace's files, how a question is decided, where
// the log goes. Each session has one permission desk, whatever its agent speaks.
import { AcpConversation } from "../acp/acp-conversation";
import { acpPrompt } from "../acp/acp-prompt";
import type { ChosenSettings } from "../acp/session-setup";
import { outsideWorkspace, type WorkspaceFiles } from "../acp/workspace-files";
import { createAdapter } from "../dialects/registry";
import { PermissionDesk, type DecidePermission } from "../permissions/permission-desk";
import type { AutoAnswerPolicy } from "../permissions/permission-policy";
import { ByteTail } from "../process/byte-tail";
import type { AgentStateUpdate, ChoiceOutcome } from "../protocol/agent-state";
import type { CliStreamEvent } from "../protocol/events";
import type { SessionChange } from "../protocol/messages";
import type { Transcript } from "../protocol/transcript";
import type { ChannelModel } from "../protocol/settings-channel";
import { escapeForLog, logLines } from "../protocol/visible-text";
import { acpTransportOf, userArgumentsOf, type CliProfile, type ConversationKey, type SettingFlags } from "../profiles/cli-profile";
import { agentCommand, resolveCli, type AgentCommand, type CliChoice } from "../profiles/profile-registry";
import { agentStateBeforeRuns, agentStateOfStart, keptRuleArgs, modelSetting, type OfferedModels, rememberedModeChecked } from "../profiles/setting-flags";
import { withoutStderrExcerpt } from "../common/stderr-excerpt";
import { failingError } from "../common/turn-failure";
import { promptWithParts } from "../common/attached-context";
import { imagesRefused, isImage, type PromptPart } from "../protocol/prompt-parts";
import { runEnvironment } from "../session/error-cause";
import { LiveSession } from "../session/live-session";
import type { Session } from "../session/session";
import { DescribedCommands } from "./described-commands";
import { workspaceParts } from "./workspace-parts";

/** Raw lines longer than this are cut in the trace log (the run still gets all of them). */
const MAX_TRACED_LINE_CHARS = 4000;
/** How much of a CLI's stderr the log keeps for a failed run. */
const STDERR_TAIL_BYTES = 8 * 1024;

/** What a CLI's environment adds to this process's. */
type LaunchAgentEnv = Readonly<Record<string, string>>;

/** The agent a session runs: a CLI by its profile (stream or ACP), or the built-in agent run by this Node. */
export type LaunchAgent =
  | { kind: "cli"; choice: CliChoice; env: LaunchAgentEnv }
  | { kind: "builtin"; command: (prompt: string, conversation: ConversationKey) => AgentCommand & { env: NodeJS.ProcessEnv } };

/** One prompt of one session, and everything the run needs that is not the launcher's. */
export interface AgentLaunch {
  sessionId: string;
  agent: LaunchAgent;
  /** The user's words. */
  prompt: string;
  /**
   * What the user attached (files, folders, a selection, images), sent as the agent takes each (see `imagesRefusal`,
   * to be asked first when there are images). Only workspace files are passed on.
   */
  parts?: readonly PromptPart[];
  /** The agent's conversation this prompt belongs to; `stateDir` is where a CLI that wants a file for it keeps it. */
  conversation: ConversationKey;
  cwd: string;
  /** The workspace's folders (absolute): the bounds of what the agent may read and write without the user. */
  workspaceRoots: readonly string[];
  inactivityTimeoutMs?: number;
  /** How long a warm ACP agent waits for the next turn before it is stopped; 0 or unset: until its session ends. */
  idleStopMs?: number;
  maxLineBytes?: number;
  /** What the agent's permission requests get without asking, by tool kind; read at each request. */
  autoAnswer: AutoAnswerPolicy;
  /**
   * The session's mode and model, by the ids its agent offers: an ACP agent's set in its session (before this prompt,
   * when chosen since the last), a stream CLI's given as its flags (Claude's `--permission-mode`, `--model`).
   */
  chosenSettings?: ChosenSettings;
  /** The ACP agent's session a follow-up continues (after a reload), or null. */
  acpSessionId?: string | null;
  /** False: keep no transcript, only the changes and events (`ask` prints them as they come). */
  keepBlocks?: boolean;
  /** True: `onChange`'s listener holds the transcript (the chat's turn): bounded as ever, but not held twice. */
  heldByListener?: boolean;
  onEvent?(event: CliStreamEvent): void;
  onChange?(change: SessionChange): void;
  /** What the agent says about its session (its title, mode, model, commands, usage), as it says it. */
  onAgentState?(update: AgentStateUpdate): void;
  /** The ACP agent opened (or continued) its session. */
  onAcpSession?(acpSessionId: string): void;
}

/** A launch whose parts were confined to the workspace, and which selections go as text only (see workspaceParts). */
type ConfinedLaunch = AgentLaunch & { textOnly?: ReadonlySet<PromptPart> };

/** A turn under way, whatever runs it. */
export interface LaunchedRun {
  readonly session: Session;
  /** Settles with the turn's transcript; never rejects. */
  readonly finished: Promise<Transcript>;
  /** The agent's process id while it runs (an ACP agent's is the session's warm agent). */
  readonly pid: number | undefined;
  /** The user's Stop: in band first, then the process tree. */
  stop(): Promise<Transcript>;
  /** No grace: the agent's whole process tree ends now (a window closing, a second Ctrl-C). */
  kill(): void;
  /** The user's answer to one of the run's waiting permission requests, by id; false when none waits with it. */
  answer(requestId: string, optionId: string | null): boolean;
  /**
   * A message for the running turn, delivered to the agent as it works (a stream CLI whose profile says how); false when
   * this run cannot take one now: the caller then stops the turn and sends it next.
   */
  steer(text: string, shown?: string): boolean;
  /** How many of the last messages steered into the run its agent never took (known once it finished). */
  untakenSteers?(): number;
  /** Backpressure: the agent's output is not read until resume(). */
  pause(): void;
  resume(): void;
}

/** Where a launch's log lines go, already escaped: no agent text can forge a line. */
export interface LaunchLog {
  /** What runs, and how each run ended. */
  info(message: string): void;
  /** What was refused or went wrong: a file outside the workspace, a bad line between turns, a failed run's stderr. */
  warn(message: string): void;
  /** Every line read and every line of stderr, for someone reading the trace. */
  trace(message: string): void;
  /** Whether anyone reads the trace now: formatting every line costs time only they should pay. */
  tracing(): boolean;
}

export interface AgentLauncherOptions {
  /** The workspace's files as the agent may read and write them (the editor's buffers, or the disk). */
  files(roots: readonly string[]): WorkspaceFiles;
  log: LaunchLog;
  /** Where a waiting request is decided when no transcript is seen (the terminal); unset: it waits for `answer`. */
  decide?: DecidePermission;
  /** The agents' stderr as it comes; unset: traced, and a failed stream run's last part logged as a warning. */
  onStderr?(chunk: Buffer): void;
  /** How many of a session's requests wait for the user, after each change. */
  onWaiting?(sessionId: string, count: number): void;
}

/** What a session holds between its prompts: its desk and, for an ACP agent, the warm agent. */
interface SessionAgent {
  /** The agent's conversation and how it is run: another one ends the warm agent and starts with a new desk. */
  key: string;
  desk: PermissionDesk;
  /** The desk's rules: one object, updated at each prompt, so that a changed setting holds from the next on. */
  policy: AutoAnswerPolicy;
  /** The workspace's folders when the agent started: the bounds its desk and its file access keep. */
  readonly roots: readonly string[];
  acp: AcpConversation | undefined;
  /** A stream CLI's run under way that takes a change of its mode or model mid-turn, and the settings it runs in. */
  stream?: { live: LiveSession; flags: SettingFlags; chosen: ChosenSettings; offered: OfferedModels; onAgentState(update: AgentStateUpdate): void };
  /** The models a stream CLI last offered (Claude's initialize answer): kept for the runs after, whose start can come first. */
  models?: readonly ChannelModel[];
}

export class AgentLauncher {
  private readonly sessions = new Map<string, SessionAgent>();

  constructor(private readonly options: AgentLauncherOptions) {}

  /** Runs one prompt of the session's agent. */
  start(request: AgentLaunch): LaunchedRun {
    const launch = this.confined(request);
    if (launch.agent.kind === "cli") {
      const { profile, command } = resolveCli(launch.agent.choice);
      if (acpTransportOf(profile) !== undefined) return this.startAcp(launch, launch.agent, profile, command);
      return this.startStream(this.withRememberedModeChecked(launch, profile.settingFlags));
    }
    return this.startStream(launch);
  }

  /**
   * Why the session's agent cannot take this launch's images, or null when it can (or has none). A stream CLI's profile
   * says; an ACP agent's `initialize` answer says, once its warm agent has given it (before that, null: see
   * `imagesRefusalOnceKnown`; a first turn sent without asking is refused by the agent's answer, and nothing is sent).
   */
  imagesRefusal(launch: Pick<AgentLaunch, "sessionId" | "agent" | "parts">): string | null {
    if (!(launch.parts ?? []).some(isImage)) return null;
    if (launch.agent.kind === "builtin") return imagesRefused("The built-in agent");
    const { profile } = resolveCli(launch.agent.choice);
    if (acpTransportOf(profile) === undefined) return profile.takesImages === true ? null : imagesRefused(profile.displayName);
    return acpImagesRefusal(this.sessions.get(launch.sessionId)?.acp?.promptCapabilities, profile);
  }

  /**
   * The same, known before anything is sent: an ACP agent that has not said what it takes is started for this launch's
   * conversation first (the warm agent its prompt then finds) and asked. An agent that does not start gives null: the
   * prompt's turn says why it did not. A session's agent for another conversation is left as it is.
   */
  async imagesRefusalOnceKnown(launch: Omit<AgentLaunch, "prompt">): Promise<string | null> {
    const refusal = this.imagesRefusal(launch);
    if (refusal !== null || !(launch.parts ?? []).some(isImage) || launch.agent.kind !== "cli") return refusal;
    const { profile, command } = resolveCli(launch.agent.choice);
    if (acpTransportOf(profile) === undefined) return null;
    const key = acpKey(launch, launch.agent, profile, command);
    const known = this.sessions.get(launch.sessionId);
    if (known !== undefined && known.key !== key) return null;
    return acpImagesRefusal(await this.acpConversation(launch, launch.agent, profile, command).start(), profile);
  }

  /**
   * The launch with only its workspace parts; a file or folder naming anything else is said in the log and dropped,
   * a selection from elsewhere (an untitled buffer) goes as text only.
   */
  private confined(launch: AgentLaunch): ConfinedLaunch {
    if (launch.parts === undefined || launch.parts.length === 0) return launch;
    const { parts, textOnly, refused } = workspaceParts(launch.parts, launch.cwd, launch.workspaceRoots);
    for (const refusedPath of refused) this.options.log.warn(escapeForLog(`not passed to the agent: ${refusedPath} is not a file or folder inside the workspace`));
    return { ...launch, parts, textOnly };
  }

  /** The session's desk: the one its agent's requests come to, whatever the agent speaks. */
  deskOf(sessionId: string): PermissionDesk | undefined {
    return this.sessions.get(sessionId)?.desk;
  }

  /** A stream CLI's remembered mode goes on its command line only if it is one of its modes that asks (as ACP's are checked). */
  private withRememberedModeChecked(launch: ConfinedLaunch, flags: SettingFlags | undefined): ConfinedLaunch {
    if (launch.chosenSettings === undefined) return launch;
    const { chosen, dropped } = rememberedModeChecked(flags, launch.chosenSettings);
    if (dropped !== undefined) this.options.log.warn(escapeForLog(dropped));
    return { ...launch, chosenSettings: chosen };
  }

  /**
   * The user chose the session's mode, model or options: an ACP agent's session is set at once (while its agent runs),
   * a stream CLI's run under way is asked on its stdin where it takes that (Claude); else it waits for the next prompt.
   */
  async chooseNow(sessionId: string, chosen: ChosenSettings): Promise<ChoiceOutcome> {
    const agent = this.sessions.get(sessionId);
    if (agent?.acp !== undefined) return agent.acp.chooseNow(chosen);
    const stream = agent?.stream;
    if (stream === undefined) return { kind: "next-turn" };
    // Back to the default: the mode that asks; a model cannot be unset mid-run, only at the next.
    const changes = [
      { setting: "mode" as const, value: chosen.mode ?? stream.flags.askingMode, before: stream.chosen.mode ?? stream.flags.askingMode },
      { setting: "model" as const, value: chosen.model, before: stream.chosen.model },
    ];
    let outcome: ChoiceOutcome = { kind: "applied" };
    for (const { setting, value, before } of changes) {
      if (value === undefined || value === before) continue;
      const answer = await stream.live.changeSetting(setting, value);
      if (answer.kind === "refused") return { kind: "refused", reason: `The agent did not switch to ${setting} ${value} (it answered: ${answer.reason}).` };
      if (answer.kind === "next-turn") outcome = answer;
      else {
        stream.chosen = { ...stream.chosen, [setting]: value };
        // The models its answer lists, should it come after, mark this one.
        if (setting === "model") stream.offered.chosen = value;
        stream.onAgentState(setting === "mode" ? { kind: "mode", modeId: value } : { kind: "model", modelId: value });
      }
    }
    return outcome;
  }

  /** Whether a choice reaches the agent of `choice` at once: an ACP agent's, and a stream CLI's that takes it mid-run while it runs. */
  static choiceAppliesAt(choice: Pick<CliChoice, "cliPath" | "cliProfile">, running: boolean): "now" | "next-turn" {
    const { profile } = resolveCli(choice);
    if (acpTransportOf(profile) !== undefined) return "now";
    return running && profile.settingFlags?.channel !== undefined ? "now" : "next-turn";
  }

  /** What the agent of `choice` is known to offer before its first run: a stream CLI's modes, from its profile. */
  static agentStateBeforeRuns(choice: Pick<CliChoice, "cliPath" | "cliProfile">): AgentStateUpdate | undefined {
    const { profile } = resolveCli(choice);
    return acpTransportOf(profile) === undefined ? agentStateBeforeRuns(profile.settingFlags) : undefined;
  }

  /** The session ended: its warm agent and everything it started end now; open requests end cancelled. */
  endSession(sessionId: string): Promise<void> {
    const agent = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    agent?.desk.cancelAll();
    return agent?.acp?.dispose() ?? Promise.resolve();
  }

  /** The window closes: every warm agent ends at once. */
  dispose(): void {
    for (const { acp } of this.sessions.values()) acp?.kill();
    this.sessions.clear();
  }

  /** The session's entry for this launch: the same while its agent's conversation and command stay the same. */
  private sessionAgent(launch: Omit<AgentLaunch, "prompt">, key: string): SessionAgent {
    const known = this.sessions.get(launch.sessionId);
    if (known !== undefined && known.key === key) {
      for (const kind of Object.keys(known.policy)) delete known.policy[kind as keyof AutoAnswerPolicy];
      Object.assign(known.policy, launch.autoAnswer);
      return known;
    }
    if (known !== undefined) void this.endSession(launch.sessionId);
    const { log, decide, onWaiting } = this.options;
    const sessionId = launch.sessionId;
    const policy: AutoAnswerPolicy = { ...launch.autoAnswer };
    const agent: SessionAgent = {
      key,
      policy,
      roots: launch.workspaceRoots,
      acp: undefined,
      desk: new PermissionDesk({
        policy,
        outsideWorkspace: (paths) => outsideWorkspace(paths, agent.roots),
        log: (message) => log.warn(escapeForLog(message)),
        ...(decide === undefined ? {} : { decide }),
        ...(onWaiting === undefined ? {} : { onWaiting: (count: number) => onWaiting(sessionId, count) }),
      }),
    };
    this.sessions.set(sessionId, agent);
    return agent;
  }

  /** An ACP agent: each session keeps one warm agent process and one ACP session for all its turns. */
  private startAcp(launch: ConfinedLaunch, agent: Extract<LaunchAgent, { kind: "cli" }>, profile: CliProfile, command: string): LaunchedRun {
    const conversation = this.acpConversation(launch, agent, profile, command);
    // A mode or model chosen since the last turn is set in the warm agent's session before this prompt.
    if (launch.chosenSettings !== undefined) conversation.choose(launch.chosenSettings);
    const parts = launch.parts ?? [];
    // Built once the agent has said what it takes (its first turn starts it).
    const content = (capabilities: Parameters<typeof acpPrompt>[2]) => acpPrompt(launch.prompt, parts, capabilities, profile.displayName, launch.cwd, launch.textOnly);
    const run = conversation.prompt(content, {
      keepBlocks: launch.keepBlocks,
      heldByListener: launch.heldByListener,
      onEvent: launch.onEvent,
      onChange: launch.onChange,
    });
    void run.finished.then((transcript) => this.logDone(transcript));
    return {
      session: run.session,
      finished: run.finished,
      get pid() {
        return conversation.pid;
      },
      stop: () => run.stop(),
      kill: () => conversation.kill(),
      answer: (requestId, optionId) => run.answer(requestId, optionId),
      // ACP has no message for a running prompt turn.
      steer: () => false,
      pause: () => run.pause(),
      resume: () => run.resume(),
    };
  }

  /** The session's warm agent for the launch's conversation, made (not started yet) when it has none. */
  private acpConversation(launch: Omit<AgentLaunch, "prompt">, agent: Extract<LaunchAgent, { kind: "cli" }>, profile: CliProfile, command: string): AcpConversation {
    const entry = this.sessionAgent(launch, acpKey(launch, agent, profile, command));
    return (entry.acp ??= this.startAcpAgent(launch, agent.env, profile, command, acpArgs(agent, profile), entry));
  }

  private startAcpAgent(launch: Omit<AgentLaunch, "prompt">, env: LaunchAgentEnv, profile: CliProfile, command: string, args: string[], entry: SessionAgent): AcpConversation {
    const transport = acpTransportOf(profile);
    const { log } = this.options;
    const conversation = new AcpConversation({
      command,
      args,
      env: { ...process.env, ...env },
      // What an error it explains needs (a refused API key's variable, root): never the values, only their names.
      environment: runEnvironment({ ...process.env, ...env }, profile.login.apiKeyVariables),
      // Without a folder the agent starts in the home folder, but every file is outside the workspace: it may read
      // and write nothing, and only the user may allow a request that names a file.
      workspaceRoots: launch.workspaceRoots,
      cwd: launch.cwd,
      files: this.options.files(launch.workspaceRoots),
      permissions: entry.desk,
      chooseAuthMethod: (methods) => transport?.authMethods.find((id) => methods.some((method) => method.id === id)),
      modeRule: transport?.modes,
      chosenSettings: launch.chosenSettings,
      log: { trace: (m) => log.trace(escapeForLog(m)), problem: (m) => log.warn(escapeForLog(m)), info: (m) => log.info(escapeForLog(m)) },
      // After a window reload (or opening a stored session), a follow-up continues the agent's session when it can.
      savedSessionId: launch.conversation.continues ? (launch.acpSessionId ?? undefined) : undefined,
      onAgentState: (update) => launch.onAgentState?.(update),
      onSession: (acpSessionId, continued) => {
        launch.onAcpSession?.(acpSessionId);
        if (continued !== "new") log.info(escapeForLog(`continued the agent's session ${acpSessionId} (${continued})`));
      },
      idleStopMs: launch.idleStopMs,
      // Every run's inactivity timeout; for an ACP agent only mid-turn, and not while a permission card waits.
      inactivityTimeoutMs: launch.inactivityTimeoutMs,
      maxLineBytes: launch.maxLineBytes,
      onStderr: this.options.onStderr ?? ((chunk) => this.traceStderr(chunk)),
    });
    log.info(escapeForLog(`ACP agent: ${[command, ...args].join(" ")} (profile ${profile.name}, session ${launch.sessionId})`));
    return conversation;
  }

  /** A stream CLI or the built-in agent: one process for the turn. */
  private startStream(launch: AgentLaunch): LaunchedRun {
    const { log } = this.options;
    const agent = this.streamCommand(launch);
    // The session's desk, for a stream CLI that asks permission in band (its run hands requests to it).
    const entry = this.sessionAgent(launch, JSON.stringify([launch.conversation.id, agent.command, agent.profile.name]));
    const { desk } = entry;
    // A CLI that reads its stdin during the run can be asked to change its mode or model then (Claude).
    const flags = agent.profile.settingFlags;
    const settingsChannel = agent.input === undefined ? undefined : flags?.channel;
    const stderr = this.options.onStderr === undefined ? new ByteTail(STDERR_TAIL_BYTES) : undefined;
    const commands = new DescribedCommands((update) => launch.onAgentState?.(update));
    // The models the header offers, marked by the session's choice or the model the run's start names, in either order.
    const offered: OfferedModels = { models: entry.models ?? [], chosen: launch.chosenSettings?.model };
    let namedModel: string | undefined;
    const live = LiveSession.start({
      // A CLI that asks permission in band (Claude Code's `can_use_tool`): its requests go to the session's desk.
      permissionChannel: agent.permissionChannel,
      permissions: agent.permissionChannel === undefined ? undefined : desk,
      settingsChannel,
      // Claude says its mode when it changes, asked or by itself (leaving plan mode): the header follows it.
      onSettingSaid: (setting, value) => launch.onAgentState?.(setting === "mode" ? { kind: "mode", modeId: value } : { kind: "model", modelId: value }),
      onCommandsSaid: (described, models) => {
        commands.describe(described);
        // An answer that lists none (an older Claude) leaves the models kept.
        if (models.length === 0) return;
        entry.models = offered.models = models;
        if (namedModel !== undefined) launch.onAgentState?.({ kind: "models", model: modelSetting(namedModel, offered) });
      },
      log: (message) => log.warn(escapeForLog(message)),
      adapter: createAdapter(agent.dialect),
      maxLineBytes: launch.maxLineBytes,
      // The rules the session's "always" answers gave earlier runs of it: this new process would ask again.
      process: { command: agent.command, args: [...agent.args, ...keptRuleArgs(agent.profile.settingFlags, desk.keptAgentRules)], env: agent.env, input: agent.input, cwd: launch.cwd, inactivityTimeoutMs: launch.inactivityTimeoutMs },
      isRunOver: agent.isRunOver,
      environment: runEnvironment(agent.env, agent.profile.login.apiKeyVariables),
      keepBlocks: launch.keepBlocks,
      heldByListener: launch.heldByListener,
      onEvent: (event) => {
        // The mode and model the CLI says it runs in (Claude Code's init line) are the session's agent state.
        if (event.type === "start") namedModel = event.payload.model ?? namedModel;
        const state = event.type === "start" ? agentStateOfStart(agent.profile.settingFlags, event.payload, offered) : undefined;
        if (state !== undefined) launch.onAgentState?.(state);
        // The slash commands it takes (Claude Code's init line), for the composer to complete.
        const names = event.type === "start" ? event.payload.commands : undefined;
        if (names !== undefined) commands.name(names);
        launch.onEvent?.(event);
      },
      onChange: launch.onChange,
      onStderr:
        this.options.onStderr ??
        ((chunk) => {
          stderr?.push(chunk);
          this.traceStderr(chunk);
        }),
      // Decided per run: formatting every line costs time only someone reading the trace should pay.
      onLine: log.tracing() ? (text, line) => log.trace(`line ${line}: ${escapeForLog(clip(text))}`) : undefined,
    });
    log.info(escapeForLog(`run: ${live.commandLine} (in ${launch.cwd}, ${agent.description})`));
    const stream =
      settingsChannel === undefined || flags === undefined
        ? undefined
        : { live, flags, chosen: { ...launch.chosenSettings }, offered, onAgentState: (update: AgentStateUpdate) => launch.onAgentState?.(update) };
    entry.stream = stream;
    void live.finished.then((transcript) => {
      if (entry.stream === stream) entry.stream = undefined;
      const tail = transcript.status === "failed" ? (stderr?.text().trimEnd() ?? "") : "";
      // The stderr block below is the whole of what the error's excerpt shows the last lines of: logged once.
      this.logDone(transcript, tail !== "");
      if (tail === "") return;
      log.warn(`stderr of the failed run (last ${STDERR_TAIL_BYTES / 1024} KiB):`);
      for (const line of logLines(tail)) log.warn(`stderr: ${line}`);
    });
    return {
      session: live.session,
      finished: live.finished,
      get pid() {
        return live.pid;
      },
      stop: () => live.stop(),
      kill: () => live.kill(),
      answer: (requestId, optionId) => live.answer(requestId, optionId),
      steer: (text, shown) => live.steer(text, shown),
      untakenSteers: () => live.untakenSteers(),
      pause: () => live.pause(),
      resume: () => live.resume(),
    };
  }

  /** The CLI from its profile, or the built-in agent, with its environment and how the log names it. */
  private streamCommand(launch: AgentLaunch): AgentCommand & { env: NodeJS.ProcessEnv; description: string } {
    const { agent, conversation } = launch;
    const parts = launch.parts ?? [];
    const images = parts.filter(isImage);
    // References in the text (Claude Code reads the `@path` ones itself); images only to a CLI that takes them.
    const prompt = promptWithParts(launch.prompt, parts);
    if (images.length > 0 && this.imagesRefusal(launch) !== null) throw new Error("AgentLauncher: images for an agent that takes none (ask imagesRefusal first)");
    if (agent.kind === "builtin") return { ...agent.command(prompt, conversation), description: "built-in agent" };
    const command = agentCommand(agent.choice, prompt, conversation, launch.chosenSettings, images);
    const continues = conversation.continues ? `, continuing conversation ${conversation.id}` : "";
    return { ...command, env: { ...process.env, ...agent.env }, description: `profile ${command.profile.name}, dialect ${command.dialect}${continues}` };
  }

  private traceStderr(chunk: Buffer): void {
    for (const line of logLines(chunk.toString("utf8").trimEnd())) this.options.log.trace(`stderr: ${line}`);
  }

  /** `stderrLogged`: the run's stderr is logged in full after this, so the error's excerpt of it is left out. */
  private logDone(transcript: Transcript, stderrLogged = false): void {
    this.options.log.info(`done: ${transcript.status}, exit code ${transcript.done.exitCode}, ${transcript.done.durationMs} ms`);
    // What the card says of a failure (its cause, the agent's last stderr lines), for whoever reads the log instead.
    const error = transcript.status === "failed" ? failingError(transcript) : null;
    if (error === null) return;
    const message = stderrLogged ? withoutStderrExcerpt(error.message) : error.message;
    for (const line of logLines(`${error.code}: ${message}`)) this.options.log.info(line);
  }
}

/** What makes a warm agent the same one: its conversation, command, arguments and environment. */
/** An ACP agent refuses images only once it said it takes none; while it has not said (undefined), nothing is refused. */
function acpImagesRefusal(capabilities: { image?: boolean } | undefined, profile: CliProfile): string | null {
  return capabilities === undefined || capabilities.image === true ? null : imagesRefused(profile.displayName);
}

function acpKey(launch: Pick<AgentLaunch, "conversation">, agent: Extract<LaunchAgent, { kind: "cli" }>, profile: CliProfile, command: string): string {
  return JSON.stringify([launch.conversation.id, command, acpArgs(agent, profile), agent.env]);
}

function acpArgs(agent: Extract<LaunchAgent, { kind: "cli" }>, profile: CliProfile): string[] {
  return [...(userArgumentsOf(profile, agent.choice.cliArgs, agent.choice.cliExtraArgs) ?? profile.defaultArgs)];
}

function clip(text: string): string {
  return text.length > MAX_TRACED_LINE_CHARS ? `${text.slice(0, MAX_TRACED_LINE_CHARS)}… (${text.length.toLocaleString("en-US")} characters)` : text;
}
