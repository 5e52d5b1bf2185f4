// Starts the agent for one prompt, as the settings say: the CLI and its profile, or the built-in agent. Logs each
// run to the Output channel (its command line, problems, a failed run's stderr), escaped so that stream text can
// never forge a log line.
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { AcpConversation } from "../acp/acp-conversation";
import { outsideWorkspace } from "../acp/workspace-files";
import { PermissionDesk } from "../permissions/permission-desk";
import type { AutoAnswerPolicy } from "../permissions/permission-policy";
import { createAdapter } from "../dialects/registry";
import type { SessionRunRequest } from "../panel/chat-session";
import type { Run } from "../panel/conversation";
import { failingError } from "../common/turn-failure";
import { ByteTail } from "../process/byte-tail";
import type { SessionChange } from "../protocol/messages";
import type { AgentIdentity } from "../protocol/sessions";
import type { Transcript } from "../protocol/transcript";
import { escapeForLog, logLines } from "../protocol/visible-text";
import { BUILTIN_AGENT_PROFILE, profileSettingOf } from "../profiles/agent-identity";
import { builtinAgentCommand } from "../profiles/builtin-agent-profile";
import { acpTransportOf, type CliProfile, type ConversationKey } from "../profiles/cli-profile";
import { agentCommand, resolveCli, type AgentCommand } from "../profiles/profile-registry";
import { runEnvironment } from "../session/error-cause";
import { LiveSession } from "../session/live-session";
import { EditorFiles } from "./editor-files";
import type { AgentSettings } from "./settings-values";

/** Raw lines longer than this are cut in the trace log (the panel still gets all of them). */
const MAX_TRACED_LINE_CHARS = 4000;
/** How much of a CLI's stderr the log keeps for a failed run. */
const STDERR_TAIL_BYTES = 8 * 1024;

