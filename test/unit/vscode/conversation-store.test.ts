// What a reload brings back from the workspace's state: the finished turns, the turn that was running, and the CLI
// conversation the next prompt continues, each read through its schema.
import * as assert from "node:assert/strict";
import type * as vscode from "vscode";
import type { CliConversation } from "../../../src/protocol/messages";
import { ConversationStore } from "../../../src/vscode/conversation-store";
import { turnWith } from "../../helpers/turn-builder";

/** The workspace's state as VS Code keeps it: values by key, `undefined` removes one. */
class MemoryState implements vscode.Memento {
  private readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : defaultValue;
  }
  update(key: string, value: unknown): Thenable<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}

const FINISHED: CliConversation = { agent: "claude", id: "11111111-1111-4111-8111-111111111111" };
const RUNNING: CliConversation = { agent: "claude", id: "22222222-2222-4222-8222-222222222222" };

describe("the conversation kept across a window reload", () => {
  let state: MemoryState;
  let warnings: string[];
  let store: ConversationStore;
  beforeEach(() => {
    state = new MemoryState();
    warnings = [];
    store = new ConversationStore(state, { warn: (message: string) => warnings.push(message) } as unknown as vscode.LogOutputChannel);
  });

  it("brings back the turn that was running after the finished ones, and the conversation its CLI had begun", () => {
    const first = turnWith(0, [{ kind: "text", text: "done" }], { done: true });
    const running = turnWith(1, [{ kind: "text", text: "so far" }]);
    store.save([first], FINISHED);
    store.saveRunning(running, RUNNING);
    const restored = store.restore();
    assert.deepEqual(restored.turns.map((t) => t.id), [0, 1]);
    assert.deepEqual(restored.cliConversation, RUNNING);
    assert.deepEqual(warnings, []);
  });

  it("keeps the finished turns' conversation when the running turn's CLI had not begun one", () => {
    store.save([], FINISHED);
    store.saveRunning(turnWith(0, []), null);
    assert.deepEqual(store.restore().cliConversation, FINISHED);
  });

  it("ignores a running turn the finished turns already hold (the window saved them as it closed), and its conversation", () => {
    const turn = turnWith(3, [{ kind: "text", text: "said" }], { done: true });
    store.save([turn], FINISHED);
    store.saveRunning(turnWith(3, [{ kind: "text", text: "said" }]), RUNNING);
    const restored = store.restore();
    assert.deepEqual(restored.turns.map((t) => t.id), [3]);
    assert.deepEqual(restored.cliConversation, FINISHED);
  });

  it("forgets the running turn once none runs", () => {
    store.save([turnWith(0, [], { done: true })], FINISHED);
    store.saveRunning(turnWith(1, []), RUNNING);
    store.saveRunning(null, null);
    assert.deepEqual(store.restore(), { turns: [turnWith(0, [], { done: true })], cliConversation: FINISHED });
  });

  it("drops, with a warning, what no longer fits its schema, and trusts none of it", () => {
    void state.update("agentStream.conversation", [{ id: "not a turn" }]);
    void state.update("agentStream.runningTurn", { prompt: 42 });
    void state.update("agentStream.runningCliConversation", RUNNING);
    void state.update("agentStream.cliConversation", { agent: "claude", id: "../../etc/passwd" });
    assert.deepEqual(store.restore(), { turns: [], cliConversation: null });
    assert.equal(warnings.length, 2, warnings.join("\n"));
  });
});
