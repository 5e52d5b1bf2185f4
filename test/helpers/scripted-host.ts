// A ConversationHost whose runs read a stream the test writes line by line: every state of a session can be
// reached in order, with no process and no timing. Runs go through the real ReplayRun (reader, decoder, session).
import { createAdapter } from "../../src/dialects/registry";
import type { Conversation, ConversationHost, EditorAction, Run, RunRequest } from "../../src/panel/conversation";
import type { SessionChange, Turn, SessionHeader } from "../../src/protocol/messages";
import { ReplayRun } from "../../src/session/replay";
import { TEST_HEADER, TEST_SESSION_ID } from "./test-session";

/** An async stream of chunks the test pushes into; `end()` closes it. */
export class ScriptedStream implements AsyncIterable<string> {
  private readonly queued: (string | null)[] = [];
  private wake: (() => void) | undefined;

  push(...lines: unknown[]): void {
    for (const line of lines) this.queued.push(typeof line === "string" ? line : JSON.stringify(line) + "\n");
    this.wake?.();
  }

  end(): void {
    this.queued.push(null);
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    for (;;) {
      const next = this.queued.shift();
      if (next === null) return;
      if (next !== undefined) yield next;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

export class ScriptedHost implements ConversationHost {
  readonly sessionId = TEST_SESSION_ID;
  header(): SessionHeader {
    return TEST_HEADER;
  }
  readonly streams: ScriptedStream[] = [];
  readonly prompts: string[] = [];
  readonly actions: { action: EditorAction; turnId: number }[] = [];
  restrictionText: string | null = null;

  startRun(request: RunRequest): Run {
    const stream = new ScriptedStream();
    this.streams.push(stream);
    this.prompts.push(request.prompt);
    return new ReplayRun(stream, { adapter: createAdapter("locus"), onChange: request.onChange });
  }
  openExternal(): void {}
  writeClipboard(): void {}
  runEditorAction(action: EditorAction, turn: Turn): void {
    this.actions.push({ action, turnId: turn.id });
  }
  logRejected(): void {}
  restriction(): string | null {
    return this.restrictionText;
  }
  agentName(): string {
    return "scripted";
  }
  persist(): void {}
  persistRunning(): void {}

  get stream(): ScriptedStream {
    const last = this.streams.at(-1);
    if (last === undefined) throw new Error("no run was started");
    return last;
  }
}

/** Resolves at the first change (of any turn) that `predicate` accepts. */
export function changeWhere(conversation: Conversation, predicate: (change: SessionChange, turn: Turn) => boolean): Promise<SessionChange> {
  return new Promise((resolve) => {
    const stop = conversation.observe({
      turnChanged: (turn, change) => {
        if (!predicate(change, turn)) return;
        stop();
        resolve(change);
      },
    });
  });
}
