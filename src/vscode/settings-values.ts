// Turns the raw `agentStream.*` values VS Code hands over (it does not check them against package.json) into settings
// a run can trust: a wrong type falls back to the default with a warning, numbers are clamped to the run's limits.
// No `vscode` here, so every rule is unit-tested in plain Node.
import { TOOL_KINDS, type ToolKind } from "../permissions/permission-request";
import type { AutoAnswer, AutoAnswerPolicy } from "../permissions/permission-policy";
import { isDialectName, type DialectName } from "../dialects/registry";
import type { ContextChoice } from "../panel/prompt-context";
import { isProfileSetting, type ProfileSetting } from "../profiles/profile-registry";
import { clampInactivityTimeoutMs, clampMaxLineBytes, MAX_LINE_BYTES } from "../session/run-limits";
import { DEFAULT_MAX_LINE_BYTES } from "../stream/line-reader";

export interface AgentSettings {
  /** Answer with the bundled offline agent instead of an agent CLI. */
  useBuiltinAgent: boolean;
  /** Null: the profile's own command. */
  cliPath: string | null;
  /** Null: the profile's own arguments. */
  cliArgs: string[] | null;
  /** Added after those arguments, the profile's or `cliArgs`. */
  cliExtraArgs: string[];
  /** How the CLI is started, stopped and continued; `auto` goes by the CLI's name. */
  cliProfile: ProfileSetting;
  cliEnv: Record<string, string>;
  /** How to read the CLI's output (and recorded streams). */
  dialect: DialectName;
  /** 0: off. */
  inactivityTimeoutMs: number;
  maxLineBytes: number;
  /** What "Ask about Workspace" sends with the prompt. */
  context: ContextChoice;
  /** What an agent's permission requests (ACP's, Claude Code's) get without asking, by tool kind; `{}` asks for everything. */
  autoApprove: AutoAnswerPolicy;
  /** How long a warm ACP agent waits for the next turn before it is stopped; 0: until its session is deleted or the window closes. */
  acpIdleStopMs: number;
  /** How many sessions may run an agent at once. */
  maxRunningSessions: number;
  /** How many bytes the stored sessions of a workspace may take. */
  maxStorageBytes: number;
}

/** A setting's value as VS Code gives it (undefined: not set anywhere, not even a default). */
export type SettingValue = (key: string) => unknown;
export type SettingWarning = (message: string) => void;

const MIB = 1024 * 1024;
const DEFAULT_TIMEOUT_SECONDS = 120;
const DEFAULT_IDLE_STOP_MINUTES = 10;
const DEFAULT_MAX_RUNNING_SESSIONS = 4;
const MAX_RUNNING_SESSIONS = 32;
const DEFAULT_MAX_STORAGE_MB = 200;
const MAX_STORAGE_MB = 10_000;
/** The longest a Node timer can wait (2^31 - 1 ms), in whole minutes. */
const MAX_IDLE_STOP_MINUTES = Math.floor(2_147_483_647 / 60_000);

export function settingsFrom(value: SettingValue, warn: SettingWarning): AgentSettings {
  const read = new SettingReader(value, warn);
  const cliPath = read.string("cli.path", "").trim();
  return {
    useBuiltinAgent: read.boolean("useBuiltinAgent", false),
    cliPath: cliPath === "" ? null : cliPath,
    cliArgs: read.stringArrayOrNull("cli.args"),
    cliExtraArgs: read.stringArray("cli.extraArgs"),
    // An unknown name (a typo, a profile of a newer version) falls back to the default rather than failing every run.
    cliProfile: read.oneOf("cli.profile", isProfileSetting, "auto"),
    cliEnv: read.stringRecord("cli.env"),
    dialect: read.oneOf("dialect", isDialectName, "auto"),
    inactivityTimeoutMs: read.inactivityTimeoutMs(),
    maxLineBytes: read.maxLineBytes(),
    context: {
      workspaceFolder: read.boolean("context.workspaceFolder", true),
      activeFile: read.boolean("context.activeFile", true),
      selection: read.boolean("context.selection", true),
    },
    autoApprove: read.autoApprove(),
    acpIdleStopMs: read.idleStopMs(),
    maxRunningSessions: read.wholeNumber("sessions.maxRunning", DEFAULT_MAX_RUNNING_SESSIONS, 1, MAX_RUNNING_SESSIONS),
    maxStorageBytes: read.wholeNumber("sessions.maxStorageMB", DEFAULT_MAX_STORAGE_MB, 1, MAX_STORAGE_MB) * MIB,
  };
}

class SettingReader {
  constructor(
    private readonly value: SettingValue,
    private readonly warn: SettingWarning,
  ) {}

  boolean(key: string, fallback: boolean): boolean {
    const value = this.value(key);
    return typeof value === "boolean" ? value : this.fallBack(key, value, "true or false", fallback);
  }

  string(key: string, fallback: string): string {
    const value = this.value(key);
    return typeof value === "string" ? value : this.fallBack(key, value, "a string", fallback);
  }

  oneOf<T extends string>(key: string, isKnown: (name: string) => name is T, fallback: T): T {
    const value = this.value(key);
    return typeof value === "string" && isKnown(value) ? value : this.fallBack(key, value, "one of the listed names", fallback);
  }

