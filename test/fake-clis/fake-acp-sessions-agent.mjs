#!/usr/bin/env node
// An ACP agent that keeps sessions of its own, for the tests of listing (`session/list`) and showing (`session/load`)
// them. argv[2]: `lists` (offers sessionCapabilities.list and loadSession), `no-list` (offers neither), `endless` (every
// page of the list has a next cursor), `silent` (never answers session/list). FAKE_ACP_RECORD names a file where it
// appends each request it received, one JSON line each, so a test can assert that no session was made.
import * as acp from "@agentclientprotocol/sdk";
import * as fs from "node:fs";
import { Readable, Writable } from "node:stream";

const scenario = process.argv[2] ?? "lists";
const recordFile = process.env.FAKE_ACP_RECORD;
const record = (fact) => recordFile && fs.appendFileSync(recordFile, JSON.stringify(fact) + "\n");
const offers = scenario !== "no-list";

/** Two pages: this folder's two sessions and another folder's on the first, an untitled one on the second. */
function page(cwd, cursor) {
  if (scenario === "endless") return { sessions: [{ sessionId: `s-${cursor ?? 0}`, cwd, title: `Page ${cursor ?? 0}` }], nextCursor: String(Number(cursor ?? 0) + 1) };
  if (cursor === undefined || cursor === null) {
    return {
      sessions: [
        { sessionId: "ses_older", cwd, title: "Fix the build\nwith details", updatedAt: "2026-11-20T10:00:00Z" },
        { sessionId: "ses_elsewhere", cwd: "/somewhere/else", title: "Not this folder's", updatedAt: "2026-11-25T10:00:00Z" },
        { sessionId: "ses_newer", cwd, title: "Add a test", updatedAt: "2026-11-24T10:00:00Z" },
        { sessionId: 42, cwd, title: "An id that is not a string" },
      ],
      nextCursor: "page-2",
    };
  }
  return { sessions: [{ sessionId: "ses_untitled", cwd, title: null, updatedAt: null }] };
}

const REPLAY = [
  { sessionUpdate: "user_message_chunk", content: { type: "text", text: "When is " } },
  { sessionUpdate: "user_message_chunk", content: { type: "text", text: "the meeting?" } },
  { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "Read the notes." } },
  { sessionUpdate: "tool_call", toolCallId: "call-1", title: "Read notes.txt", kind: "read", status: "pending", rawInput: { path: "notes.txt" } },
  { sessionUpdate: "tool_call_update", toolCallId: "call-1", status: "completed", content: [{ type: "content", content: { type: "text", text: "10:30" } }] },
  { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "At " } },
  { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "10:30." } },
  { sessionUpdate: "user_message_chunk", content: { type: "text", text: "Thanks" } },
  { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "You're welcome." } },
];

const app = acp
  .agent({ name: "fake-acp-sessions-agent" })
  .onRequest(acp.methods.agent.initialize, () => {
    record({ method: "initialize" });
    return {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: { loadSession: offers, ...(offers ? { sessionCapabilities: { list: {} } } : {}) },
      agentInfo: { name: "fake-acp-sessions-agent", version: "1.0.0" },
    };
  })
  .onRequest(acp.methods.agent.session.list, async ({ params }) => {
    record({ method: "session/list", cwd: params.cwd, cursor: params.cursor ?? null });
    if (scenario === "silent") await new Promise(() => {});
    return page(params.cwd, params.cursor);
  })
  .onRequest(acp.methods.agent.session.new, () => {
    record({ method: "session/new" });
    return { sessionId: "ses_new" };
  })
  .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
    record({ method: "session/load", sessionId: params.sessionId });
    if (params.sessionId !== "ses_older") throw new acp.RequestError(-32002, "Resource not found", { sessionId: params.sessionId });
    for (const update of REPLAY) await client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update });
    return {};
  })
  .onRequest(acp.methods.agent.session.prompt, () => ({ stopReason: "end_turn" }));

const connection = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
connection.closed.then(() => process.exit(0));
