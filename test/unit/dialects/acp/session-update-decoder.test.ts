import * as assert from "node:assert/strict";
import type { AcpEvent } from "../../../../src/dialects/acp/acp-events";
import { SessionUpdateDecoder } from "../../../../src/dialects/acp/session-update-decoder";

function decoder(): { decoder: SessionUpdateDecoder; events: AcpEvent[]; traces: string[] } {
  const events: AcpEvent[] = [];
  const traces: string[] = [];
  return { decoder: new SessionUpdateDecoder({ event: (event) => events.push(event), trace: (message) => traces.push(message) }), events, traces };
}

describe("ACP session/update decoder", () => {
  it("never throws on values of any shape, and traces what it ignores", () => {
    const { decoder: d, events, traces } = decoder();
    for (const value of [null, 42, "x", [], {}, { sessionUpdate: 7 }, { sessionUpdate: "agent_message_chunk" },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: 5 } }, { sessionUpdate: "tool_call" },
      { sessionUpdate: "tool_call_update", toolCallId: "t", content: "not a list" }, { sessionUpdate: "plan", entries: [{ content: "x" }] },
      { sessionUpdate: "usage_update", used: "lots" }]) {
      d.decode(value);
    }
    assert.deepEqual(events, []);
    assert.ok(traces.length >= 8, traces.join("\n"));
  });

  it("traces an unknown kind once, however often it comes", () => {
    const { decoder: d, traces } = decoder();
    for (let i = 0; i < 5; i++) d.decode({ sessionUpdate: "future_kind" });
    assert.equal(traces.length, 1);
  });

  it("keeps a tool call's known kind and drops an unknown status or content item, not the update", () => {
    const { decoder: d, events, traces } = decoder();
    d.decode({ sessionUpdate: "tool_call", toolCallId: "t", title: "Search", kind: "teleport", status: "pending" });
    d.decode({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "paused", content: [{ type: "hologram" }, { type: "content", content: { type: "text", text: "found 3" } }] });
    const last = events.at(-1);
    assert.ok(last?.type === "tool_call");
    assert.deepEqual([last.call.kind, last.call.status, last.call.content], ["other", "pending", [{ type: "text", text: "found 3" }]]);
    assert.equal(traces.length, 3, traces.join("\n"));
  });

  it("creates a tool call from an update that comes before any tool_call", () => {
    const { decoder: d, events } = decoder();
    d.decode({ sessionUpdate: "tool_call_update", toolCallId: "late", status: "in_progress" });
    assert.deepEqual(events.map((event) => event.type === "tool_call" && [event.change, event.call.status]), [["created", "in_progress"]]);
  });

  it("replaces the plan each time", () => {
    const { decoder: d, events } = decoder();
    d.decode({ sessionUpdate: "plan", entries: [{ content: "a", priority: "low", status: "pending" }] });
    d.decode({ sessionUpdate: "plan", entries: [] });
    assert.deepEqual(events.map((event) => event.type === "plan" && event.entries.length), [1, 0]);
  });
});
