import * as assert from "node:assert/strict";
import type * as vscode from "vscode";
import type { AgentIdentity } from "../../../src/protocol/sessions";
import { RememberedChoices } from "../../../src/vscode/remembered-choices";

/** The extension's global state as VS Code keeps it: values by key, written as JSON. */
class MemoryMemento {
  private readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  update(key: string, value: unknown): Thenable<void> {
    this.values.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}

const CLAUDE: AgentIdentity = { profile: "claude", displayName: "Claude Code", command: "claude", args: null };
const QWEN: AgentIdentity = { profile: "qwen", displayName: "Qwen Code", command: "qwen", args: null };

describe("the choices remembered per agent for its new sessions", () => {
  it("gives each agent its own last choice, across a restart", () => {
    const state = new MemoryMemento();
    new RememberedChoices(state as unknown as vscode.Memento).remember(CLAUDE, { mode: "plan", model: "opus" });
    new RememberedChoices(state as unknown as vscode.Memento).remember(QWEN, { config: { thought_level: "high" } });
    const later = new RememberedChoices(state as unknown as vscode.Memento);
    assert.deepEqual(later.of(CLAUDE), { mode: "plan", model: "opus" });
    assert.deepEqual(later.of(QWEN), { config: { thought_level: "high" } });
  });

  it("reads nothing from a kept value that is not a choice", () => {
    const state = new MemoryMemento();
    void state.update("agentStream.chosenSettings", { [JSON.stringify(["claude", "claude"])]: { mode: 42 } });
    assert.deepEqual(new RememberedChoices(state as unknown as vscode.Memento).of(CLAUDE), {});
  });
});
