// A webview that reloads (hidden and shown again) asks for a snapshot and must show exactly what it showed.
import * as assert from "node:assert/strict";
import * as cli from "../helpers/stream-builder";
import { WebviewHarness, type TestHostMessage } from "../helpers/webview-harness";
import { answeredTurn, changeMessages, crashedTurn, deltas, recordTurn, runningTurn, snapshotOf, type RecordedTurn } from "./conversations";
import { TEST_SESSION_ID } from "../helpers/test-session";

describe("webview: replaying a snapshot after a reload", function () {
  let harness: WebviewHarness;

  before(async function () {
    harness = await WebviewHarness.open({ viewport: { width: 420, height: 500 } });
  });

  after(async function () {
    await harness?.close();
  });

  /** The transcript as a reader gets it: text, plus the structure around it. */
  function transcriptOutline(): Promise<{ text: string; outline: string[] }> {
    return harness.page.evaluate(() => {
      const transcript = document.querySelector(".transcript")!;
      const outline = Array.from(transcript.querySelectorAll("*")).map((node) => {
        const open = node instanceof HTMLDetailsElement ? (node.open ? "[open]" : "[closed]") : "";
        return `${node.tagName.toLowerCase()}.${node.getAttribute("class") ?? ""}${open}${node instanceof HTMLElement && node.hidden ? "[hidden]" : ""}`;
      });
      return { text: (transcript as HTMLElement).innerText, outline };
    });
  }

  async function streamLive(turns: readonly RecordedTurn[]): Promise<void> {
    for (const turn of turns) {
      await harness.send(turn.started);
      await harness.sendOverFrames(changeMessages(turn, 3), 2);
    }
    await harness.frames(2);
  }

  it("shows the same transcript after a reload as it showed while streaming", async function () {
    const turns = [answeredTurn(0), crashedTurn(1), runningTurn(2)];
    await harness.send({ type: "snapshot", turns: [], restriction: null });
    await streamLive(turns);
    await harness.page.locator(".turn").nth(2).locator(".tool-card").waitFor();
    const live = await transcriptOutline();

    await harness.reload();
    await harness.send(snapshotOf(turns));
    await harness.page.locator(".turn").nth(2).locator(".tool-card").waitFor();
    const replayed = await transcriptOutline();

    assert.equal(replayed.text, live.text);
    assert.deepEqual(replayed.outline, live.outline);
    assert.match(live.text, /Why the login fails[\s\S]*3 lines could not be read[\s\S]*Now fix it, please/);
  });

  it("continues a turn that was still streaming with the changes that follow the snapshot", async function () {
    const text = "First paragraph of the answer.\n\nSecond paragraph, still being written.";
    const turn = recordTurn(0, "resume", [cli.start(), ...deltas(text, 6), cli.done()]);
    const cut = Math.floor(turn.changes.length / 2);
    const partial = recordTurn(0, "resume", [cli.start(), ...deltas(text, 6).slice(0, cut - 2)]);
    assert.deepEqual(partial.changes, turn.changes.slice(0, partial.changes.length), "the partial turn is a prefix");
    await harness.reload();
    await harness.send(snapshotOf([partial]));
    const rest: TestHostMessage[] = changeMessages(turn).slice(partial.changes.length);
    await harness.sendOverFrames(rest);
    await harness.page.locator(".turn-footer").waitFor();
    assert.deepEqual(await harness.page.locator(".answer-text p").allTextContents(), [
      "First paragraph of the answer.",
      "Second paragraph, still being written.",
    ]);
  });

  it("returns to where the user had scrolled to before the reload", async function () {
    const long = recordTurn(0, "long", [cli.start(), cli.textDelta(Array.from({ length: 80 }, (_, i) => `Paragraph ${i}.`).join("\n\n")), cli.done()]);
    await harness.send(snapshotOf([long]));
    await harness.page.locator(".turn-footer").waitFor();
    // Until the snapshot is painted whole the view keeps to the end: the user scrolls once it is done (under load the
    // footer showed while the answer's last parts were still being painted, and the end took the place back).
    await harness.frames(1);
    await harness.page.evaluate(() => (document.querySelector(".transcript")!.scrollTop = 600));
    await harness.page.waitForFunction(() => JSON.parse(sessionStorage.getItem("__vscodeState") ?? "{}").scrollTop === 600);
    await harness.reload();
    await harness.send(snapshotOf([long]));
    await harness.frames(1);
    assert.equal(await harness.page.evaluate(() => document.querySelector(".transcript")!.scrollTop), 600);
  });

  it("keeps nothing but the scroll position, the session shown and unsent drafts in the webview's saved state", async function () {
    const state = await harness.page.evaluate(() => JSON.parse(sessionStorage.getItem("__vscodeState") ?? "null"));
    assert.deepEqual(Object.keys(state ?? {}).sort(), ["drafts", "following", "scrollTop", "sessionId"]);
    assert.ok(Object.values(state.drafts as Record<string, unknown>).every((draft) => typeof draft === "string"), "drafts are text, by session");
    assert.equal(state.sessionId, TEST_SESSION_ID, "a reloaded editor tab comes back to the session it showed");
  });
});
