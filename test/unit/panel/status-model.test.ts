import * as assert from "node:assert/strict";
import { Conversation } from "../../../src/panel/conversation";
import { applyChange } from "../../../src/common/turn-changes";
import type { SessionChange, Turn } from "../../../src/protocol/messages";
import type { PermissionBlock } from "../../../src/protocol/transcript";
import { Session } from "../../../src/session/session";
import { COMPLETED_VISIBLE_MS, StatusTracker, type StatusView } from "../../../src/panel/status-model";
import * as cli from "../../helpers/stream-builder";
import { changeWhere, ScriptedHost } from "../../helpers/scripted-host";
import { VirtualScheduler } from "../../helpers/virtual-scheduler";

/** Far longer than anything the status bar waits for. */
const A_DAY_MS = 24 * 60 * 60 * 1000;

describe("status bar item", () => {
  let host: ScriptedHost;
  let conversation: Conversation;
  let scheduler: VirtualScheduler;
  let renders: StatusView[];
  let tracker: StatusTracker;

  beforeEach(() => {
    host = new ScriptedHost();
    conversation = new Conversation(host);
    scheduler = new VirtualScheduler();
    renders = [];
    tracker = new StatusTracker((view) => renders.push(view), conversation.lastTurn, scheduler);
    conversation.observe(tracker);
  });

  afterEach(() => conversation.dispose());

  const kinds = () => renders.map((r) => r.kind);

  it("walks idle → starting → streaming → running a tool → streaming → completed → idle", async () => {
    conversation.send("what is here?");
    host.stream.push(cli.start());
    await changeWhere(conversation, (c) => c.kind === "state" && c.state === "running");
    host.stream.push(cli.toolStarted("Read", "t1", { file_path: "src/app.ts" }));
    await changeWhere(conversation, (c) => c.kind === "block-added" && c.block.kind === "tool");
    const tool = tracker.view;
    host.stream.push(cli.toolCompleted("Read", "t1"), cli.textDelta("It is "), cli.textDelta("an app."), cli.done({ duration: 3200 }));
    host.stream.end();
    await changeWhere(conversation, (c) => c.kind === "done");

    assert.deepEqual(kinds(), ["idle", "starting", "streaming", "tool", "streaming", "completed"]);
    assert.equal(tool.text, "$(tools) Agent Stream: Read");
    assert.match(tool.tooltip, /scripted is running Read: src\/app\.ts/);
    assert.equal(tracker.view.text, "$(check) Agent Stream: completed in 3.2 s");
    scheduler.advance(COMPLETED_VISIBLE_MS - 1);
    assert.equal(tracker.view.kind, "completed");
    scheduler.advance(1);
    assert.equal(tracker.view.kind, "idle");
  });

  it("says what a running call is about in the agent's own title, as the chat's card does", async () => {
    conversation.send("write it");
    host.stream.push(cli.start());
    const titled = cli.toolStarted("edit", "t1", { file_path: "/work/todo.md" });
    titled.payload.title = "Write todo.md";
    host.stream.push(titled);
    await changeWhere(conversation, (c) => c.kind === "block-added" && c.block.kind === "tool");
    assert.match(tracker.view.tooltip, /scripted is running edit: Write todo\.md\./);
    host.stream.push(cli.done());
    host.stream.end();
    await changeWhere(conversation, (c) => c.kind === "done");
  });

  it("shows a tool's name as written, never as icons, on one line and cut when long", async () => {
    conversation.send("spoof it");
    host.stream.push(cli.start(), cli.toolStarted("$(check) Agent Stream: completed in 1 s\n$(x)", "t1", {}));
    await changeWhere(conversation, (c) => c.kind === "block-added" && c.block.kind === "tool");
    // VS Code shows \$( as "$(": the item reads as the tool's name, with the tools icon only.
    assert.equal(tracker.view.text, "$(tools) Agent Stream: \\$(check) Agent Stream: completed in 1…");
    assert.equal(tracker.view.text.match(/(?<!\\)\$\(/g)?.length, 1, "one icon: ours");
    host.stream.push(cli.toolCompleted("x", "t1"), cli.done());
    host.stream.end();
    await changeWhere(conversation, (c) => c.kind === "done");
  });

  it("renders once per change of what it says, not once per text delta", async () => {
    conversation.send("stream");
    host.stream.push(cli.start());
    for (let i = 0; i < 500; i++) host.stream.push(cli.textDelta(`word${i} `));
    host.stream.push(cli.done());
    host.stream.end();
    await changeWhere(conversation, (c) => c.kind === "done");
    assert.deepEqual(kinds(), ["idle", "starting", "streaming", "completed"]);
  });

  it("shows a failure in error colours with the error in the tooltip, and keeps showing it", async () => {
    conversation.send("log in?");
    host.stream.push(cli.start(), cli.errorEvent("AUTH_EXPIRED", "Your token expired on 2026-11-01."), cli.done({ exitCode: 1 }));
    host.stream.end();
    await changeWhere(conversation, (c) => c.kind === "done");
    assert.equal(tracker.view.kind, "failed");
    assert.equal(tracker.view.tone, "error");
    assert.equal(tracker.view.text, "$(error) Agent Stream: failed");
    assert.equal(tracker.view.tooltip, "scripted failed: The agent needs you to log in again (AUTH_EXPIRED): Your token expired on 2026-11-01. Click to show the chat.");
    scheduler.advance(A_DAY_MS);
    assert.equal(tracker.view.kind, "failed", "a failure does not go back to idle by itself");
  });

  it("says stopped after the user's Stop", async () => {
    conversation.send("long");
    host.stream.push(cli.start(), cli.textDelta("partial"));
    await changeWhere(conversation, (c) => c.kind === "block-added" && c.block.kind === "text");
    await conversation.stop();
    assert.equal(tracker.view.kind, "stopped");
    assert.equal(tracker.view.text, "$(debug-stop) Agent Stream: stopped");
    assert.equal(tracker.view.tone, "normal");
  });

  it("a new turn cancels the pending return to idle of the last one", async () => {
    conversation.send("one");
    host.stream.push(cli.start(), cli.done());
    host.stream.end();
    await changeWhere(conversation, (c) => c.kind === "done");
    await new Promise((resolve) => setImmediate(resolve));
    conversation.send("two");
    assert.equal(tracker.view.kind, "starting");
    scheduler.advance(COMPLETED_VISIBLE_MS);
    assert.equal(tracker.view.kind, "starting", "the old timer must not reset a running turn to idle");
  });

  it("starts idle after a reload even if the last turn failed", async () => {
    conversation.send("x");
    host.stream.push(cli.start(), cli.errorEvent("UNKNOWN", "boom"), cli.done({ exitCode: 1 }));
    host.stream.end();
    await changeWhere(conversation, (c) => c.kind === "done");
    const reloaded = new StatusTracker(() => undefined, conversation.lastTurn, scheduler);
    assert.equal(reloaded.view.kind, "idle");
  });

  it("says it waits for your approval in warning colours while a permission request is open, and goes back once answered", async () => {
    conversation.send("edit the notes");
    host.stream.push(cli.start());
    await changeWhere(conversation, (c) => c.kind === "state" && c.state === "running");
    const turn = conversation.lastTurn;
    assert.ok(turn);
    // An ACP agent's request, as its session reports it: the block appears open, then the answer updates it.
    const asked: PermissionBlock = {
      kind: "permission",
      requestId: "1",
      toolId: "call-1",
      title: "Edit acp-notes.txt",
      options: [{ id: "proceed_once", name: "Allow once", kind: "allow_once" }],
      decision: null,
      optionId: null,
      answeredBy: null,
      outsideWorkspace: [],
    };
    const index = turn.blocks.length;
    const apply = (change: SessionChange) => {
      applyChange(turn, change);
      tracker.turnChanged(turn, change);
    };
    apply({ kind: "block-added", index, block: asked });
    assert.equal(tracker.view.kind, "waiting");
    assert.equal(tracker.view.tone, "warning");
    assert.equal(tracker.view.text, "$(shield) Agent Stream: waiting for your approval");
    assert.match(tracker.view.tooltip, /Edit acp-notes\.txt/);

    apply({ kind: "block-updated", index, block: { ...asked, decision: "allowed", optionId: "proceed_once", answeredBy: "user" } });
    assert.equal(tracker.view.kind, "streaming");
    assert.equal(tracker.view.tone, "normal");
  });

  it("says it waits for your approval when the request comes after the turn's block limit", () => {
    const turn: Turn = { id: 0, prompt: "fix it", agent: "scripted", state: "idle", blocks: [], problems: [], done: null, status: null, context: null, origin: "prompt" };
    const session = new Session({
      dialect: "locus",
      limits: { blocks: 3 },
      onChange: (change) => {
        applyChange(turn, change);
        tracker.turnChanged(turn, change);
      },
    });
    session.acceptEvent(cli.start(), 1);
    for (let i = 0; i < 5; i++) session.acceptEvent(cli.status("working", `step ${i}`), 2 + i);
    const options = [{ id: "proceed_once", name: "Allow once", kind: "allow_once" as const }];
    session.acceptEvent(cli.event("permission_requested", { requestId: "1", toolId: "call-1", title: "Edit acp-notes.txt", options }), 7);
    assert.equal(tracker.view.kind, "waiting");
    assert.match(tracker.view.tooltip, /Edit acp-notes\.txt/);
  });
});
