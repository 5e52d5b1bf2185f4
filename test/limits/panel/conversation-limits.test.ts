// The chat with answers no one should have to hold: longer than a JavaScript string, or nested 100,000 deep.
// A real fake CLI per turn; the views receive what would cross postMessage and be persisted.
import * as assert from "node:assert/strict";
import * as os from "node:os";
import { createAdapter } from "../../../src/dialects/registry";
import { Conversation, type ConversationHost, type RunRequest } from "../../../src/panel/conversation";
import type { HostMessage, Turn, SessionHeader } from "../../../src/protocol/messages";
import { LiveSession } from "../../../src/session/live-session";
import { TRANSCRIPT_LIMITS } from "../../../src/session/transcript-builder";
import { fakeCli } from "../../helpers/repo";
import { TEST_HEADER, TEST_SESSION_ID } from "../../helpers/test-session";

/** Each prompt is the arguments of test/fake-clis/long-stream.js ("text 1000", "deep-parameters"). */
class LongStreamHost implements ConversationHost {
  readonly sessionId = TEST_SESSION_ID;
  header(): SessionHeader {
    return TEST_HEADER;
  }
  persisted: string | undefined;
  persistedRunning: string | undefined;

  startRun(request: RunRequest): LiveSession {
    return LiveSession.start({
      adapter: createAdapter("locus"),
      process: { command: process.execPath, args: [fakeCli("long-stream.js"), ...request.prompt.split(" ")], cwd: os.tmpdir(), env: process.env },
      onChange: request.onChange,
    });
  }
  openExternal(): void {}
  writeClipboard(): void {}
  runEditorAction(): void {}
  logRejected(): void {}
  restriction(): string | null {
    return null;
  }
  agentName(): string {
    return "long-stream";
  }
  persist(turns: readonly Turn[]): void {
    // What VS Code's workspace state does with them.
    this.persisted = JSON.stringify(turns);
  }
  persistRunning(turn: Turn | null): void {
    this.persistedRunning = JSON.stringify(turn);
  }
}

/** Keeps every message as the webview and persistence would receive it: serialised. */
class SerialisingView {
  readonly messages: string[] = [];
  post(message: HostMessage): void {
    this.messages.push(JSON.stringify(message));
  }
  doneMessages(): HostMessage[] {
    return this.messages.map((m) => JSON.parse(m) as HostMessage).filter((m) => m.type === "changes" && m.changes.some((c) => c.kind === "done"));
  }
}

async function answer(conversation: Conversation, prompt: string): Promise<Turn> {
  assert.ok(conversation.send(prompt), `a run started for ${prompt}`);
  await conversation.activeRun!.finished;
  return conversation.lastTurn!;
}

describe("Conversation with answers past the limits", function () {
  this.timeout(120_000);

  it("keeps the start of an answer longer than a JavaScript string, says how much was cut, and answers the next prompt", async () => {
    const host = new LongStreamHost();
    const conversation = new Conversation(host);
    const view = new SerialisingView();
    conversation.handleIntent(view, { type: "ready" });
    const chars = 600 * 1024 * 1024;

    const first = await answer(conversation, `text ${chars}`);
    assert.equal(first.status, "completed");
    const block = first.blocks[0];
    assert.ok(block?.kind === "text");
    assert.equal(block.text.length, TRANSCRIPT_LIMITS.blockChars);
    assert.equal(block.truncatedChars, chars - TRANSCRIPT_LIMITS.blockChars);

    const second = await answer(conversation, "text 1000");
    assert.equal(second.status, "completed");
    assert.equal(view.doneMessages().length, 2);
    assert.ok(host.persisted?.includes(`"truncatedChars":${chars - TRANSCRIPT_LIMITS.blockChars}`));
    conversation.dispose();
  });

  it("sends views the done of a turn whose tool parameters were nested 100,000 deep, and persists the turn", async () => {
    const host = new LongStreamHost();
    const conversation = new Conversation(host);
    const view = new SerialisingView();
    conversation.handleIntent(view, { type: "ready" });

    const turn = await answer(conversation, "deep-parameters");
    assert.equal(turn.done?.synthesized, false);
    assert.equal(view.doneMessages().length, 1);
    assert.match(host.persisted ?? "", /nested deeper than 64 levels/);
    conversation.dispose();
  });
});