export class AgentRunner implements vscode.Disposable {
  /** How many permission requests of the sessions' ACP agents wait for the user's answer (on cards, or notifications). */
  readonly permissions: { readonly count: number };
  /** Each session's desk's count of waiting requests: the sum is `permissions.count`. */
  private readonly waitingBySession = new Map<string, number>();
  /** The warm ACP agent of each session: one process for all the turns of a session, and its own for each session. */
  private readonly acp = new Map<string, { key: string; conversation: AcpConversation }>();
  /** `agentStream.acp.autoApprove` as of the last prompt; one object, shared with the warm agent. */
  private readonly autoApprove: AutoAnswerPolicy = {};

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    onPermissionsWaiting: (count: number) => void = () => {},
  ) {
    const waiting = { count: 0 };
    this.permissions = waiting;
    this.countWaiting = () => {
      waiting.count = [...this.waitingBySession.values()].reduce((all, each) => all + each, 0);
      onPermissionsWaiting(waiting.count);
    };
  }

  private readonly countWaiting: () => void;

  /** Runs the session's own agent: the settings give only what is not the agent's (its env, timeouts, approvals). */
  start(current: AgentSettings, request: SessionRunRequest): Run {
    const settings = settingsForAgent(current, request.agent);
    const { profile, command } = resolveCli(settings);
    if (!settings.useBuiltinAgent && acpTransportOf(profile) !== undefined) return this.startAcp(settings, request, profile, command);
    return this.startCli(settings, request);
  }

  /** The session was deleted: its warm agent and everything it started end now; open requests end cancelled. */
  endSession(sessionId: string): void {
    void this.acp.get(sessionId)?.conversation.dispose();
    this.acp.delete(sessionId);
    if (this.waitingBySession.delete(sessionId)) this.countWaiting();
  }

  dispose(): void {
    for (const { conversation } of this.acp.values()) conversation.kill();
    this.acp.clear();
  }

  /** An ACP agent: each session keeps one warm agent process and one ACP session for all its turns. */
  private startAcp(settings: AgentSettings, request: SessionRunRequest, profile: CliProfile, command: string): Run {
    const args = settings.cliArgs ?? [...profile.defaultArgs];
    const key = JSON.stringify([request.conversation.id, command, args, settings.cliEnv]);
    const sessionId = request.sessionId;
    const warm = this.acp.get(sessionId);
    // The warm agent reads the rules at each request: a changed setting holds from the next prompt on, without a
    // restart that would lose the agent's conversation.
    for (const kind of Object.keys(this.autoApprove)) delete this.autoApprove[kind as keyof AutoAnswerPolicy];
    Object.assign(this.autoApprove, settings.autoApprove);
    let agent = warm?.key === key ? warm.conversation : undefined;
    if (agent === undefined) {
      this.endSession(request.sessionId);
      const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
      const transport = acpTransportOf(profile);
      const log = this.log;
      agent = new AcpConversation({
        command,
        args,
        env: { ...process.env, ...settings.cliEnv },
        environment: runEnvironment({ ...process.env, ...settings.cliEnv }, profile.login.apiKeyVariables),
        // Without a folder the agent starts in the home folder, but every file is outside the workspace: it may read
        // and write nothing, and only the user may allow a request that names a file.
        workspaceRoots: folders,
        cwd: folders[0] ?? os.homedir(),
        files: new EditorFiles(folders, log),
        // The session's own desk. No `decide`: a request waits for the user's answer by its id, from its card or
        // notification (the run's `answer`).
        permissions: new PermissionDesk({
          policy: this.autoApprove,
          outsideWorkspace: (paths) => outsideWorkspace(paths, folders),
          log: (m) => log.warn(escapeForLog(m)),
          onWaiting: (count) => {
            this.waitingBySession.set(sessionId, count);
            this.countWaiting();
          },
        }),
        chooseAuthMethod: (methods) => transport?.authMethods.find((id) => methods.some((method) => method.id === id)),
        modeRule: transport?.modes,
        log: { trace: (m) => log.trace(escapeForLog(m)), problem: (m) => log.warn(escapeForLog(m)), info: (m) => log.info(escapeForLog(m)) },
        // After a window reload (or opening a stored session), a follow-up continues the agent's session when it can.
        savedSessionId: request.conversation.continues ? (request.acpSessionId ?? undefined) : undefined,
        onAgentState: (update) => request.onAgentState(update),
        onSession: (sessionId, continued) => {
          request.onAcpSession(sessionId);
          if (continued !== "new") log.info(escapeForLog(`continued the agent's session ${sessionId} (${continued})`));
        },
        idleStopMs: settings.acpIdleStopMs,
        // Every run's inactivity timeout; for an ACP agent only mid-turn, and not while a permission card waits.
        inactivityTimeoutMs: settings.inactivityTimeoutMs,
        maxLineBytes: settings.maxLineBytes,
        onStderr: (chunk) => {
          for (const line of logLines(chunk.toString("utf8").trimEnd())) log.trace(`stderr: ${line}`);
        },
      });
      this.acp.set(request.sessionId, { key, conversation: agent });
      log.info(escapeForLog(`ACP agent: ${[command, ...args].join(" ")} (profile ${profile.name}, session ${request.sessionId})`));
    }
    const warmAgent = agent;
    const run = warmAgent.prompt([{ type: "text", text: request.prompt }], { onChange: this.loggedChanges(request) });
    void run.finished.then((transcript) => this.logDone(transcript));
    return {
      session: run.session,
      finished: run.finished,
      stop: () => run.stop(),
      kill: () => warmAgent.kill(),
      answer: (requestId, optionId) => run.answer(requestId, optionId),
    };
  }

  private startCli(settings: AgentSettings, request: SessionRunRequest): LiveSession {
    const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
    const stderr = new ByteTail(STDERR_TAIL_BYTES);
    const log = this.log;
    const agent = this.agentCommand(settings, request);
    const live = LiveSession.start({
      adapter: createAdapter(agent.dialect),
      maxLineBytes: settings.maxLineBytes,
      process: { command: agent.command, args: agent.args, env: agent.env, input: agent.input, cwd, inactivityTimeoutMs: settings.inactivityTimeoutMs },
      isRunOver: agent.isRunOver,
      environment: runEnvironment(agent.env, agent.profile.login.apiKeyVariables),
      onChange: this.loggedChanges(request),
      onStderr: (chunk) => {
        stderr.push(chunk);
        for (const line of logLines(chunk.toString("utf8").trimEnd())) log.trace(`stderr: ${line}`);
      },
      // Decided per run: formatting every line costs time only someone reading the trace should pay.
      onLine: log.logLevel === vscode.LogLevel.Trace ? (text, line) => log.trace(`line ${line}: ${escapeForLog(clip(text))}`) : undefined,
    });
    log.info(escapeForLog(`run: ${live.commandLine} (in ${cwd}, ${agent.description})`));
    void live.finished.then((transcript) => {
      this.logDone(transcript);
      const tail = stderr.text().trimEnd();
      if (transcript.status !== "failed" || tail === "") return;
      log.warn(`stderr of the failed run (last ${STDERR_TAIL_BYTES / 1024} KiB):`);
      for (const line of logLines(tail)) log.warn(`stderr: ${line}`);
    });
    return live;
  }

  /** The run's changes for the chat; problems also go to the log. */
  private loggedChanges(request: SessionRunRequest): (change: SessionChange) => void {
    return (change) => {
      // Stream text reaches the log escaped, one log line at most per stream line: it cannot forge log lines.
      if (change.kind === "problem") this.log.warn(escapeForLog(`line ${change.problem.line ?? "?"}: ${change.problem.code} ${change.problem.message}`));
      request.onChange(change);
    };
  }

  private logDone(transcript: Transcript): void {
    this.log.info(`done: ${transcript.status}, exit code ${transcript.done.exitCode}, ${transcript.done.durationMs} ms`);
    // What the card says of a failure (its cause, the agent's last stderr lines), for whoever reads the log instead.
    const error = transcript.status === "failed" ? failingError(transcript) : null;
    if (error !== null) for (const line of logLines(`${error.code}: ${error.message}`)) this.log.warn(line);
  }

  /** The agent CLI from settings and its profile, or the built-in agent run by this extension host's own Node. */
  private agentCommand(settings: AgentSettings, request: SessionRunRequest): AgentCommand & { env: NodeJS.ProcessEnv; description: string } {
    const conversation = this.conversationKey(request);
    if (settings.useBuiltinAgent) return { ...builtinAgentCommand(this.context.extensionPath, request.prompt, conversation), description: "built-in agent" };
    const agent = agentCommand(settings, request.prompt, conversation);
    const continues = request.conversation.continues ? `, continuing conversation ${request.conversation.id}` : "";
    return { ...agent, env: { ...process.env, ...settings.cliEnv }, description: `profile ${agent.profile.name}, dialect ${agent.dialect}${continues}` };
  }

  private conversationKey(request: SessionRunRequest): ConversationKey {
    // Where pi keeps the conversation's session file (pi makes the folder); other CLIs keep theirs themselves.
    return { ...request.conversation, stateDir: path.join(this.context.globalStorageUri.fsPath, "cli-conversations") };
  }
}

function clip(text: string): string {
  return text.length > MAX_TRACED_LINE_CHARS ? `${text.slice(0, MAX_TRACED_LINE_CHARS)}… (${text.length.toLocaleString("en-US")} characters)` : text;
}

/** The settings as they apply to a session: its own agent (fixed when it was created) in place of the settings' one. */
export function settingsForAgent(settings: AgentSettings, agent: AgentIdentity): AgentSettings {
  if (agent.profile === BUILTIN_AGENT_PROFILE) return { ...settings, useBuiltinAgent: true };
  return { ...settings, useBuiltinAgent: false, cliPath: agent.command, cliArgs: agent.args === null ? null : [...agent.args], cliProfile: profileSettingOf(agent.profile) };
}
