// A session fed by a running CLI: owns the process for its whole life and ends with exactly one `done`.
import { stderrExcerpt, withStderrExcerpt } from "../common/stderr-excerpt";
import type { AdapterOutput, DialectAdapter } from "../dialects/dialect";
import type { CliStreamEvent } from "../protocol/events";
import { CliProcess, type CliInput, type CliProcessOptions, type MidTurnInput } from "../process/cli-process";
import type { Transcript } from "../protocol/transcript";
import { EventDecoder } from "../stream/event-decoder";
import { formatDuration } from "../common/duration";
import { Session, type SessionOptions } from "./session";
import { inactivityTimeoutMessage } from "./run-limits";
import { createSessionFeed } from "./session-feed";
import { StreamPermissions } from "./stream-permissions";
import type { PermissionChannel } from "../permissions/permission-channel";
import type { PermissionDesk } from "../permissions/permission-desk";
import type { ChoiceOutcome } from "../protocol/agent-state";
import type { ChannelCommand, ChannelModel, ChannelSetting, SettingsChannel } from "../protocol/settings-channel";
import { StreamSettings } from "./stream-settings";

export interface LiveSessionOptions extends Omit<SessionOptions, "dialect"> {
  process: CliProcessOptions;
  adapter: DialectAdapter;
  maxLineBytes?: number;
  onStderr?: (chunk: Buffer) => void;
  /** Every stdout line as read, before decoding; leave unset unless someone reads it (it costs per line). */
  onLine?: (text: string, lineNumber: number) => void;
  /**
   * For a CLI that reads its prompt on stdin (`process.input`): whether this parsed value of its stream ends the
   * run, after which its stdin is closed so that it exits.
   */
  isRunOver?: (value: unknown) => boolean;
  /**
   * For a CLI that asks for permission in its output and reads the answer on stdin (`process.input`): how its lines
   * are read and answered. Each request goes to `permissions`; without a desk, each is refused.
   */
  permissionChannel?: PermissionChannel;
  /** The conversation's permission desk. */
  permissions?: PermissionDesk;
  /** For a CLI that takes a change of its mode or model mid-run on stdin (`process.input`): how it is asked. */
  settingsChannel?: SettingsChannel;
  /** The CLI said it now has this mode or model (by `settingsChannel`). */
  onSettingSaid?(setting: ChannelSetting, value: string): void;
  /** The CLI answered with the slash commands it takes, described, and the models it offers (by `settingsChannel`, asked before the prompt). */
  onCommandsSaid?(commands: ChannelCommand[], models: ChannelModel[]): void;
  /** For the desk's refusals nobody sees otherwise. */
  log?: (message: string) => void;
}

export class LiveSession {
  readonly session: Session;
  /** Settles once the process tree is gone and the session has its `done`. */
  readonly finished: Promise<Transcript>;
  private readonly process: CliProcess;
  private readonly permissionRequests: StreamPermissions | undefined;
  private readonly desk: PermissionDesk | undefined;
  private readonly settings: StreamSettings | undefined;
  /** Shows a failure held for the CLI's stderr now: we are about to stop the CLI, and must not lose it. */
  private readonly releaseFailure: () => void;
  /** Where the run is in taking the messages written to it mid-turn (only a CLI whose input has `steer`). */
  private readonly runEnd: RunEnd;
  private readonly processInput: CliInput | undefined;

