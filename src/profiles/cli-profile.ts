// What each agent CLI needs to be run well: its usual command and arguments, how it takes a prompt, how it is asked
// to stop before any signal, and how a follow-up continues the same conversation. Plain data and pure functions: the
// process manager runs what a profile describes.
import type { DialectName } from "../dialects/registry";
import type { CliInput } from "../process/cli-process";

export const PROFILE_NAMES = ["locus", "claude", "pi", "indusagi", "agent-code"] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

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
  /** The user's `agentStream.cli.args`, or null to use the profile's own. */
  readonly userArgs: readonly string[] | null;
  readonly conversation: ConversationKey;
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
  };
}

export interface CliProfile {
  readonly name: ProfileName;
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
  readonly login: { readonly args: readonly string[]; readonly hint?: string };
  invocation(request: InvocationRequest): Invocation;
}

/** How long a CLI asked to stop in its own way gets before SIGINT. */
export const IN_BAND_STOP_GRACE_MS = 2000;
