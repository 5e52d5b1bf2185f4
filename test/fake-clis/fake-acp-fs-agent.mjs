#!/usr/bin/env node
// An ACP agent that only asks the client for files, as a hostile agent might, for the tests of the client's file
// access. FAKE_ACP_FS is a JSON array of requests, made one after another in each turn:
//   {"read": path, "line"?: n, "limit"?: n}   fs/read_text_file
//   {"write": path, "content": text}          fs/write_text_file
//   {"edit": path, "content": text}           an edit tool call naming the file, with no diff: a permission request,
//                                             and when allowed the agent writes the file itself (as Claude Code does)
// Each answer is said back as one line of text, a JSON object: {"ok": true, "chars": n, "head": first 200 characters}
// or {"ok": false, "code": JSON-RPC code, "message": ...}; nothing else is said, so a test can parse the turn's text.
import * as acp from "@agentclientprotocol/sdk";
import * as fs from "node:fs";
import { Readable, Writable } from "node:stream";

const requests = JSON.parse(process.env.FAKE_ACP_FS ?? "[]");
const HEAD_CHARS = 200;

async function say(client, sessionId, fact) {
  await client.notify(acp.methods.client.session.update, {
    sessionId,
    update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: JSON.stringify(fact) + "\n" } },
  });
}

let edits = 0;

/** An edit call with no diff: asks, then writes the file itself when allowed, and ends the call. */
async function edit(client, sessionId, request) {
  const toolCallId = `edit-${++edits}`;
  const update = (fields) => client.notify(acp.methods.client.session.update, { sessionId, update: { sessionUpdate: "tool_call_update", toolCallId, ...fields } });
  await client.notify(acp.methods.client.session.update, {
    sessionId,
    update: { sessionUpdate: "tool_call", toolCallId, title: `Edit ${request.edit}`, kind: "edit", status: "pending", locations: [{ path: request.edit }] },
  });
  const { outcome } = await client.request(acp.methods.client.session.requestPermission, {
    sessionId,
    toolCall: { toolCallId, title: `Edit ${request.edit}`, kind: "edit", locations: [{ path: request.edit }] },
    options: [
      { optionId: "yes", name: "Allow", kind: "allow_once" },
      { optionId: "no", name: "Reject", kind: "reject_once" },
    ],
  });
  if (outcome.outcome !== "selected" || outcome.optionId !== "yes") {
    await update({ status: "failed", content: [{ type: "content", content: { type: "text", text: "rejected" } }] });
    return { ok: false, message: "rejected" };
  }
  fs.writeFileSync(request.edit, request.content);
  await update({ status: "completed", content: [{ type: "content", content: { type: "text", text: "edited" } }] });
  return { ok: true };
}

async function serve(client, sessionId, request) {
  try {
    if ("edit" in request) return await edit(client, sessionId, request);
    if ("read" in request) {
      const { content } = await client.request(acp.methods.client.fs.readTextFile, { sessionId, path: request.read, line: request.line, limit: request.limit });
      return { ok: true, chars: content.length, head: content.slice(0, HEAD_CHARS) };
    }
    await client.request(acp.methods.client.fs.writeTextFile, { sessionId, path: request.write, content: request.content });
    return { ok: true };
  } catch (error) {
    return { ok: false, code: error.code, message: String(error.message) };
  }
}

let sessions = 0;
const app = acp
  .agent({ name: "fake-acp-fs-agent" })
  .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {}, authMethods: [] }))
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: `fs-session-${++sessions}` }))
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    for (const request of requests) await say(client, params.sessionId, await serve(client, params.sessionId, request));
    return { stopReason: "end_turn" };
  });

const connection = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
connection.closed.then(() => process.exit(0));
