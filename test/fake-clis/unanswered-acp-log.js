#!/usr/bin/env node
// A client's log of ACP traffic (dialect `acp`) generated on the fly, too large to keep as a fixture: a handshake, then
// turns until the log is <megabytes> long, each a prompt, an agent request the log never answers and the prompt's
// answer.
//   unanswered-acp-log.js <megabytes> [<characters>]  the request is fs/write_text_file of that many characters (0)
// Writes in batches with writeSync, so its own memory stays small whatever it prints.
"use strict";
const fs = require("node:fs");

const [megabytes, characters = "0"] = process.argv.slice(2);
const total = Number(megabytes) * 1024 * 1024;
const content = "x".repeat(Number(characters));
const write = (text) => {
  const bytes = Buffer.from(text, "utf8");
  for (let written = 0; written < bytes.length; ) written += fs.writeSync(1, bytes, written);
  return bytes.length;
};
const line = (message) => JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n";

let bytes = write(
  line({ id: 0, method: "initialize", params: { protocolVersion: 1 } }) +
    line({ id: 0, result: { protocolVersion: 1 } }) +
    line({ id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } }) +
    line({ id: 1, result: { sessionId: "s" } }),
);
for (let id = 2; bytes < total; ) {
  let batch = "";
  for (const end = id + 256; id < end; id++) {
    batch +=
      line({ id, method: "session/prompt", params: { sessionId: "s", prompt: [] } }) +
      line({ id: `w${id}`, method: "fs/write_text_file", params: { sessionId: "s", path: `/w/${id}.txt`, content } }) +
      line({ id, result: { stopReason: "end_turn" } });
  }
  bytes += write(batch);
}
