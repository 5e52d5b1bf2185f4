// A stream CLI's slash commands for the composer: the names its start says (Claude Code's init line, which leaves out
// the commands that work only in its terminal) with the descriptions its answer to the commands request gives, in
// whichever order the two arrive. Without that answer (refused, late, never) the names complete undescribed.
import type { AgentStateUpdate } from "../protocol/agent-state";
import type { ChannelCommand } from "../protocol/settings-channel";

export class DescribedCommands {
  private names: readonly string[] | undefined;
  private descriptions = new Map<string, string>();

  constructor(private readonly onAgentState: (update: AgentStateUpdate) => void) {}

  /** The commands the CLI's start named. */
  name(names: readonly string[]): void {
    this.names = names;
    this.send(names);
  }

  /** The CLI's answer to the commands request: shown with the names, now if they came first, else when they come. */
  describe(commands: readonly ChannelCommand[]): void {
    this.descriptions = new Map(commands.map((command) => [command.name, command.description]));
    if (this.names !== undefined) this.send(this.names);
  }

  private send(names: readonly string[]): void {
    this.onAgentState({ kind: "commands", commands: names.map((name) => ({ name, description: this.descriptions.get(name) ?? "" })) });
  }
}
