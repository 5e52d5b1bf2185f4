// One running ACP agent: the process (through CliProcess, so Stop, cleanup and signal escalation are the same as for
// every other CLI) and the SDK connection over its stdio. Knows nothing of turns or sessions.
import * as acp from "@agentclientprotocol/sdk";
import { CliProcess, type CliExit } from "../process/cli-process";
import { AgentWire, type AgentWireHandlers } from "./agent-wire";

export interface AgentProcessOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  stopGraceMs?: number;
  killGraceMs?: number;
  maxLineBytes?: number;
}

export interface AgentProcessHandlers extends AgentWireHandlers {
  onStderr?(chunk: Buffer): void;
  /** Every chunk the agent writes on stdout: what a turn's inactivity timeout watches. */
  onActivity?(): void;
  /** Exactly once, after all stdout was handed on and the process tree is gone. */
  onExit(exit: CliExit): void;
}

export class AgentProcess {
  readonly connection: acp.ClientConnection;
  /** Settles with the one exit. */
  readonly exited: Promise<CliExit>;
  private readonly cli: CliProcess;
  private readonly wire: AgentWire;
  private exit: CliExit | undefined;

  constructor(app: acp.ClientApp, options: AgentProcessOptions, handlers: AgentProcessHandlers) {
    let settle: (exit: CliExit) => void = () => {};
    this.exited = new Promise((resolve) => (settle = resolve));
    const wire = new AgentWire((line) => this.cli.writeInput(line), handlers, options.maxLineBytes);
    this.wire = wire;
    this.cli = CliProcess.start(
      {
        command: options.command,
        args: options.args,
        cwd: options.cwd,
        env: options.env,
        // The process stays warm between turns, silent: the idle stop ends it then; the connection times turns itself.
        inactivityTimeoutMs: 0,
        stopGraceMs: options.stopGraceMs,
        killGraceMs: options.killGraceMs,
        // stdin stays open for JSON-RPC; Stop's in-band step (session/cancel) is sent by the connection itself.
        input: { initial: "" },
      },
      {
        onStdout: (chunk) => {
          handlers.onActivity?.();
          wire.push(chunk);
        },
        onStderr: handlers.onStderr,
        onExit: (exit) => {
          this.exit = exit;
          // Closing the SDK's input after everything read so far: a prompt answered just before the exit still counts.
          wire.end();
          settle(exit);
          handlers.onExit(exit);
        },
      },
    );
    this.connection = app.connect(wire.stream);
  }

  get pid(): number | undefined {
    return this.cli.pid;
  }

  get commandLine(): string {
    return this.cli.commandLine;
  }

  /** Our answers and requests the agent has not read from its stdin yet, in bytes: those on their way to it too. */
  get unreadInputBytes(): number {
    return this.cli.unreadInputBytes + this.wire.answersOnTheirWay;
  }

  /** An answer of about `bytes` to the agent's request `id` was served: see AgentWire.reserveAnswer. */
  reserveAnswer(id: string | number, bytes: number): void {
    this.wire.reserveAnswer(id, bytes);
  }

  /** The exit, once the process tree is gone. */
  get exitReport(): CliExit | undefined {
    return this.exit;
  }

  /** Backpressure: the agent's stdout is not read until resume(); the agent blocks once the pipe is full. */
  pause(): void {
    this.cli.pause();
  }

  resume(): void {
    this.cli.resume();
  }

  /** SIGINT to the whole group, then SIGTERM, then SIGKILL; settles with the one exit. */
  stop(): Promise<CliExit> {
    return this.cli.stop();
  }

  /**
   * Between turns: closes the agent's stdin, the end of the connection, so it can save its session and exit on its
   * own; the signal escalation follows only if it is still there after `graceMs`. Settles with the one exit.
   */
  close(graceMs: number): Promise<CliExit> {
    this.cli.endInput();
    const timer = setTimeout(() => void this.cli.stop(), graceMs);
    return this.exited.finally(() => clearTimeout(timer));
  }

  /** Window close or deactivation: SIGKILL to the whole group at once. */
  kill(): void {
    this.cli.kill();
  }
}
