import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createAdapter } from "../../../src/dialects/registry";
import { AgentLauncher } from "../../../src/launch/agent-launcher";
import type { SessionRunRequest, SessionsHost } from "../../../src/panel/chat-session";
import { ChatSessions } from "../../../src/panel/chat-sessions";
import type { Conversation, ConversationView, Run } from "../../../src/panel/conversation";
import type { AgentMode, AgentStateUpdate, ChoiceOutcome, ChosenAgentSettings } from "../../../src/protocol/agent-state";
import type { ProfileSetting } from "../../../src/profiles/profile-registry";
import { HostMessageSchema, WebviewIntentSchema, type AgentControls, type HostMessage } from "../../../src/protocol/messages";
import type { AgentIdentity } from "../../../src/protocol/sessions";
import { ReplayRun } from "../../../src/session/replay";
import { SessionStore } from "../../../src/sessions/session-store";
import { eventually } from "../../helpers/eventually";
import { ScriptedStream } from "../../helpers/scripted-host";

const CLAUDE: AgentIdentity = { profile: "claude", displayName: "Claude Code", command: "claude", args: null };
const MODES: AgentMode[] = [
  { id: "default", name: "Default", description: null, approvesItself: false },
  { id: "plan", name: "Plan", description: null, approvesItself: false },
  { id: "bypassPermissions", name: "Bypass permissions", description: null, approvesItself: true },
];
const THOUGHT = {
  id: "thought_level",
  name: "Thinking",
  description: null,
  category: "thought_level",
  type: "select" as const,
  currentValue: "low",
  values: [
    { value: "low", name: "Low", description: null },
    { value: "high", name: "High", description: null },
  ],
};

/** The editor's side: runs read a stream the test writes; choices are answered as the test says, and kept per agent. */
class ChoosingHost implements SessionsHost {
  readonly requests: SessionRunRequest[] = [];
  readonly streams: ScriptedStream[] = [];
  readonly applied: ChosenAgentSettings[] = [];
  readonly remembered = new Map<string, ChosenAgentSettings>();
  outcome: ChoiceOutcome = { kind: "applied" };

  startRun(request: SessionRunRequest): Run {
    this.requests.push(request);
    const stream = new ScriptedStream();
    this.streams.push(stream);
    return new ReplayRun(stream, { adapter: createAdapter("locus"), onChange: request.onChange });
  }
  applyChoice(_sessionId: string, _agent: AgentIdentity, chosen: ChosenAgentSettings): Promise<ChoiceOutcome> {
    this.applied.push(chosen);
    return Promise.resolve(this.outcome);
  }
  choiceAppliesAt(): AgentControls["appliesAt"] {
    return "now";
  }
  agentStateBeforeRuns(agent: AgentIdentity): AgentStateUpdate | undefined {
    return AgentLauncher.agentStateBeforeRuns({ cliPath: agent.command, cliProfile: agent.profile as ProfileSetting });
  }
  rememberedChoice(agent: AgentIdentity): ChosenAgentSettings {
    return this.remembered.get(agent.profile) ?? {};
  }
  rememberChoice(agent: AgentIdentity, chosen: ChosenAgentSettings): void {
    this.remembered.set(agent.profile, chosen);
  }
  endAgent(): void {}
  openExternal(): void {}
  writeClipboard(): void {}
  runEditorAction(): void {}
  logRejected(): void {}
  restriction(): string | null {
    return null;
  }
}

/** A view of one session: what it was sent (each message checked against the contract), and a way to act. */
function viewOf(conversation: Conversation): { messages: HostMessage[]; act(intent: unknown): void } {
  const messages: HostMessage[] = [];
  const view: ConversationView = { post: (message) => messages.push(HostMessageSchema.parse(structuredClone(message))) };
  conversation.attach(view);
  return { messages, act: (intent) => conversation.handleIntent(view, intent) };
}

function lastControls(messages: readonly HostMessage[]): AgentControls | undefined {
  return messages.findLast((message): message is Extract<HostMessage, { type: "controls" }> => message.type === "controls")?.controls;
}

