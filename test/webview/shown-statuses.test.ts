// What a finished turn keeps of the agent's statuses (shown-blocks.ts): a user's words show once, whether only the
// steered message or only the agent's echo holds them, and a notice that explains the answer stays under it.
import * as assert from "node:assert/strict";
import { createAdapter, type DialectName } from "../../src/dialects/registry";
import { LOST_SESSION_MESSAGE } from "../../src/dialects/acp/acp-event-translator";
import type { CliStreamEvent } from "../../src/protocol/events";
import { decodeAll, fixture } from "../helpers/dialect-harness";
import * as cli from "../helpers/stream-builder";
import { WebviewHarness } from "../helpers/webview-harness";
import { changeMessages, recordTurn, snapshotOf, type RecordedTurn, type Step } from "./conversations";

/** A CLI's own recording (test/fixtures/<folder>/<name>) as the events its adapter makes of it. */
function recorded(dialect: DialectName, folder: string, name: string): CliStreamEvent[] {
  const values = fixture(folder, name)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as unknown);
  const { events, problems } = decodeAll(createAdapter(dialect), values, null);
  assert.deepEqual(problems, []);
  return events;
}

/** The events with the user's `steer` sent just before the agent's echo of it, as the session notes it when sent. */
function steeredBeforeEcho(events: readonly CliStreamEvent[], steer: string): Step[] {
  const echo = events.findIndex((event) => event.type === "status" && event.payload.status === "prompt");
  assert.ok(echo > 0, "the recording holds the agent's echo of a second message");
  return [...events.slice(0, echo), { steer }, ...events.slice(echo)];
}

describe("webview: the user's words and the agent's notices in a finished turn", function () {
  let harness: WebviewHarness;

  before(async function () {
    harness = await WebviewHarness.open({ viewport: { width: 420, height: 700 } });
  });

  after(async function () {
    await harness?.close();
  });

  async function showLive(turn: RecordedTurn): Promise<string> {
    await harness.send({ type: "snapshot", turns: [], restriction: null });
    await harness.send(turn.started);
    await harness.sendOverFrames(changeMessages(turn, 3), 2);
    await harness.page.locator(".turn-footer").waitFor();
    return harness.page.locator(".turn").innerText();
  }

  async function showReplayed(turn: RecordedTurn): Promise<string> {
    await harness.send(snapshotOf([turn]));
    await harness.page.locator(".turn-footer").waitFor();
    return harness.page.locator(".turn").innerText();
  }

  const count = (text: string, words: string) => text.split(words).length - 1;

  it("shows a message sent into Claude's running turn once, as the user sent it, though Claude echoed it", async function () {
    const steer = "Also say it in French.";
    const events = recorded("claude", "claude-recorded", "2.1.330/steer-mid-answer.ndjson");
    const turn = recordTurn(0, "Read notes.txt and tell me what it says.", steeredBeforeEcho(events, steer), "Claude Code");
    for (const text of [await showLive(turn), await showReplayed(turn)]) {
      assert.equal(count(text, steer), 1, text);
      assert.match(text, /You, while the agent worked\s+Also say it in French\./);
      assert.match(text, /en français/);
    }
  });

  it("shows the words of each prompt a replayed recording holds, Claude's and pi's", async function () {
    const recordings: [DialectName, string][] = [
      ["claude", "claude-recorded/2.1.330/two-messages.ndjson"],
      ["pi", "pi-recorded/0.73.1/two-messages.ndjson"],
    ];
    for (const [dialect, file] of recordings) {
      const [folder, ...name] = file.split("/");
      const turn = recordTurn(0, "My name is Ada.", recorded(dialect, folder, name.join("/")), "Replay");
      const text = await showReplayed(turn);
      assert.equal(count(text, "What is my name?"), 1, `${file}: ${text}`);
      assert.match(text, /Nice to meet you, Ada![\s\S]*You\s+What is my name\?[\s\S]*Your name is Ada\./, file);
      assert.doesNotMatch(text, /while the agent worked/, file);
    }
  });

  it("shows no words for a prompt whose echo the CLI wrote only after its answer (Claude Code 2.1.197)", async function () {
    const turn = recordTurn(0, "My name is Ada.", recorded("claude", "claude-recorded", "2.1.197/two-messages.ndjson"), "Replay");
    const text = await showReplayed(turn);
    assert.match(text, /Nice to meet you, Ada![\s\S]*Your name is Ada\./);
    assert.doesNotMatch(text, /Message 2/);
    assert.equal(await harness.page.locator(".turn .steered-message").count(), 0);
  });

  it("keeps the notice that the agent could not continue the earlier conversation once the turn is over", async function () {
    const turn = recordTurn(0, "And now the tests?", [cli.start(), cli.status("new session", LOST_SESSION_MESSAGE), cli.textDelta("Which tests do you mean?"), cli.done()], "Claude ACP");
    for (const text of [await showLive(turn), await showReplayed(turn)]) {
      assert.equal(count(text, LOST_SESSION_MESSAGE), 1, text);
      assert.ok(text.indexOf(LOST_SESSION_MESSAGE) < text.indexOf("Which tests do you mean?"), text);
    }
    assert.equal(await harness.page.getByRole("note").innerText(), LOST_SESSION_MESSAGE);
  });

  it("copies the turn's answer with the same words, once", async function () {
    const steer = "Also say it in French.";
    const events = recorded("claude", "claude-recorded", "2.1.330/steer-mid-answer.ndjson");
    await showReplayed(recordTurn(0, "Read notes.txt and tell me what it says.", steeredBeforeEcho(events, steer), "Claude Code"));
    await harness.clearIntents();
    await harness.page.getByRole("button", { name: "Copy answer as markdown" }).click();
    const [copy] = await harness.intents();
    assert.ok(copy?.type === "copy");
    assert.equal(count(copy.text, steer), 1, copy.text);
    assert.ok(copy.text.includes(`> **You, while the agent worked:** ${steer}`), copy.text);
  });
});