  private constructor(options: LiveSessionOptions) {
    const { process: processOptions, adapter, maxLineBytes, onStderr, onLine, isRunOver, permissionChannel, permissions, settingsChannel, onSettingSaid, onCommandsSaid, log, ...sessionOptions } = options;
    this.session = new Session({ ...sessionOptions, dialect: () => adapter.dialect });
    this.desk = permissions;
    this.permissionRequests =
      permissionChannel === undefined
        ? undefined
        : new StreamPermissions({
            channel: permissionChannel,
            desk: permissions,
            show: (event) => this.session.acceptEvent(event, null),
            sessionId: () => this.session.sessionId ?? "",
            writeLine: (line) => this.process.writeInput(line),
            cwd: processOptions.cwd,
            onWaiting: (waiting) => this.process.setWaitingForUser(waiting),
            log,
          });
    this.settings = settingsChannel === undefined ? undefined : new StreamSettings(settingsChannel, (line) => this.process.writeInput(line), onSettingSaid, onCommandsSaid);
    const settled = this.settings === undefined ? adapter : takingLines(adapter, this.settings);
    const answered = this.permissionRequests === undefined ? settled : takingLines(settled, this.permissionRequests);
    this.processInput = processOptions.input;
    this.runEnd = new RunEnd(isRunOver, processOptions.input?.steer, () => this.process.endInput());
    const watched = isRunOver === undefined ? answered : watchingForRunEnd(answered, this.runEnd);
    let stderrAtExit = "";
    // A failure is held for the CLI's stderr (its last lines go on the card), shown at once on Stop or timeout.
    const failure = withStderrOnFailure(watched, () => stderrAtExit);
    this.releaseFailure = () => failure.release();
    const feed = createSessionFeed(this.session, new EventDecoder(failure.adapter), maxLineBytes, onLine);
    let settle: (transcript: Transcript) => void = () => {};
    this.finished = new Promise((resolve) => (settle = resolve));
    this.session.begin();
    const timeout = formatDuration(processOptions.inactivityTimeoutMs ?? 0);
    // The question about the CLI's commands goes in the same write as the prompt, ahead of it (as the Claude Agent SDK asks).
    const opening = this.settings?.openingLines() ?? "";
    const input = processOptions.input === undefined || opening === "" ? processOptions.input : { ...processOptions.input, initial: opening + processOptions.input.initial };
    this.process = CliProcess.start({ ...processOptions, input }, {
      onStdout: (chunk) => feed.push(chunk),
      onStderr,
      onInactivityTimeout: () => {
        this.releaseFailure();
        this.session.stopRequested("timeout", inactivityTimeoutMessage(timeout));
      },
      onExit: (exit) => {
        stderrAtExit = exit.stderrTail;
        this.settings?.close();
        const ended = () => {
          feed.end({ exitCode: exit.exitCode, signal: exit.signal });
          this.session.processEnded(exit);
          settle(this.session.toTranscript());
        };
        // A request's card may still be on its way (its diff read from disk): it belongs before the turn's end.
        if (this.permissionRequests === undefined) ended();
        else void this.permissionRequests.dispose().then(ended);
      },
    });
  }

  static start(options: LiveSessionOptions): LiveSession {
    return new LiveSession(options);
  }

  get commandLine(): string {
    return this.process.commandLine;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /** The user's Stop: the session ends as canceled and the whole process tree is ended. */
  async stop(): Promise<Transcript> {
    this.releaseFailure();
    this.session.stopRequested("user");
    // A request still waiting is refused first: the CLI then takes its interrupt, not an answer it no longer expects.
    await this.permissionRequests?.closeAll();
    await this.process.stop();
    return this.finished;
  }

  /**
   * A message for the running turn, written on the CLI's stdin, and `shown` in the turn where it was sent (the user's
   * words, without the editor context the agent gets); false when the CLI takes none mid-turn, or its run is over
   * (stdin closed), or the session has ended.
   */
  steer(text: string, shown = text): boolean {
    const steer = this.processInput?.steer;
    if (steer === undefined || this.runEnd.over || this.session.finalStatus !== null) return false;
    if (!this.process.writeInput(steer.line(text))) return false;
    this.runEnd.wrote();
    this.session.noteSteer(shown);
    return true;
  }

  /**
   * How many of the last messages steered into the run its CLI never took: pi leaves one that came after it decided
   * to end in its queue, and it is gone with pi; a Stop or a crash can come before the CLI took one. Known once the
   * run has ended; the caller sends them again.
   */
  untakenSteers(): number {
    return this.runEnd.over ? this.runEnd.untaken : this.runEnd.waiting();
  }

  /** Window closing: no grace periods. */
  kill(): void {
    this.releaseFailure();
    this.session.stopRequested("user");
    void this.permissionRequests?.dispose();
    this.process.kill();
  }

  /**
   * The user's answer to one of the run's waiting permission requests, by the desk's request id (an option it offers,
   * or null: dismissed). False when no such request waits.
   */
  answer(requestId: string, optionId: string | null): boolean {
    return this.desk?.answer(requestId, optionId) === "answered";
  }

  /**
   * The user changed the session's mode or model during the run: the CLI is asked now where it takes that on its stdin;
   * else (or once its turn is over) the change waits for the next run.
   */
  changeSetting(setting: ChannelSetting, value: string): Promise<ChoiceOutcome> {
    return this.settings?.change(setting, value) ?? Promise.resolve({ kind: "next-turn" });
  }

  pause(): void {
    this.process.pause();
  }

  resume(): void {
    this.process.resume();
  }
}

/**
 * The same adapter, with the lines `taker` claims (a permission channel's requests, the answers to a settings change)
 * taken by it instead: it reads and shows them itself.
 */
function takingLines(adapter: DialectAdapter, taker: { read(value: unknown): boolean }): DialectAdapter {
  return {
    get dialect() {
      return adapter.dialect;
    },
    decode(value, out) {
      if (!taker.read(value)) adapter.decode(value, out);
    },
    end: (out, ending) => adapter.end?.(out, ending),
  };
}

/** The same adapter, telling `runEnd` of every value. */
function watchingForRunEnd(adapter: DialectAdapter, runEnd: RunEnd): DialectAdapter {
  return {
    // The auto adapter's name changes once it recognised the stream.
    get dialect() {
      return adapter.dialect;
    },
    decode(value, out) {
      adapter.decode(value, out);
      runEnd.read(value);
    },
    end: (out, ending) => adapter.end?.(out, ending),
  };
}

/**
 * When a CLI that reads its messages on stdin is done with them, so its stdin can close. A value that ends its work
 * ends the run only once it took every message steered into it, where the CLI answers a late one: Claude answers a
 * message that arrives as its final answer streams with a turn (and a `result`) of its own after the first
 * (docs/protocols/claude-stream-json.md). A CLI that leaves a late one queued (pi) would never say more: the run ends,
 * and the messages it did not take are counted for the caller to send again.
 */
class RunEnd {
  over = false;
  /** The last steered messages the CLI had not taken when the run ended. */
  untaken = 0;
  /** Messages written to the CLI (its prompt, then each steered one) and how many its stream said it took. */
  private written = 1;
  private taken = 0;

