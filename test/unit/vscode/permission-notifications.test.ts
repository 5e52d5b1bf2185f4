// The permission request offered as a notification while no chat is on screen: driven by a real conversation whose
// turn reads a scripted stream, with a notifier that records what it was asked.
import * as assert from "node:assert/strict";
import { createAdapter } from "../../../src/dialects/registry";
import { Conversation, type Run, type RunRequest } from "../../../src/panel/conversation";
import { ReplayRun } from "../../../src/session/replay";
import { PermissionNotifications } from "../../../src/vscode/permission-notifications";
import * as cli from "../../helpers/stream-builder";
import { changeWhere, ScriptedHost, ScriptedStream } from "../../helpers/scripted-host";

/** Runs whose turns keep only a few blocks, so a test reaches the limit in a few lines. */
class SmallTurnsHost extends ScriptedHost {
  override startRun(request: RunRequest): Run {
    const stream = new ScriptedStream();
    this.streams.push(stream);
    return new ReplayRun(stream, { adapter: createAdapter("locus"), onChange: request.onChange, limits: { blocks: 3 } });
  }
}

describe("permission notifications", () => {
  it("offers a request that comes after the turn's block limit", async () => {
    const host = new SmallTurnsHost();
    const conversation = new Conversation(host);
    const asked: { message: string; choices: readonly string[] }[] = [];
    const notifier = { ask: (message: string, choices: readonly string[]) => (asked.push({ message, choices }), Promise.resolve(undefined)) };
    const notifications = new PermissionNotifications(conversation, notifier, () => false, () => 1);
    conversation.observe(notifications);
    conversation.send("edit the notes");
    host.stream.push(cli.start());
    for (let i = 0; i < 5; i++) host.stream.push(cli.status("working", `step ${i}`));
    const options = [{ id: "proceed_once", name: "Allow once", kind: "allow_once" as const }];
    const ended = changeWhere(conversation, (c) => c.kind === "done");
    host.stream.push(cli.event("permission_requested", { requestId: "1", toolId: "call-1", title: "Edit acp-notes.txt", options }), cli.done());
    await ended;
    conversation.dispose();
    assert.deepEqual(asked, [{ message: "Agent Stream: Edit acp-notes.txt", choices: ["Allow once"] }]);
  });
});