describe("The header's pickers: the agent's mode, model and options, chosen by the user", () => {
  let folder: string;
  let host: ChoosingHost;
  const open: ChatSessions[] = [];

  async function sessions(): Promise<ChatSessions> {
    const store = await SessionStore.open(folder, { maxBytes: 50 * 1024 * 1024, log: { warn: () => {} } });
    const opened = await ChatSessions.open(
      { store, host, defaultAgent: () => CLAUDE, maxRunning: () => 4, say: () => {}, pickAgent: async () => undefined, log: () => {} },
      undefined,
    );
    open.push(opened);
    return opened;
  }

  /** A session whose agent has said its modes (the second one current) and a thinking option. */
  async function sessionWithModes(): Promise<{ chats: ChatSessions; conversation: Conversation; choose: ReturnType<typeof viewOf> }> {
    const chats = await sessions();
    const session = chats.active;
    session.conversation.send("first question");
    host.requests.at(-1)?.onAgentState({ kind: "settings", mode: { currentId: "default", offered: MODES, configId: null }, model: null, configOptions: [THOUGHT] });
    return { chats, conversation: session.conversation, choose: viewOf(session.conversation) };
  }

  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "agent-controls-"));
    host = new ChoosingHost();
  });

  afterEach(async () => {
    // Each run ends before the sessions are let go: no save comes after the store's last.
    for (const stream of host.streams) stream.end();
    for (const chats of open.splice(0)) await chats.dispose();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it("shows the modes the agent offers, each marked when it approves by itself, and its other options", async () => {
    const { choose } = await sessionWithModes();
    const controls = lastControls(choose.messages);
    assert.deepEqual(
      controls?.mode?.offered.map((mode) => [mode.id, mode.approvesItself]),
      [
        ["default", false],
        ["plan", false],
        ["bypassPermissions", true],
      ],
    );
    assert.deepEqual([controls?.mode?.currentId, controls?.mode?.chosenId, controls?.appliesAt, controls?.applying], ["default", null, "now", false]);
    assert.deepEqual(controls?.options.map((option) => [option.optionId, option.currentId, option.offered.length]), [["thought_level", "low", 2]]);
  });

  it("shows a new Claude session's modes before its first turn, default current, and a mode picked then goes with the first prompt", async () => {
    const chats = await sessions();
    const view = viewOf(chats.active.conversation);
    const controls = lastControls(view.messages);
    assert.deepEqual(
      controls?.mode?.offered.map((mode) => [mode.id, mode.approvesItself]),
      [
        ["default", false],
        ["acceptEdits", true],
        ["plan", false],
        ["auto", true],
        ["dontAsk", false],
        ["bypassPermissions", true],
      ],
    );
    assert.deepEqual([controls?.mode?.currentId, controls?.mode?.chosenId], ["default", null]);
    view.act({ type: "chooseSetting", setting: "mode", value: "plan" });
    assert.equal(lastControls(view.messages)?.mode?.chosenId, "plan");
    chats.active.conversation.send("first question");
    assert.deepEqual(host.requests.at(-1)?.chosen, { mode: "plan" });
  });

  it("gives a mode picked in the header to the agent at once, and the header shows it chosen", async () => {
    const { chats, choose } = await sessionWithModes();
    choose.act({ type: "chooseSetting", setting: "mode", value: "plan" });
    assert.deepEqual(host.applied, [{ mode: "plan" }]);
    assert.deepEqual(chats.active.chosen, { mode: "plan" });
    assert.equal(lastControls(choose.messages)?.mode?.chosenId, "plan");
  });

  it("sets one of the agent's other options from its picker", async () => {
    const { chats, choose } = await sessionWithModes();
    choose.act({ type: "chooseSetting", setting: "option", optionId: "thought_level", value: "high" });
    assert.deepEqual(chats.active.chosen, { config: { thought_level: "high" } });
    assert.equal(lastControls(choose.messages)?.options[0]?.chosenId, "high");
  });

  it("turns the picker back and says why when the agent refuses the choice", async () => {
    const { chats, choose } = await sessionWithModes();
    host.outcome = { kind: "refused", reason: "The agent did not switch to mode plan (it answered Forbidden)." };
    choose.act({ type: "chooseSetting", setting: "mode", value: "plan" });
    const refused = await eventually("the refusal in the header", () => lastControls(choose.messages)?.refusal ?? undefined);
    assert.equal(refused, "The agent did not switch to mode plan (it answered Forbidden).");
    assert.equal(lastControls(choose.messages)?.mode?.chosenId, null);
    assert.deepEqual(chats.active.chosen, {});
    assert.deepEqual(host.remembered.get("claude"), {}, "new sessions do not start in the refused mode");
  });

  it("keeps nothing of a value the agent does not offer, and shows the pickers as they were", async () => {
    const { chats, choose } = await sessionWithModes();
    const before = choose.messages.length;
    choose.act({ type: "chooseSetting", setting: "mode", value: "yolo" });
    choose.act({ type: "chooseSetting", setting: "option", optionId: "thought_level", value: "extreme" });
    assert.deepEqual(chats.active.chosen, {});
    assert.deepEqual(host.applied, []);
    assert.equal(choose.messages.slice(before).filter((message) => message.type === "controls").length, 2);
  });

  it("remembers the last choice for the agent's new sessions, marked as remembered (what the agent no longer offers is dropped)", async () => {
    const { chats, choose } = await sessionWithModes();
    assert.deepEqual(host.requests.at(-1)?.chosen, { remembered: true }, "nothing chosen for the first session");
    choose.act({ type: "chooseSetting", setting: "mode", value: "plan" });
    chats.newSession();
    chats.active.conversation.send("in a new session");
    assert.deepEqual(host.requests.at(-1)?.chosen, { mode: "plan", remembered: true });
  });

  it("never starts a new session in a mode that approves by itself, even when the last session chose it", async () => {
    const { chats, choose } = await sessionWithModes();
    choose.act({ type: "chooseSetting", setting: "option", optionId: "thought_level", value: "high" });
    choose.act({ type: "chooseSetting", setting: "mode", value: "bypassPermissions" });
    assert.deepEqual(chats.active.chosen, { config: { thought_level: "high" }, mode: "bypassPermissions" });
    chats.newSession();
    chats.active.conversation.send("in a new session");
    assert.deepEqual(host.requests.at(-1)?.chosen, { config: { thought_level: "high" }, remembered: true });
  });

  it("shows and runs no remembered mode that approves by itself or that Claude does not have, though the store holds one", async () => {
    for (const mode of ["bypassPermissions", "yolo"]) {
      host.remembered.set("claude", { mode, model: "sonnet" });
      const chats = await sessions();
      chats.newSession();
      const choose = viewOf(chats.active.conversation);
      assert.equal(lastControls(choose.messages)?.mode?.chosenId, null, `${mode}: the header shows the mode that asks`);
      chats.active.conversation.send("in a new session");
      assert.deepEqual(host.requests.at(-1)?.chosen, { model: "sonnet", remembered: true }, mode);
    }
  });

  it("offers Claude's models once its initialize answer lists them, and still runs a remembered model it does not list", async () => {
    host.remembered.set("claude", { model: "claude-sonnet-4-5" });
    const chats = await sessions();
    const choose = viewOf(chats.active.conversation);
    chats.active.conversation.send("first question");
    const onAgentState = host.requests.at(-1)?.onAgentState;
    onAgentState?.({ kind: "settings", mode: { currentId: "default", offered: MODES, configId: null }, model: { currentId: "claude-sonnet-4-5", offered: [], configId: null }, configOptions: [] });
    const models = [
      { id: "opus", name: "Opus", description: "Opus 5.5" },
      { id: "sonnet", name: "Sonnet", description: null },
    ];
    onAgentState?.({ kind: "models", model: { currentId: "claude-sonnet-4-5", offered: models, configId: null } });
    const controls = lastControls(choose.messages);
    assert.deepEqual(controls?.model, { currentId: "claude-sonnet-4-5", chosenId: "claude-sonnet-4-5", offered: models });
    assert.equal(controls?.mode?.currentId, "default", "the mode stays as the init line said it");
    host.streams.at(-1)?.end();
    await eventually("the first turn's end", () => !chats.active.conversation.running);
    chats.active.conversation.send("second question");
    assert.deepEqual(host.requests.at(-1)?.chosen, { model: "claude-sonnet-4-5", remembered: true });
    choose.act({ type: "chooseSetting", setting: "model", value: "opus" });
    assert.deepEqual(host.applied.at(-1), { model: "opus" });
  });

  it("bounds a choice's id and refuses a choice of an option without the option's id", () => {
    assert.equal(WebviewIntentSchema.safeParse({ type: "chooseSetting", setting: "mode", value: "x".repeat(5000) }).success, false);
    assert.equal(WebviewIntentSchema.safeParse({ type: "chooseSetting", setting: "mode", value: null }).success, true);
    assert.equal(WebviewIntentSchema.safeParse({ type: "chooseSetting", setting: "mode", value: "plan", extra: 1 }).success, false);
  });
});