  constructor(
    private readonly isRunOver: ((value: unknown) => boolean) | undefined,
    private readonly steer: MidTurnInput | undefined,
    private readonly onRunOver: () => void,
  ) {}

  wrote(): void {
    this.written++;
  }

  /** Steered messages the CLI has not said it took. A run nobody steered has none, whatever its stream says of its prompt. */
  waiting(): number {
    return this.written > 1 ? Math.max(0, Math.min(this.written - 1, this.written - this.taken)) : 0;
  }

  read(value: unknown): void {
    if (this.steer?.isTaken(value) === true) this.taken++;
    if (this.over || this.isRunOver?.(value) !== true) return;
    const waiting = this.waiting();
    if (waiting > 0 && this.steer?.lateMessage === "answered") return;
    this.untaken = waiting;
    this.over = true;
    this.onRunOver();
  }
}

/** Events held after a fatal error (a `done`, a few closing lines); past these they go on unheld. */
const MAX_HELD_EVENTS = 100;

/**
 * The same adapter, holding what follows a fatal error until the CLI has exited (one-shot CLIs exit right after it):
 * the error is then shown with the last lines of the CLI's stderr, which often say why when the error does not.
 * Claude's adapter holds its turn's end until the exit itself.
 */
function withStderrOnFailure(adapter: DialectAdapter, stderrAtExit: () => string): { adapter: DialectAdapter; release(): void } {
  let held: CliStreamEvent[] | null = null;
  let sink: AdapterOutput | undefined;
  const holding = (out: AdapterOutput): AdapterOutput => {
    sink = out;
    return {
      ...out,
      event: (event) => {
        if (held === null && !isFatalError(event)) out.event(event);
        else (held ??= []).push(event);
        // A CLI that goes on talking after its failure is not waited for: what it says is not held without end.
        if (held !== null && held.length > MAX_HELD_EVENTS) release("");
      },
    };
  };
  const release = (stderr: string) => {
    const events = held ?? [];
    held = null;
    for (const [index, event] of events.entries()) sink?.event(index === 0 && stderr !== "" ? withStderr(event, stderr) : event);
  };
  return {
    adapter: {
      get dialect() {
        return adapter.dialect;
      },
      decode: (value, out) => adapter.decode(value, holding(out)),
      end(out, ending) {
        adapter.end?.(holding(out), ending);
        release(ending === null ? "" : stderrExcerpt(stderrAtExit()));
      },
    },
    // Stop or a timeout while a failure waits for the exit: shown at once, as it came.
    release: () => release(""),
  };
}

function isFatalError(event: CliStreamEvent): boolean {
  return event.type === "error" && !event.payload.error.recoverable;
}

function withStderr(event: CliStreamEvent, stderr: string): CliStreamEvent {
  if (event.type !== "error") return event;
  const error = event.payload.error;
  return { ...event, payload: { ...event.payload, error: { ...error, message: withStderrExcerpt(error.message, stderr) } } };
}
