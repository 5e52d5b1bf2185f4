// What each agent CLI needs to be run well: its usual command and arguments, how it takes a prompt, how it is asked
// to stop before any signal, and how a follow-up continues the same conversation. Plain data and pure functions: the
// process manager runs what a profile describes.
import type { DialectName } from "../dialects/registry";
import type { AgentMode } from "../protocol/agent-state";
import type { CliInput } from "../process/cli-process";
import type { SettingsChannel } from "../protocol/settings-channel";
import type { PermissionChannel } from "../permissions/permission-channel";
import type { PromptImage } from "../protocol/prompt-parts";

/** The conversation a prompt belongs to, as far as the CLI can keep it. */
export interface ConversationKey {
  /** A fresh UUID when the run starts a conversation; the id of the one to continue otherwise. */
  readonly id: string;
  /** Whether an earlier run of this CLI already holds the conversation under `id`. */
  readonly continues: boolean;
  /** A folder of ours where a CLI that wants a file for its conversation (pi) may keep it. */
  readonly stateDir: string;
}

export interface InvocationRequest {
  readonly prompt: string;
  /** The user's arguments (`userArgumentsOf`), or null to use the profile's own. */
  readonly userArgs: readonly string[] | null;
  readonly conversation: ConversationKey;
  /** The images the user attached: only a profile that `takesImages` is given any (the launcher refuses them otherwise). */
  readonly images?: readonly PromptImage[];
}

export interface Invocation {
  readonly args: string[];
  /** What goes to the CLI's stdin, when it reads its prompt there. */
  readonly input?: CliInput & {
    /**
     * Per run: whether this value of the CLI's stream ends its work, so stdin can be closed and the CLI exits. Called
     * with every parsed line, in order.
     */
    readonly isRunOver: (value: unknown) => boolean;
    /** A CLI that asks for permission in its output and reads the answers on stdin: how those lines are read and written. */
    readonly permissionChannel?: PermissionChannel;
  };
}

/**
 * How the panel talks to the CLI. `stream` (the default): one process per prompt, its stdout read by a dialect.
 * `acp`: an Agent Client Protocol agent, one warm process per conversation, JSON-RPC over its stdio; the prompt goes
 * over the protocol, so `invocation` gives only the arguments that start it.
 */
export type CliTransport =
  | { readonly kind: "stream" }
  | {
      readonly kind: "acp";
      /**
       * When `session/new` says authentication is required: the agent's `authenticate` methods to use, by id, in order
       * of preference. Empty: none is chosen for the user; the turn fails with AUTH_EXPIRED, whose card offers Log In.
       */
      readonly authMethods: readonly string[];
      readonly modes: SessionModeRule;
    };

/**
 * Which of an ACP agent's session modes asks before it edits or runs anything, and which let it approve its own
 * actions (ids as the agent sends them; docs/acp-agents.md lists them per version). A session starts in the first
 * asking mode the agent offers, unless the user chose another; modes not named here are judged by their ids and names.
 */
export interface SessionModeRule {
  readonly asking: readonly string[];
  readonly approvingItself: readonly string[];
}

/**
 * How a stream CLI's mode and model are chosen: by flags at each run (each turn is a new process continuing the
 * conversation, so a choice made between turns is the next turn's flag), and read back from its stream's `start`.
 */
export interface SettingFlags {
  /** The CLI's modes, as its stream names them, each marked when the CLI approves its own actions in it. */
  readonly modes: readonly AgentMode[];
  /** The mode a run starts in when the user chose none: the one that asks. */
  readonly askingMode: string;
  readonly modeFlag: string;
  /** The user's own arguments choose the mode when they hold one of these: then no mode is added unless chosen. */
  readonly userModeFlags: readonly string[];
  readonly modelFlag: string;
  /** How a run takes a change of its mode or model mid-turn on its stdin; absent: from the next turn on, by the flags. */
  readonly channel?: SettingsChannel;
  /** Takes one rule the session's "always" allowed, for a CLI that forgets them between its per-turn processes. */
  readonly allowedToolsFlag?: string;
}

/** One agent CLI the panel can run: every list of CLIs (settings, `auto`, the docs) is derived from these. */
export interface CliProfile<Name extends string = string> {
  /** What `agentStream.cli.profile` and `--profile` call it. */
  readonly name: Name;
  /** What people call it: the turn header, the docs. */
  readonly displayName: string;
  /** Its line in the settings' list of profiles (markdown): how it is run, stopped and continued. */
  readonly summary: string;
  /** `auto` picks this profile when the CLI's file name (without `.exe`, `.cmd`, …) is one of these. */
  readonly commandNames: readonly string[];
  /** How its stream is read when `agentStream.dialect` is `auto`. */
  readonly dialect: DialectName;
  /** The command when `agentStream.cli.path` is not set. */
  readonly command: string;
  /** The arguments when `agentStream.cli.args` is not set. */
  readonly defaultArgs: readonly string[];
  /**
   * The "Log In" action runs the CLI with these in a terminal. Empty: the CLI has no login command, and is opened
   * interactively with `hint` shown (pi logs in with its `/login` command).
   */
  readonly login: {
    readonly args: readonly string[];
    readonly hint?: string;
    /** Run instead of the profile's command (an ACP adapter whose own CLI logs in: `codex login`). */
    readonly command?: string;
    /** The environment variables it takes an API key from instead (a refused key is then named, with Open Settings). */
    readonly apiKeyVariables?: readonly string[];
  };
  /** Absent: `stream`. */
  readonly transport?: CliTransport;
  /** A stream CLI whose mode and model are chosen by flags; absent: they are not (an ACP agent's are, over ACP). */
  readonly settingFlags?: SettingFlags;
  /** The CLI takes images with its prompt (Claude Code's image blocks, pi rpc's `images`); absent: it takes none. */
  readonly takesImages?: boolean;
  invocation(request: InvocationRequest): Invocation;
}

/**
 * The arguments a CLI starts with, before what its profile adds for a run: `agentStream.cli.args` in place of the
 * profile's own (also the way to drop one of them), then `agentStream.cli.extraArgs` after either. Null: the
 * profile's own, as they are.
 */
export function userArgumentsOf(profile: CliProfile, cliArgs: readonly string[] | null, extraArgs: readonly string[] = []): readonly string[] | null {
  if (extraArgs.length === 0) return cliArgs;
  return [...(cliArgs ?? profile.defaultArgs), ...extraArgs];
}

/** Whether the CLI is run as an ACP agent, and how it is authenticated then. */
export function acpTransportOf(profile: CliProfile): Extract<CliTransport, { kind: "acp" }> | undefined {
  return profile.transport?.kind === "acp" ? profile.transport : undefined;
}

/** Keeps a profile's name as its literal type, so the list of names is derived from the registry. */
export function defineProfile<const Name extends string>(profile: CliProfile<Name>): CliProfile<Name> {
  return profile;
}

/**
 * How long a CLI asked to stop in its own way (Claude's interrupt, pi's abort, ACP's session/cancel) gets before SIGINT:
 * with the signal escalation's graces after it, short enough that Stop ends the whole tree within 5 s.
 */
export const IN_BAND_STOP_GRACE_MS = 1500;
