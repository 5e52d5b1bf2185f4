// The return path of a stream CLI that asks for permission in its output (Claude Code's `--permission-prompt-tool
// stdio`): each request is answered through the conversation's permission desk, shown in the turn as the desk's
// events, and its one answer written on the CLI's stdin. A request the CLI withdraws is answered `cancelled` on the
// card and nothing is written. Without a desk nobody can be asked, so every request is refused at once.
import * as path from "node:path";
import type { PermissionDesk } from "../permissions/permission-desk";
import type { ChannelMessage, PermissionChannel, ProposedEdit } from "../permissions/permission-channel";
import { cancelledDecision, type PermissionDecision, type PermissionEvent } from "../permissions/permission-request";
import { permissionAnsweredPayload, permissionRequestedPayload } from "../dialects/permission-events";
import type { CliEventType, CliStreamEvent, EventOfType } from "../protocol/events";
import type { ToolDiff } from "../protocol/transcript";
import { PROTOCOL_VERSION } from "../protocol/version";
import { textBeforeEdit } from "./file-before-edit";

export interface StreamPermissionsOptions {
  channel: PermissionChannel;
  /** The conversation's desk; undefined: nobody to ask (every request is refused). */
  desk: PermissionDesk | undefined;
  /** Shows an event in the turn. */
  show(event: CliStreamEvent): void;
  /** The session's id as the CLI last said it, for the events' envelope. */
  sessionId(): string;
  /** Writes one line to the CLI's stdin; false once it is closed. */
  writeLine(line: string): boolean;
  /** Where a relative path in a request is read from. */
  cwd: string | undefined;
  /** Whether a request is waiting: silence is then the user's, not the CLI's. */
  onWaiting(waiting: boolean): void;
  log?(message: string): void;
  now?(): number;
}

type Request = Extract<ChannelMessage, { type: "request" }>;

interface OpenRequest {
  /** Aborted when the CLI withdraws the request, or the run ends. */
  readonly withdrawn: AbortController;
  readonly answered: Promise<void>;
}

export class StreamPermissions {
  private readonly open = new Map<string, OpenRequest>();
  private accepting = true;

  constructor(private readonly options: StreamPermissionsOptions) {}

  /** Whether the value was a line of the permission channel (then it is handled here). */
  read(value: unknown): boolean {
    const message = this.options.channel.read(value, this.options.cwd ?? process.cwd());
    if (message === undefined) return false;
    if (message.type === "withdrawn") this.open.get(message.id)?.withdrawn.abort();
    else this.ask(message);
    return true;
  }

  /**
   * Stop, close: no request is shown any more, and every open one is answered (refused) on stdin before the caller
   * interrupts the CLI. Resolves once each answer is written.
   */
  async closeAll(): Promise<void> {
    this.accepting = false;
    this.options.desk?.cancelAll();
    for (const request of this.open.values()) request.withdrawn.abort();
    await Promise.all([...this.open.values()].map((request) => request.answered));
  }

  /**
   * The run is over (the CLI exited, or is killed): nothing can be answered any more. Resolves once every open request's
   * card has its answer, so that the turn's `done` comes after it.
   */
  async dispose(): Promise<void> {
    this.accepting = false;
    for (const request of this.open.values()) request.withdrawn.abort();
    await Promise.all([...this.open.values()].map((request) => request.answered));
  }

  private ask(request: Request): void {
    if (this.open.has(request.id)) {
      this.options.log?.(`permission request ${JSON.stringify(request.id)} asked twice; the second is ignored`);
      return;
    }
    const withdrawn = new AbortController();
    const answered = this.answer(request, withdrawn.signal).finally(() => {
      this.open.delete(request.id);
      this.options.onWaiting(this.open.size > 0);
    });
    this.open.set(request.id, { withdrawn, answered });
    this.options.onWaiting(true);
  }

  private async answer(request: Request, withdrawn: AbortSignal): Promise<void> {
    const desk = this.options.desk;
    await this.showDiffs(request);
    const decision: PermissionDecision =
      desk === undefined || !this.accepting
        ? cancelledDecision()
        : await desk.ask(request.question, { show: (event) => this.showDesk(event), accepting: () => this.accepting && !withdrawn.aborted, agentSignal: withdrawn });
    if (desk === undefined) this.options.log?.(`permission request for ${request.question.title} refused: nobody to ask in this run`);
    // A withdrawn request wants no answer: the CLI has already ended the call.
    if (withdrawn.aborted && this.accepting) return;
    this.options.writeLine(`${request.answer(decision)}\n`);
    if (desk !== undefined && decision.outcome === "selected" && decision.optionKind === "allow_always") desk.keepAgentRules(request.sessionRules);
  }

  /**
   * The call's kind and its diff from the file on disk, on its tool card, before the question is shown: the card shows
   * what the call will do by them (the command, the diff with Open Diff).
   */
  private async showDiffs(request: Request): Promise<void> {
    const { toolCallId, toolKind } = request.question;
    // A request this version could not read names no tool call of the stream: there is no card to tell.
    if (toolKind === "other" && request.edits.length === 0) return;
    const diffs = (await Promise.all(request.edits.map((edit) => this.diffOf(edit)))).flatMap((diff) => (diff === undefined ? [] : [diff]));
    this.emit("tool_updated", { toolId: toolCallId, kind: toolKind, ...(diffs.length > 0 ? { diffs } : {}) });
  }

  private async diffOf(edit: ProposedEdit): Promise<ToolDiff | undefined> {
    const oldText = await textBeforeEdit(path.resolve(this.options.cwd ?? process.cwd(), edit.path));
    if (oldText === undefined) return undefined;
    const newText = edit.newTextOf(oldText);
    return newText === undefined ? undefined : { path: edit.path, oldText, newText };
  }

  private showDesk(event: PermissionEvent): void {
    if (event.type === "permission_requested") this.emit("permission_requested", permissionRequestedPayload(event.request));
    else this.emit("permission_answered", permissionAnsweredPayload(event.requestId, event.decision));
  }

  private emit<T extends CliEventType>(type: T, payload: EventOfType<T>["payload"]): void {
    const timestamp = (this.options.now ?? Date.now)();
    this.options.show({ protocol: PROTOCOL_VERSION, type, sessionId: this.options.sessionId(), timestamp, payload } as EventOfType<T>);
  }
}
