import * as assert from "node:assert/strict";
import * as os from "node:os";
import * as path from "node:path";
import { createAdapter } from "../../../src/dialects/registry";
import { Conversation, type RunRequest } from "../../../src/panel/conversation";
import { NotificationPolicy, type Notice } from "../../../src/panel/notification-policy";
import { LiveSession } from "../../../src/session/live-session";
import { ReplayRun } from "../../../src/session/replay";
import * as cli from "../../helpers/stream-builder";
import { changeWhere, ScriptedHost } from "../../helpers/scripted-host";

describe("notifications for session errors", () => {
  let host: ScriptedHost;
  let conversation: Conversation;
  let notices: Notice[];

  beforeEach(() => {
    host = new ScriptedHost();
    conversation = new Conversation(host);
    notices = [];
    conversation.observe(new NotificationPolicy((notice) => notices.push(notice)));
  });

  afterEach(() => conversation.dispose());

  async function runToEnd(...events: unknown[]): Promise<void> {
    conversation.send("question");
    host.stream.push(...events);
    host.stream.end();
    await changeWhere(conversation, (c) => c.kind === "done");
  }

  const table: [string, readonly string[]][] = [
    ["AUTH_EXPIRED", ["logIn"]],
    ["NETWORK_TIMEOUT", ["retry"]],
    ["CONTEXT_LIMIT", ["newSession"]],
    ["SESSION_NOT_FOUND", ["newSession"]],
    ["PROCESS_CRASHED", ["showLog", "retry"]],
    ["UNKNOWN", ["showLog", "retry"]],
  ];
  for (const [code, actions] of table) {
    it(`a session ended by ${code} gives one error notification offering ${actions.join(" / ")}`, async () => {
      await runToEnd(cli.start(), cli.textDelta("Working"), cli.errorEvent(code as "UNKNOWN", `the ${code} detail`), cli.done({ exitCode: 1 }));
      assert.equal(notices.length, 1);
      assert.equal(notices[0].severity, "error");
      assert.deepEqual(notices[0].actions, actions);
      assert.match(notices[0].message, new RegExp(`^scripted: .+\\. the ${code} detail$`));
      assert.equal(notices[0].turn.prompt, "question", "the actions apply to this turn");
    });
  }

  it("a refused API key's notification says so and offers Open Settings, then Log In", async () => {
    const cause = { kind: "api-key-rejected" as const, variable: "ANTHROPIC_API_KEY" };
    await runToEnd(cli.start(), cli.event("error", { error: { code: "AUTH_EXPIRED", message: "Invalid API key", recoverable: false, cause } }), cli.done({ exitCode: 1 }));
    assert.equal(notices.length, 1);
    assert.deepEqual(notices[0].actions, ["openCliEnv", "logIn"]);
    assert.equal(notices[0].message, "scripted: The API key was rejected. Invalid API key");
  });

  it("CLI_NOT_FOUND from a real spawn failure offers Set CLI Path, Use Built-in Agent and Show Log", async () => {
    const missing = path.join(os.tmpdir(), "no-such-agent-cli-" + process.pid);
    class SpawningHost extends ScriptedHost {
      override agentName = () => "no-such-agent-cli";
      override startRun = (request: RunRequest) =>
        LiveSession.start({ adapter: createAdapter("locus"), process: { command: missing, args: ["--", request.prompt], cwd: os.tmpdir() }, onChange: request.onChange });
    }
    const spawning = new Conversation(new SpawningHost());
    spawning.observe(new NotificationPolicy((notice) => notices.push(notice)));
    spawning.send("hello");
    await changeWhere(spawning, (c) => c.kind === "done");
    assert.equal(notices.length, 1);
    assert.deepEqual(notices[0].actions, ["setCliPath", "useBuiltinAgent", "showLog"]);
    assert.match(notices[0].message, /^no-such-agent-cli: The agent CLI could not be found\. .*no-such-agent-cli/);
    spawning.dispose();
  });

  it("keeps recoverable errors inline: no notification, and the turn completes", async () => {
    await runToEnd(cli.start(), cli.errorEvent("NETWORK_TIMEOUT", "retrying in 2 s", true), cli.textDelta("Done."), cli.done());
    assert.deepEqual(notices, []);
  });

  it("gives at most one notification for malformed lines in a session, with Show Log / Retry", async () => {
    await runToEnd(cli.start(), "not json\n", "{\"type\":\"nope\"\n", cli.textDelta("still here"), "<html>\n", cli.done());
    assert.equal(notices.length, 1);
    assert.equal(notices[0].severity, "warning");
    assert.deepEqual(notices[0].actions, ["showLog", "retry"]);
    assert.match(notices[0].message, /could not be read \(line 2\)/);
  });

  it("a crash after malformed lines still reports the crash", async () => {
    await runToEnd(cli.start(), "garbage\n", cli.errorEvent("PROCESS_CRASHED", "exit code 139"), cli.done({ exitCode: 139 }));
    assert.deepEqual(
      notices.map((n) => [n.severity, n.actions]),
      [
        ["warning", ["showLog", "retry"]],
        ["error", ["showLog", "retry"]],
      ],
    );
  });

  it("the next session may warn about malformed lines again", async () => {
    await runToEnd(cli.start(), "garbage\n", cli.done());
    await new Promise((resolve) => setImmediate(resolve));
    await runToEnd(cli.start(), "garbage\n", cli.done());
    assert.equal(notices.length, 2);
  });

  it("never reports the user's own Stop", async () => {
    conversation.send("long");
    host.stream.push(cli.start(), cli.textDelta("partial"));
    await changeWhere(conversation, (c) => c.kind === "block-added" && c.block.kind === "text");
    await conversation.stop();
    assert.deepEqual(notices, []);
  });

  it("a failure with no error event still notifies, with the exit code", async () => {
    await runToEnd(cli.start(), cli.textDelta("hm"), cli.done({ exitCode: 3 }));
    assert.equal(notices.length, 1);
    assert.match(notices[0].message, /ended without success \(exit code 3\)/);
    assert.deepEqual(notices[0].actions, ["showLog", "retry"]);
  });

  it("a replayed stream is a record, not a run: its errors never pop up", async () => {
    const stream = cli.toNdjson([cli.start(), cli.errorEvent("AUTH_EXPIRED", "old news"), cli.done({ exitCode: 1 })]);
    conversation.replay("Replay of old.ndjson", (listener) => new ReplayRun(cli.chunksOf([stream]), { adapter: createAdapter("locus"), ...listener }));
    await changeWhere(conversation, (c) => c.kind === "done");
    assert.deepEqual(notices, []);
  });
});
