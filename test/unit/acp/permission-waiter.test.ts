// The chat's permission cards: a request waits for the user's click on its own card, and nothing but a click allows.
import * as assert from "node:assert/strict";
import type { AcpPermissionRequest } from "../../../src/dialects/acp/acp-events";
import { PermissionWaiter } from "../../../src/acp/permission-waiter";
import type { PermissionBlock } from "../../../src/protocol/transcript";

function request(requestId: number, toolCallId: string, title: string): AcpPermissionRequest {
  return {
    requestId,
    toolCallId,
    title,
    toolKind: "edit",
    options: [
      { id: "proceed_once", name: "Allow once", kind: "allow_once" },
      { id: "cancel", name: "Reject", kind: "reject_once" },
    ],
    outsideWorkspace: [],
  };
}

/** The card the chat shows for a request. */
function card(r: AcpPermissionRequest): PermissionBlock {
  return { kind: "permission", toolId: r.toolCallId, title: r.title, options: r.options.map(({ id, name, kind }) => ({ id, name, kind })), decision: null, optionId: null, answeredBy: null, outsideWorkspace: [] };
}

describe("PermissionWaiter", () => {
  it("answers a request with the option clicked on its own card, and counts what waits", async () => {
    const counts: number[] = [];
    const waiter = new PermissionWaiter((n) => counts.push(n));
    const first = request(1, "call-1", "Write notes.txt");
    const second = request(2, "call-2", "Run npm test");
    const answers = [waiter.decide(first, new AbortController().signal), waiter.decide(second, new AbortController().signal)];
    assert.equal(waiter.count, 2);
    assert.equal(waiter.answer(card(second), "cancel"), true);
    assert.equal(waiter.answer(card(first), "proceed_once"), true);
    assert.deepEqual(await Promise.all(answers), [{ optionId: "proceed_once" }, { optionId: "cancel" }]);
    assert.deepEqual(counts, [1, 2, 1, 0]);
  });

  it("answers a dismissed card cancelled, never allowed", async () => {
    const waiter = new PermissionWaiter();
    const r = request(1, "call-1", "Write notes.txt");
    const answer = waiter.decide(r, new AbortController().signal);
    waiter.answer(card(r), null);
    assert.equal(await answer, "cancelled");
  });

  it("refuses an option the request did not offer, and a card that matches no waiting request", async () => {
    const waiter = new PermissionWaiter();
    const r = request(1, "call-1", "Write notes.txt");
    void waiter.decide(r, new AbortController().signal);
    assert.equal(waiter.answer(card(r), "allow_always_forged"), false);
    assert.equal(waiter.answer({ ...card(r), toolId: "call-9" }, "proceed_once"), false);
    assert.equal(waiter.count, 1);
  });

  it("settles cancelled when Stop aborts the request, and a later click does nothing", async () => {
    const waiter = new PermissionWaiter();
    const r = request(1, "call-1", "Write notes.txt");
    const stop = new AbortController();
    const answer = waiter.decide(r, stop.signal);
    stop.abort();
    assert.equal(await answer, "cancelled");
    assert.equal(waiter.answer(card(r), "proceed_once"), false);
    assert.equal(waiter.count, 0);
  });
});
