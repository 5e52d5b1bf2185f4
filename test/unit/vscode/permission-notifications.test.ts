// The permission request offered as a notification while no chat is on screen: driven by a real conversation whose
// turn reads a scripted stream, with a notifier whose answers the test gives.
import * as assert from "node:assert/strict";
import { createAdapter } from "../../../src/dialects/registry";
import { Conversation, type Run, type RunRequest } from "../../../src/panel/conversation";
import { ReplayRun } from "../../../src/session/replay";
import { PermissionNotifications } from "../../../src/vscode/permission-notifications";
import * as cli from "../../helpers/stream-builder";
import { changeWhere, ScriptedHost, ScriptedStream } from "../../helpers/scripted-host";

/** Runs whose turns keep only a few blocks, so a test reaches the limits in a few lines; the answers they take are recorded. */
class SmallTurnsHost extends ScriptedHost {
  readonly answers: { requestId: string; optionId: string | null }[] = [];

  override startRun(request: RunRequest): Run {
    const stream = new ScriptedStream();
    this.streams.push(stream);
    const run = new ReplayRun(stream, { adapter: createAdapter("locus"), onChange: request.onChange, limits: { blocks: 3, permissionsPastBlocks: 1 } });
    const answer = (requestId: string, optionId: string | null) => this.answers.push({ requestId, optionId }) > 0;
    return { session: run.session, finished: run.finished, stop: () => run.stop(), kill: () => run.kill(), answer };
  }
}

/** Records each question; the test clicks a button of one by resolving it. */
class ClickableNotifier {
  readonly asked: { message: string; choices: readonly string[]; click: (choice: string | undefined) => void }[] = [];

  ask(message: string, choices: readonly string[]): Promise<string | undefined> {
    return new Promise((resolve) => this.asked.push({ message, choices, click: resolve }));
  }
}

const options = [{ id: "proceed_once", name: "Allow once", kind: "allow_once" as const }];
const request = (id: string, title: string) => cli.event("permission_requested", { requestId: id, toolId: `call-${id}`, title, options });

describe("permission notifications", () => {
  let host: SmallTurnsHost;
  let conversation: Conversation;
  let notifier: ClickableNotifier;

  beforeEach(() => {
    host = new SmallTurnsHost();
    conversation = new Conversation(host);
    notifier = new ClickableNotifier();
    conversation.observe(new PermissionNotifications(conversation, notifier, () => false, () => 1));
    conversation.send("edit the notes");
    host.stream.push(cli.start());
    for (let i = 0; i < 5; i++) host.stream.push(cli.status("working", `step ${i}`));
  });

  afterEach(() => conversation.dispose());

  const shown = (title: string) => changeWhere(conversation, (c) => c.kind === "block-added" && c.block.kind === "permission" && c.block.title === title);

  it("offers a request that comes after the turn's block limit", async () => {
    const asked = shown("Edit acp-notes.txt");
    host.stream.push(request("1", "Edit acp-notes.txt"));
    await asked;
    assert.deepEqual(
      notifier.asked.map(({ message, choices }) => ({ message, choices })),
      [{ message: "Agent Stream: Edit acp-notes.txt", choices: ["Allow once"] }],
    );
  });

  it("offers a request that takes the place of one answered past the limit, and a late click on the first answers nothing", async () => {
    const first = shown("Edit a.txt");
    host.stream.push(request("1", "Edit a.txt"));
    await first;
    const second = shown("Delete b.txt");
    host.stream.push(cli.event("permission_answered", { requestId: "1", decision: "rejected", optionId: "proceed_once", by: "user" }), request("2", "Delete b.txt"));
    await second;
    assert.deepEqual(
      notifier.asked.map((question) => question.message),
      ["Agent Stream: Edit a.txt", "Agent Stream: Delete b.txt"],
    );
    notifier.asked[0]!.click("Allow once");
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(host.answers, []);
    notifier.asked[1]!.click("Allow once");
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(host.answers, [{ requestId: "2", optionId: "proceed_once" }]);
  });

  it("never makes an \"always\" option the notification's first (primary) button, whatever order the agent gives", async () => {
    const asked = shown("Run npm test");
    const alwaysFirst = [
      { id: "always", name: "Always allow", kind: "allow_always" as const },
      { id: "never", name: "Never", kind: "reject_always" as const },
      { id: "reject", name: "Reject", kind: "reject_once" as const },
      { id: "once", name: "Allow", kind: "allow_once" as const },
    ];
    host.stream.push(cli.event("permission_requested", { requestId: "1", toolId: "call-1", title: "Run npm test", options: alwaysFirst }));
    await asked;
    assert.deepEqual(notifier.asked[0]!.choices, ["Allow", "Reject", "Always allow", "Never"]);
    notifier.asked[0]!.click("Always allow");
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(host.answers, [{ requestId: "1", optionId: "always" }]);
  });
});
