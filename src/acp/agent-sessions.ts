// An ACP agent's own sessions, asked of the agent without a turn: a short-lived agent process is started, initialized,
// asked (`session/list` for the Sessions view, `session/load` to show one) and closed. No session is created: only
// `initialize` and the one request are sent. Bounded in time: an agent that does not answer is stopped.
import * as acp from "@agentclientprotocol/sdk";
import type { InitializeRequest, InitializeResponse } from "@agentclientprotocol/sdk";
import { formatDuration } from "../common/duration";
import type { Turn } from "../protocol/messages";
import { realScheduler, type Scheduler } from "../process/scheduler";
import type { TurnSequenceLimits } from "../session/turn-sequence";
import { AgentProcess } from "./agent-process";
import { ReplayedTurns } from "./replayed-turns";
import { sessionListOf, type AcpListedSession, type ListingAgent } from "./session-list";

/** How long the agent gets to start and answer, in all. */
export const DEFAULT_VISIT_DEADLINE_MS = 60_000;
/** How long it gets to exit by itself once its stdin is closed, before the signals. */
const CLOSE_GRACE_MS = 2000;

export interface AgentVisitOptions {
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** The workspace folder: where the agent runs and whose sessions are asked for. */
  cwd: string;
  agent: ListingAgent;
  deadlineMs?: number;
  log?(message: string): void;
  scheduler?: Scheduler;
  clientInfo?: { name: string; version: string };
}

/** The agent's sessions of `cwd`, newest first; undefined when it does not list sessions. Rejects when it fails. */
export async function listAgentSessions(options: AgentVisitOptions): Promise<AcpListedSession[] | undefined> {
  return visit(options, async ({ init, request }) => {
    const list = sessionListOf(init, (_method, params) => request.request(acp.methods.agent.session.list, params), options.log);
    return list?.list(options.cwd, options.agent);
  });
}

/**
 * The agent's session `acpSessionId` as turns, from what `session/load` replays; undefined when the agent cannot load
 * sessions. Rejects when it fails (the session is gone, the agent crashed or took too long).
 */
export async function loadAgentSession(
  options: AgentVisitOptions,
  acpSessionId: string,
  limits?: TurnSequenceLimits,
): Promise<{ turns: Turn[]; complete: boolean } | undefined> {
  const turns = new ReplayedTurns(options.agent.displayName, limits);
  return visit(
    options,
    async ({ init, request }) => {
      if (init.agentCapabilities?.loadSession !== true) return undefined;
      await request.request(acp.methods.agent.session.load, { sessionId: acpSessionId, cwd: options.cwd, mcpServers: [] });
      return { turns: turns.finish(), complete: !turns.full };
    },
    (params) => {
      if (params.sessionId === acpSessionId) turns.accept(params.update);
    },
  );
}

interface Visit {
  init: InitializeResponse;
  request: acp.ClientConnection["agent"];
}

async function visit<T>(options: AgentVisitOptions, ask: (visit: Visit) => Promise<T>, onUpdate: (params: { sessionId?: unknown; update?: unknown }) => void = () => {}): Promise<T> {
  const log = options.log ?? (() => {});
  // No file access, no terminal, no permission: a request for any of them is answered "method not found".
  const app = acp.client({ name: "agent-stream" }).onNotification("*", ({ method }) => log(`notification ${method} ignored`));
  const agent = new AgentProcess(
    app,
    { command: options.command, args: options.args, cwd: options.cwd, env: options.env },
    {
      sessionUpdate: (params) => {
        if (typeof params === "object" && params !== null) onUpdate(params);
      },
      problem: (problem) => log(`line ${problem.line ?? "?"} of the agent's output: ${problem.message}`),
      onExit: () => {},
    },
  );
  const deadlineMs = options.deadlineMs ?? DEFAULT_VISIT_DEADLINE_MS;
  let late = false;
  const deadline = (options.scheduler ?? realScheduler).after(deadlineMs, () => {
    late = true;
    void agent.stop();
  });
  try {
    const request = agent.connection.agent;
    const params: InitializeRequest = {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: options.clientInfo ?? { name: "agent-stream", version: "0.1.0" },
    };
    const init = await request.request(acp.methods.agent.initialize, params);
    return await ask({ init, request });
  } catch (error) {
    if (late) throw new Error(`${options.agent.displayName} did not answer within ${formatDuration(deadlineMs)}`);
    const exit = agent.exitReport;
    if (exit?.reason === "spawn-failed") throw new Error(exit.spawnError?.message ?? `${options.command} could not be started`);
    throw error;
  } finally {
    deadline.cancel();
    await agent.close(CLOSE_GRACE_MS);
  }
}
