// How a stream CLI asks for permission in its own output and takes the answer on its stdin (Claude Code's
// `--permission-prompt-tool stdio`): its dialect reads a line into a question for the desk, and writes the desk's one
// decision back as the line the CLI waits for. Nothing here knows which CLI asks.
import type { PermissionDecision, PermissionQuestion } from "./permission-request";

/** A file the tool would write, as far as the request says: what the new text would be, given the text on disk. */
export interface ProposedEdit {
  /** As the agent wrote it. */
  readonly path: string;
  /** The file's text after the edit, from its text now (null: no such file); undefined when the edit would not apply. */
  newTextOf(oldText: string | null): string | undefined;
}

/** A line of the CLI's output that asks, or that withdraws a question asked before. */
export type ChannelMessage =
  | {
      readonly type: "request";
      /** The CLI's id for the request: a withdrawal names it. */
      readonly id: string;
      readonly question: PermissionQuestion;
      /** The files it would edit, for a diff shown before the answer. */
      readonly edits: readonly ProposedEdit[];
      /** The line (without its newline) that gives the CLI this answer. */
      answer(decision: PermissionDecision): string;
      /**
       * The rules the CLI keeps for the rest of its session when this is answered "always", as its command line takes
       * them (Claude Code's `--allowedTools`): a later run of the same session is given them and does not ask again.
       */
      readonly sessionRules: readonly string[];
    }
  | { readonly type: "withdrawn"; readonly id: string };

export interface PermissionChannel {
  /** What this parsed value of the CLI's output asks or withdraws; undefined for every other line. `cwd`: the run's folder. */
  read(value: unknown, cwd?: string): ChannelMessage | undefined;
}
