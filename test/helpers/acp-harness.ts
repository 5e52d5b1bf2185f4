// One harness for the ACP client's tests: a real fake agent process (test/fake-clis/fake-acp-agent.mjs), a
// throwaway workspace, and everything the connection reports, recorded.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { AcpEvent } from "../../src/dialects/acp/acp-events";
import type { PermissionRequest } from "../../src/permissions/permission-request";
import { AcpAgentConnection, type AcpAgentConnectionOptions } from "../../src/acp/agent-connection";
import { PermissionDesk, type PermissionChoice, type PermissionDeskOptions } from "../../src/permissions/permission-desk";
import type { AutoAnswerPolicy } from "../../src/permissions/permission-policy";
import { NodeWorkspaceFiles, outsideWorkspace } from "../../src/acp/workspace-files";
import { eventually } from "./eventually";
import { fakeCli } from "./repo";

export interface AcpHarness {
  readonly connection: AcpAgentConnection;
  readonly workspace: string;
  readonly events: AcpEvent[];
  readonly traces: string[];
  readonly problems: string[];
  /** What the connection logs of its lifecycle (started, stopped when idle or silent). */
  readonly infos: string[];
  /** Permission requests the host was asked about, with the signal it was given. */
  readonly asked: { request: PermissionRequest; signal: AbortSignal }[];
  /** What the fake agent wrote to its record file, one object per line. */
  records(): Record<string, unknown>[];
  text(): string;
  eventsOf<T extends AcpEvent["type"]>(type: T): Extract<AcpEvent, { type: T }>[];
}

export interface HarnessOptions extends Partial<Omit<AcpAgentConnectionOptions, "permissions">> {
  /** The host's answer to each permission request it is asked; default: never answers. */
  decide?: (request: PermissionRequest, signal: AbortSignal) => Promise<PermissionChoice>;
  /** The setting's answers by tool kind (`agentStream.acp.autoApprove`). */
  autoAnswer?: AutoAnswerPolicy;
  env?: NodeJS.ProcessEnv;
}

/** A conversation's permission desk as the hosts make one: bounded by `roots`, and silent unless told otherwise. */
export function deskFor(roots: readonly string[], options: Partial<Omit<PermissionDeskOptions, "outsideWorkspace">> = {}): PermissionDesk {
  return new PermissionDesk({ policy: {}, log: () => {}, outsideWorkspace: (paths) => outsideWorkspace(paths, roots), ...options });
}

/** The desk of a conversation whose user answers every request `cancelled`. */
export function cancellingDesk(roots: readonly string[]): PermissionDesk {
  return deskFor(roots, { decide: () => Promise.resolve("cancelled") });
}

const harnesses: AcpHarness[] = [];

export function startFakeAgent(scenario: string, options: HarnessOptions = {}): AcpHarness {
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-ws-")));
  const recordFile = path.join(workspace, "..", `${path.basename(workspace)}.record.ndjson`);
  const events: AcpEvent[] = [];
  const traces: string[] = [];
  const problems: string[] = [];
  const infos: string[] = [];
  const asked: AcpHarness["asked"] = [];
  const { decide, autoAnswer, env, ...rest } = options;
  const roots = options.workspaceRoots ?? [workspace];
  const connection = new AcpAgentConnection({
    command: process.execPath,
    args: [fakeCli("fake-acp-agent.mjs"), scenario],
    env: { ...process.env, FAKE_ACP_RECORD: recordFile, ...env },
    workspaceRoots: roots,
    files: new NodeWorkspaceFiles(roots),
    onEvent: (event) => events.push(event),
    permissions: deskFor(roots, {
      policy: autoAnswer ?? {},
      log: (message) => problems.push(message),
      decide: (request, signal) => {
        asked.push({ request, signal });
        return decide === undefined ? new Promise(() => {}) : decide(request, signal);
      },
    }),
    log: { trace: (message) => traces.push(message), problem: (message) => problems.push(message), info: (message) => infos.push(message) },
    stopGraceMs: 300,
    killGraceMs: 300,
    cancelGraceMs: 500,
    closeGraceMs: 500,
    ...rest,
  });
  const harness: AcpHarness = {
    connection,
    workspace,
    events,
    traces,
    problems,
    infos,
    asked,
    records: () =>
      fs.existsSync(recordFile)
        ? fs.readFileSync(recordFile, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)
        : [],
    text: () => events.flatMap((event) => (event.type === "text" ? [event.text] : [])).join(""),
    eventsOf: <T extends AcpEvent["type"]>(type: T) => events.filter((event): event is Extract<AcpEvent, { type: T }> => event.type === type),
  };
  harnesses.push(harness);
  return harness;
}

/** afterEach: every connection a test made is disposed, so no agent outlives its test. */
export async function disposeFakeAgents(): Promise<void> {
  await Promise.all(harnesses.splice(0).map((harness) => harness.connection.dispose()));
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once the fake agent has recorded a fact matching `predicate`. */
export function waitForRecord(harness: AcpHarness, predicate: (record: Record<string, unknown>) => boolean, what: string): Promise<Record<string, unknown>> {
  return eventually(what, () => harness.records().find(predicate));
}

export const prompt = (text: string) => [{ type: "text" as const, text }];
