// Starts the agent for one prompt, as the settings say: the CLI and its profile, or the built-in agent. Logs each
// run to the Output channel (its command line, problems, a failed run's stderr), escaped so that stream text can
// never forge a log line.
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { AcpConversation } from "../acp/acp-conversation";
import { savedAcpSession, sessionToContinue } from "../acp/saved-session";
import { outsideWorkspace } from "../acp/workspace-files";
import { PermissionDesk } from "../permissions/permission-desk";
import type { AutoAnswerPolicy } from "../permissions/permission-policy";
import { createAdapter } from "../dialects/registry";
import type { Run, RunRequest } from "../panel/conversation";
import { ByteTail } from "../process/byte-tail";
import type { SessionChange } from "../protocol/messages";
import type { Transcript } from "../protocol/transcript";
import { escapeForLog, logLines } from "../protocol/visible-text";
import { builtinAgentCommand } from "../profiles/builtin-agent-profile";
import { acpTransportOf, type CliProfile, type ConversationKey } from "../profiles/cli-profile";
import { agentCommand, resolveCli, type AgentCommand } from "../profiles/profile-registry";
import { LiveSession } from "../session/live-session";
import type { ConversationStore } from "./conversation-store";
import { EditorFiles } from "./editor-files";
import type { AgentSettings } from "./settings-values";

/** Raw lines longer than this are cut in the trace log (the panel still gets all of them). */
const MAX_TRACED_LINE_CHARS = 4000;
/** How much of a CLI's stderr the log keeps for a failed run. */
const STDERR_TAIL_BYTES = 8 * 1024;