  /** A list with one non-string would pass something else than the user wrote: the whole list is not used. */
  stringArrayOrNull(key: string): string[] | null {
    const value = this.value(key);
    if (value === null) return null;
    if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value;
    return this.fallBack(key, value, "a list of strings, or null", null);
  }

  /** As above, for a list that is empty when unset. */
  stringArray(key: string): string[] {
    const value = this.value(key);
    if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value;
    return this.fallBack(key, value, "a list of strings", []);
  }

  /** A variable with a value that is not a string is left out; the others are still set. */
  stringRecord(key: string): Record<string, string> {
    const value = this.value(key);
    if (!isPlainObject(value)) return this.fallBack(key, value, "an object of strings", {});
    const out: Record<string, string> = {};
    for (const [name, v] of Object.entries(value)) {
      if (typeof v === "string") out[name] = v;
      else this.warn(`agentStream.${key}: ${name} is ${describe(v)}, not a string; it is not set.`);
    }
    return out;
  }

  /** An unknown kind or answer is left out (so it is asked), with a warning; the other rules still hold. */
  /** `autoApprove`; its old name `acp.autoApprove` only when it is not set (undefined: set nowhere). */
  autoApprove(): AutoAnswerPolicy {
    if (this.value("autoApprove") !== undefined || this.value("acp.autoApprove") === undefined) return this.autoAnswerPolicy("autoApprove");
    return this.autoAnswerPolicy("acp.autoApprove");
  }

  autoAnswerPolicy(key: string): AutoAnswerPolicy {
    const value = this.value(key);
    if (!isPlainObject(value)) return this.fallBack(key, value, "an object of tool kinds", {});
    const out: AutoAnswerPolicy = {};
    for (const [kind, answer] of Object.entries(value)) {
      if (!isToolKind(kind)) this.warn(`agentStream.${key}: ${describe(kind)} is not a tool kind (${TOOL_KINDS.join(", ")}); it is ignored.`);
      else if (!isAutoAnswer(answer)) this.warn(`agentStream.${key}: ${kind} is ${describe(answer)}, not "allow", "reject" or "ask"; it is asked.`);
      else out[kind] = answer;
    }
    return out;
  }

  inactivityTimeoutMs(): number {
    const key = "inactivityTimeoutSeconds";
    const seconds = this.number(key, DEFAULT_TIMEOUT_SECONDS);
    const ms = clampInactivityTimeoutMs(seconds * 1000);
    if (ms === undefined) return this.fallBack(key, seconds, "0 or more", DEFAULT_TIMEOUT_SECONDS) * 1000;
    if (ms === 0 && seconds > 0) this.warn(`agentStream.${key}: ${seconds} is longer than a timer can wait (24.8 days); the timeout is off.`);
    return ms;
  }

  idleStopMs(): number {
    const key = "acp.idleStopMinutes";
    const minutes = this.number(key, DEFAULT_IDLE_STOP_MINUTES);
    if (minutes < 0) return this.fallBack(key, minutes, "0 or more", DEFAULT_IDLE_STOP_MINUTES) * 60_000;
    if (minutes > MAX_IDLE_STOP_MINUTES) {
      this.warn(`agentStream.${key}: ${minutes} is longer than a timer can wait (24.8 days); the agent is kept until its session is deleted.`);
      return 0;
    }
    return Math.round(minutes * 60_000);
  }

  maxLineBytes(): number {
    const key = "maxLineSizeMB";
    const defaultMB = DEFAULT_MAX_LINE_BYTES / MIB;
    const mb = this.number(key, defaultMB);
    const bytes = mb >= 1 ? clampMaxLineBytes(mb * MIB) : undefined;
    if (bytes === undefined) return this.fallBack(key, mb, "1 or more", defaultMB) * MIB;
    if (bytes < mb * MIB) this.warn(`agentStream.${key}: ${mb} is more than the ${MAX_LINE_BYTES / MIB} MB a line can be; ${MAX_LINE_BYTES / MIB} is used.`);
    return bytes;
  }

  /** A whole number from `min` to `max`; anything else falls back to the default, said once. */
  wholeNumber(key: string, fallback: number, min: number, max: number): number {
    const value = this.number(key, fallback);
    return Number.isInteger(value) && value >= min && value <= max ? value : this.fallBack(key, value, `a whole number from ${min} to ${max}`, fallback);
  }

  private number(key: string, fallback: number): number {
    const value = this.value(key);
    return typeof value === "number" && !Number.isNaN(value) ? value : this.fallBack(key, value, "a number", fallback);
  }

  /** Not set at all is the default, silently; anything else that is not usable is said once per read. */
  private fallBack<T>(key: string, value: unknown, expected: string, fallback: T): T {
    if (value !== undefined) this.warn(`agentStream.${key}: ${describe(value)} is not ${expected}; the default ${JSON.stringify(fallback)} is used.`);
    return fallback;
  }
}

function isToolKind(name: string): name is ToolKind {
  return (TOOL_KINDS as readonly string[]).includes(name);
}

function isAutoAnswer(value: unknown): value is AutoAnswer {
  return value === "allow" || value === "reject" || value === "ask";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
