#!/usr/bin/env node
// An ACP agent that only asks the client for files, as a hostile agent might, for the tests of the client's file
// access. FAKE_ACP_FS is a JSON array of requests, made one after another in each turn:
//   {"read": path, "line"?: n, "limit"?: n}   fs/read_text_file
//   {"write": path, "content": text}          fs/write_text_file
// Each answer is said back as one line of text, a JSON object: {"ok": true, "chars": n, "head": first 200 characters}
// or {"ok": false, "code": JSON-RPC code, "message": ...}; nothing else is said, so a test can parse the turn's text.
import * as acp from "@agentclientprotocol/sdk";
import { Readable, Writable } from "node:stream";

const requests = JSON.parse(process.env.FAKE_ACP_FS ?? "[]");
const HEAD_CHARS = 200;

async function say(client, sessionId, fact) {
  await client.notify(acp.methods.client.session.update, {
    sessionId,
    update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: JSON.stringify(fact) + "\n" } },
  });
}

async function serve(client, sessionId, request) {
  try {
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