export class AgentRunner implements vscode.Disposable {
  /** How many of the ACP agent's permission requests wait for the user's answer (on their cards, or notifications). */
  readonly permissions: { readonly count: number };
  private readonly onPermissionsWaiting: (count: number) => void;
  /** The warm ACP agent of the chat's conversation: one process for all its turns. */
  private acp: { key: string; conversation: AcpConversation } | undefined;
  /** `agentStream.acp.autoApprove` as of the last prompt; one object, shared with the warm agent. */
  private readonly autoApprove: AutoAnswerPolicy = {};

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly store: ConversationStore,
    onPermissionsWaiting: (count: number) => void = () => {},
  ) {
    const waiting = { count: 0 };
    this.permissions = waiting;
    this.onPermissionsWaiting = (count) => {
      waiting.count = count;
      onPermissionsWaiting(count);
    };
  }

  start(settings: AgentSettings, request: RunRequest): Run {
    const { profile, command } = resolveCli(settings);
    if (!settings.useBuiltinAgent && acpTransportOf(profile) !== undefined) return this.startAcp(settings, request, profile, command);
    return this.startCli(settings, request);
  }

  /** New Session: the warm agent and everything it started end now; open requests end cancelled. */
  endConversation(): void {
    this.stopAgent();
    // A new conversation never continues the agent's old session, not even after a reload.
    this.store.saveAcpSession(null);
  }

  private stopAgent(): void {
    void this.acp?.conversation.dispose();
    this.acp = undefined;
  }

  dispose(): void {
    this.acp?.conversation.kill();
    this.acp = undefined;
  }

  /** An ACP agent: the chat's conversation keeps one warm agent process and one ACP session for all its turns. */
  private startAcp(settings: AgentSettings, request: RunRequest, profile: CliProfile, command: string): Run {
    const args = settings.cliArgs ?? [...profile.defaultArgs];
    const key = JSON.stringify([request.conversation.id, command, args, settings.cliEnv]);
    // The warm agent reads the rules at each request: a changed setting holds from the next prompt on, without a
    // restart that would lose the agent's conversation.
    for (const kind of Object.keys(this.autoApprove)) delete this.autoApprove[kind as keyof AutoAnswerPolicy];
    Object.assign(this.autoApprove, settings.autoApprove);
    if (this.acp?.key !== key) {
      this.stopAgent();
      const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
      const transport = acpTransportOf(profile);
      const log = this.log;
      const conversation = new AcpConversation({
        command,
        args,
        env: { ...process.env, ...settings.cliEnv },
        // Without a folder the agent starts in the home folder, but every file is outside the workspace: it may read
        // and write nothing, and only the user may allow a request that names a file.
        workspaceRoots: folders,
        cwd: folders[0] ?? os.homedir(),
        files: new EditorFiles(folders, log),
        // The conversation's desk. No `decide`: a request waits for the user's answer by its id, from its card or
        // notification (the run's `answer`).
        permissions: new PermissionDesk({
          policy: this.autoApprove,
          outsideWorkspace: (paths) => outsideWorkspace(paths, folders),
          log: (m) => log.warn(escapeForLog(m)),
          onWaiting: this.onPermissionsWaiting,
        }),
        chooseAuthMethod: (methods) => transport?.authMethods.find((id) => methods.some((method) => method.id === id)),
        modeRule: transport?.modes,
        log: { trace: (m) => log.trace(escapeForLog(m)), problem: (m) => log.warn(escapeForLog(m)), info: (m) => log.info(escapeForLog(m)) },
        // After a window reload, the conversation's follow-up continues the agent's session when it can load one.
        savedSessionId: sessionToContinue(this.store.acpSession(), { conversation: request.conversation, command, args }),
        onSession: (sessionId, continued) => {
          this.store.saveAcpSession(savedAcpSession({ conversation: request.conversation, command, args }, sessionId));
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
      this.acp = { key, conversation };
      log.info(escapeForLog(`ACP agent: ${[command, ...args].join(" ")} (profile ${profile.name}, conversation ${request.conversation.id})`));
    }
    const conversation = this.acp.conversation;
    const run = conversation.prompt([{ type: "text", text: request.prompt }], { onChange: this.loggedChanges(request) });
    void run.finished.then((transcript) => this.logDone(transcript));
    return {
      session: run.session,
      finished: run.finished,
      stop: () => run.stop(),
      kill: () => conversation.kill(),
      answer: (requestId, optionId) => run.answer(requestId, optionId),
    };
  }

  private startCli(settings: AgentSettings, request: RunRequest): LiveSession {
    const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
    const stderr = new ByteTail(STDERR_TAIL_BYTES);
    const log = this.log;
    const agent = this.agentCommand(settings, request);
    const live = LiveSession.start({
      adapter: createAdapter(agent.dialect),
      maxLineBytes: settings.maxLineBytes,
      process: { command: agent.command, args: agent.args, env: agent.env, input: agent.input, cwd, inactivityTimeoutMs: settings.inactivityTimeoutMs },
      isRunOver: agent.isRunOver,
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
  private loggedChanges(request: RunRequest): (change: SessionChange) => void {
    return (change) => {
      // Stream text reaches the log escaped, one log line at most per stream line: it cannot forge log lines.
      if (change.kind === "problem") this.log.warn(escapeForLog(`line ${change.problem.line ?? "?"}: ${change.problem.code} ${change.problem.message}`));
      request.onChange(change);
    };
  }

  private logDone(transcript: Transcript): void {
    this.log.info(`done: ${transcript.status}, exit code ${transcript.done.exitCode}, ${transcript.done.durationMs} ms`);
  }

  /** The agent CLI from settings and its profile, or the built-in agent run by this extension host's own Node. */
  private agentCommand(settings: AgentSettings, request: RunRequest): AgentCommand & { env: NodeJS.ProcessEnv; description: string } {
    const conversation = this.conversationKey(request);
    if (settings.useBuiltinAgent) return { ...builtinAgentCommand(this.context.extensionPath, request.prompt, conversation), description: "built-in agent" };
    const agent = agentCommand(settings, request.prompt, conversation);
    const continues = request.conversation.continues ? `, continuing conversation ${request.conversation.id}` : "";
    return { ...agent, env: { ...process.env, ...settings.cliEnv }, description: `profile ${agent.profile.name}, dialect ${agent.dialect}${continues}` };
  }

  private conversationKey(request: RunRequest): ConversationKey {
    // Where pi keeps the conversation's session file (pi makes the folder); other CLIs keep theirs themselves.
    return { ...request.conversation, stateDir: path.join(this.context.globalStorageUri.fsPath, "cli-conversations") };
  }
}

function clip(text: string): string {
  return text.length > MAX_TRACED_LINE_CHARS ? `${text.slice(0, MAX_TRACED_LINE_CHARS)}… (${text.length.toLocaleString("en-US")} characters)` : text;
}
