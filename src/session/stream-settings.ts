// A running stream CLI's mode or model changed mid-turn through its stdin (Claude Code's control requests): each
// change is written as the CLI's request line and settles with the CLI's answer to it. A CLI that can no longer be
// asked (its stdin closed once its turn is over, or it exited) takes the change with its next turn instead. Its slash
// commands are asked once, before its prompt; the turn never waits for that answer.
import type { ChoiceOutcome } from "../protocol/agent-state";
import type { ChannelCommand, ChannelModel, ChannelSetting, SettingsChannel } from "../protocol/settings-channel";

const COMMANDS_REQUEST_ID = "agent-stream-commands";

export class StreamSettings {
  private count = 0;
  private readonly waiting = new Map<string, (outcome: ChoiceOutcome) => void>();
  private closed = false;
  /** Whether the commands request was written and its answer has not come. */
  private commandsAsked = false;

  constructor(
    private readonly channel: SettingsChannel,
    /** Writes one line to the CLI's stdin; false once it is closed. */
    private readonly writeLine: (line: string) => boolean,
    /** The CLI says it now has this setting (asked, or by itself). */
    private readonly onSaid: (setting: ChannelSetting, value: string) => void = () => {},
    /** The CLI answered with the slash commands it takes and the models it offers. */
    private readonly onCommands: (commands: ChannelCommand[], models: ChannelModel[]) => void = () => {},
  ) {}

  /** What to write before the prompt (with its newline): the channel's commands request, or nothing. */
  openingLines(): string {
    const line = this.channel.commandsRequest?.(COMMANDS_REQUEST_ID);
    if (line === undefined) return "";
    this.commandsAsked = true;
    return `${line}\n`;
  }

  /** Asks the CLI to change `setting` now: applied or refused by its answer, or `next-turn` when it cannot be asked. */
  change(setting: ChannelSetting, value: string): Promise<ChoiceOutcome> {
    if (this.closed) return Promise.resolve({ kind: "next-turn" });
    const requestId = `agent-stream-setting-${++this.count}`;
    if (!this.writeLine(`${this.channel.request(requestId, setting, value)}\n`)) return Promise.resolve({ kind: "next-turn" });
    return new Promise((resolve) => this.waiting.set(requestId, resolve));
  }

  /** Whether the value was the CLI's answer to one of these requests (then it is taken here, and shown nowhere else). */
  read(value: unknown): boolean {
    const answer = this.channel.read(value);
    if (answer?.kind === "said") {
      this.onSaid(answer.setting, answer.value);
      // The line is the stream's too.
      return false;
    }
    if (this.commandsAsked && answer !== undefined && answer.requestId === COMMANDS_REQUEST_ID) {
      this.commandsAsked = false;
      // A refusal leaves the names the CLI's start gave.
      if (answer.kind === "commands") this.onCommands(answer.commands, answer.models);
      return true;
    }
    const settle = answer === undefined ? undefined : this.waiting.get(answer.requestId);
    // Another answer (Claude echoes the answers it is sent to its own requests) is the stream's as before.
    if (answer === undefined || answer.kind === "commands" || settle === undefined) return false;
    this.waiting.delete(answer.requestId);
    settle(answer.error === null ? { kind: "applied" } : { kind: "refused", reason: answer.error });
    return true;
  }

  /** The run is over: nothing more can be asked, and what waits for an answer takes the next turn. */
  close(): void {
    this.closed = true;
    for (const settle of this.waiting.values()) settle({ kind: "next-turn" });
    this.waiting.clear();
  }
}
