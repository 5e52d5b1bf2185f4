#!/usr/bin/env node
// A scriptable ACP agent built with the SDK's agent side, for the ACP client's tests. argv[2] names the scenario;
// FAKE_ACP_RECORD names a file where it appends what it was told (one JSON line per fact: permission answers,
// cancels, session ids), so a test can assert what the agent really received.
//
// Scenarios: all-updates, stop:<reason>, permission, permission-read, permission-edit, fs, die, garbage, silent, slow, stubborn, deaf, fs-late, big-diffs,
// error:<401|internal|auth>, auth-required, load, turns, permission-again, permission-pair, permission-flood, flood-text, fs-burst, fs-unread, fs-unread-at-once,
// hostile:<line> (see HOSTILE_LINES), bypass-root and query-closed (session/new refused as claude-agent-acp 0.101 and
// 0.23.1 refuse it as root with IS_SANDBOX=yes). FAKE_ACP_STDERR: written to stderr before session/new is answered.
// FAKE_ACP_PROMPT_USAGE: the `usage` its prompt answers carry (JSON).
import * as acp from "@agentclientprotocol/sdk";
import { spawn } from "node:child_process";
import { once } from "node:events";
import * as fs from "node:fs";
import { Readable, Writable } from "node:stream";

const scenario = process.argv[2] ?? "turns";
const recordFile = process.env.FAKE_ACP_RECORD;
const record = (fact) => recordFile && fs.appendFileSync(recordFile, JSON.stringify(fact) + "\n");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// Every agent started, before any exchange: one stopped while it was still starting (a timeout) is counted too.
record({ agentStarted: process.pid });

let sessionCounter = 0;
let turns = 0;
let authenticated = false;
const cancelled = new Set();

/** A raw line on stdout, for what the SDK would refuse to send (unknown kinds, garbage); same stream, same order. */
function raw(line) {
  process.stdout.write(line + "\n");
}

/** A raw line, waiting for stdout to drain: for lines of megabytes. */
async function rawDrained(line) {
  if (!process.stdout.write(line + "\n")) await once(process.stdout, "drain");
}

async function update(client, sessionId, value) {
  await client.notify(acp.methods.client.session.update, { sessionId, update: value });
}

const text = (client, sessionId, chunk) =>
  update(client, sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: chunk } });

const prompts = {
  async "all-updates"(client, sessionId) {
    await text(client, sessionId, "Hello ");
    await update(client, sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "" } });
    await text(client, sessionId, "world");
    await update(client, sessionId, { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "thinking hard" } });
    await update(client, sessionId, {
      sessionUpdate: "tool_call",
      toolCallId: "t1",
      title: "Edit src/a.ts",
      kind: "edit",
      status: "pending",
      content: [{ type: "diff", path: "src/a.ts", oldText: null, newText: "export const a = 1;\n" }],
      locations: [{ path: "src/a.ts", line: 1 }],
      rawInput: { file: "src/a.ts" },
    });
    await update(client, sessionId, { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "in_progress" });
    await update(client, sessionId, {
      sessionUpdate: "tool_call_update",
      toolCallId: "t1",
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "wrote 1 line" } }],
      rawOutput: { ok: true },
    });
    await update(client, sessionId, {
      sessionUpdate: "plan",
      entries: [
        { content: "Read the code", priority: "high", status: "completed" },
        { content: "Fix the bug", priority: "medium", status: "in_progress" },
      ],
    });
    await update(client, sessionId, { sessionUpdate: "usage_update", used: 1200, size: 200000, cost: { amount: 0.01, currency: "USD" } });
    await update(client, sessionId, { sessionUpdate: "current_mode_update", currentModeId: "plan" });
    await update(client, sessionId, {
      sessionUpdate: "available_commands_update",
      availableCommands: [{ name: "review", description: "Review the changes" }],
    });
    await update(client, sessionId, { sessionUpdate: "session_info_update", title: "Fixing the bug" });
    await update(client, sessionId, { sessionUpdate: "user_message_chunk", content: { type: "text", text: "echo of the prompt" } });
    // What a newer agent might send: a kind and a field this client does not know.
    raw(JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: { sessionUpdate: "future_kind", x: 1 } } }));
    raw(JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "!" }, sparkle: true } } }));
    raw(JSON.stringify({ jsonrpc: "2.0", method: "_vendor/status", params: { ok: true } }));
    return "end_turn";
  },

  // FAKE_ACP_TITLE: the tool's title (and command), e.g. one with terminal escapes; FAKE_ACP_OPTIONS: the options, as JSON.
  async permission(client, sessionId) {
    const options = process.env.FAKE_ACP_OPTIONS === undefined ? DEFAULT_OPTIONS : JSON.parse(process.env.FAKE_ACP_OPTIONS);
    return askPermission(client, sessionId, "execute", process.env.FAKE_ACP_TITLE ?? "Run npm test", { options });
  },

  // An agent that does not remember its own "always" options: the same command twice, then another, in one turn;
  // FAKE_ACP_TITLELESS set: the requests name no title of their own.
  async "permission-again"(client, sessionId) {
    const titled = process.env.FAKE_ACP_TITLELESS === undefined;
    const options = [...DEFAULT_OPTIONS, { optionId: "never", name: "Always reject", kind: "reject_always" }];
    await askPermission(client, sessionId, "execute", titled ? "Run npm test" : undefined, { toolCallId: "again-1", options });
    await askPermission(client, sessionId, "execute", titled ? "Run npm test" : undefined, { toolCallId: "again-2", options });
    return askPermission(client, sessionId, "execute", titled ? "Run npm publish" : undefined, { toolCallId: "again-3", options });
  },

  // Two requests open at once, as an agent that runs tools in parallel: the second offers only two options.
  async "permission-pair"(client, sessionId) {
    const twoOptions = [
      { optionId: "go", name: "Allow", kind: "allow_once" },
      { optionId: "nope", name: "Reject", kind: "reject_once" },
    ];
    const outcomes = await Promise.all([
      askPermission(client, sessionId, "execute", "Run step one", { toolCallId: "pair-1" }),
      askPermission(client, sessionId, "execute", "Run step two", { toolCallId: "pair-2", options: twoOptions }),
    ]);
    return outcomes.includes("cancelled") ? "cancelled" : "end_turn";
  },

  // FAKE_ACP_FLOOD requests at once, each about its own call, without waiting for any answer; each answer recorded.
  async "permission-flood"(client, sessionId) {
    const count = Number(process.env.FAKE_ACP_FLOOD ?? "100");
    const asked = Array.from({ length: count }, (_, i) =>
      client
        .request(acp.methods.client.session.requestPermission, {
          sessionId,
          toolCall: { toolCallId: `flood-${i}`, title: `Run step ${i}`, kind: "execute", rawInput: { command: `step ${i}` } },
          options: DEFAULT_OPTIONS,
        })
        .then((response) => record({ flood: i, permission: response.outcome })),
    );
    await Promise.all(asked);
    return "end_turn";
  },

  // FAKE_ACP_FLOOD_BYTES of answer as fast as its stdout takes them (waiting for each drain, so a reader that holds
  // back holds it back), then records that it wrote them all.
  async "flood-text"(client, sessionId) {
    record({ floodStarted: process.pid });
    const total = Number(process.env.FAKE_ACP_FLOOD_BYTES ?? String(64 * 1024 * 1024));
    const chunk = "All work and no play makes a long answer. ".repeat(1524);
    const line = JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: chunk } } } }) + "\n";
    for (let written = 0; written < total; written += chunk.length) {
      if (!process.stdout.write(line)) await new Promise((resolve) => process.stdout.once("drain", resolve));
    }
    record({ flooded: total });
    return "end_turn";
  },

  async "permission-read"(client, sessionId) {
    return askPermission(client, sessionId, "read", "Read README.md");
  },

  // An edit as Gemini and Qwen make one: a tool call with a diff, a permission request, then the write through
  // fs/write_text_file only when allowed. FAKE_ACP_EDIT names the file (relative to the workspace).
  async "permission-edit"(client, sessionId) {
    const target = process.env.FAKE_ACP_EDIT ?? "notes.txt";
    const toolCall = {
      toolCallId: "e1",
      title: `Edit ${target}`,
      kind: "edit",
      status: "pending",
      locations: [{ path: target, line: 1 }],
      content: [{ type: "diff", path: target, oldText: "old line\n", newText: "new line\nadded line\n" }],
    };
    await update(client, sessionId, { sessionUpdate: "tool_call", ...toolCall });
    const response = await client.request(acp.methods.client.session.requestPermission, {
      sessionId,
      toolCall: { toolCallId: "e1", title: toolCall.title, kind: "edit" },
      options: [
        { optionId: "proceed_always", name: "Always allow", kind: "allow_always" },
        { optionId: "proceed_once", name: "Allow once", kind: "allow_once" },
        { optionId: "cancel", name: "Reject", kind: "reject_once" },
      ],
    });
    record({ permission: response.outcome });
    const allowed = response.outcome.outcome === "selected" && response.outcome.optionId !== "cancel";
    if (allowed) await client.request(acp.methods.client.fs.writeTextFile, { sessionId, path: target, content: "new line\nadded line\n" });
    await update(client, sessionId, { sessionUpdate: "tool_call_update", toolCallId: "e1", status: allowed ? "completed" : "failed" });
    await text(client, sessionId, allowed ? "edited it" : "left it alone");
    return response.outcome.outcome === "cancelled" ? "cancelled" : "end_turn";
  },

  async fs(client, sessionId) {
    for (const target of (process.env.FAKE_ACP_READ ?? "").split(",").filter(Boolean)) {
      try {
        const { content } = await client.request(acp.methods.client.fs.readTextFile, { sessionId, path: target, line: 2, limit: 1 });
        await text(client, sessionId, `read ${target}: ${content}\n`);
      } catch (error) {
        await text(client, sessionId, `read ${target} failed: ${error.code}\n`);
      }
    }
    for (const target of (process.env.FAKE_ACP_WRITE ?? "").split(",").filter(Boolean)) {
      try {
        await client.request(acp.methods.client.fs.writeTextFile, { sessionId, path: target, content: "written by the agent\n" });
        await text(client, sessionId, `wrote ${target}\n`);
      } catch (error) {
        await text(client, sessionId, `write ${target} failed: ${error.code}\n`);
      }
    }
    return "end_turn";
  },

  async die(client, sessionId) {
    await text(client, sessionId, "about to fail");
    process.stderr.write("fatal: the model client blew up\n");
    await sleep(20);
    process.exit(3);
  },

  async garbage(client, sessionId) {
    betweenTurns = async () => raw("late garbage");
    raw("this is not json");
    raw("{\"half\": ");
    raw("[1, 2, 3]");
    raw("42");
    await text(client, sessionId, "still here");
    return "end_turn";
  },

  // Says one thing, then nothing at all until it is stopped: a model call that hangs.
  async silent(client, sessionId) {
    record({ silentStarted: process.pid });
    await text(client, sessionId, "thinking it over");
    await new Promise(() => {});
  },

  async slow(client, sessionId) {
    record({ slowStarted: process.pid });
    for (let i = 0; !cancelled.has(sessionId); i++) {
      await text(client, sessionId, `tick ${i} `);
      await sleep(20);
    }
    return "cancelled";
  },

  /** Ignores session/cancel and SIGINT, and has a child of its own: only the escalation ends them. */
  async stubborn(client, sessionId) {
    process.on("SIGINT", () => record({ signal: "SIGINT" }));
    const child = spawn(process.execPath, ["-e", "process.on('SIGINT',()=>{}); setInterval(()=>{}, 1000)"], { stdio: "ignore" });
    record({ stubbornPid: process.pid, childPid: child.pid });
    await text(client, sessionId, "working");
    await new Promise(() => {});
  },

  /** Ignores session/cancel, SIGINT and SIGTERM, and so does its child: only SIGKILL ends them. */
  async deaf(client, sessionId) {
    for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => record({ signal }));
    const ignoring = "for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => {}); setInterval(() => {}, 1000)";
    const child = spawn(process.execPath, ["-e", ignoring], { stdio: "ignore" });
    record({ deafPid: process.pid, childPid: child.pid });
    await text(client, sessionId, "working");
    await new Promise(() => {});
  },

  // Touches files once the client has sent session/cancel (FAKE_ACP_FS_LATE=stop), or on SIGUSR2 between turns.
  async "fs-late"(client, sessionId) {
    betweenTurns = () => tryFiles(client, sessionId, "between turns");
    record({ fsLateStarted: process.pid });
    if (process.env.FAKE_ACP_FS_LATE !== "stop") return "end_turn";
    while (!cancelled.has(sessionId)) await sleep(10);
    await tryFiles(client, sessionId, "after stop");
    return "cancelled";
  },

  // FAKE_ACP_BURST reads of a.txt sent at once; records the JSON-RPC error code of each refused one ("ok" when read).
  async "fs-burst"(client, sessionId) {
    const reads = Array.from({ length: Number(process.env.FAKE_ACP_BURST ?? 20) }, () =>
      client.request(acp.methods.client.fs.readTextFile, { sessionId, path: process.env.FAKE_ACP_READ }).then(() => "ok", (error) => error.code),
    );
    record({ burst: await Promise.all(reads) });
    return "end_turn";
  },

  // Stops reading its stdin, then asks for FAKE_ACP_READS reads of FAKE_ACP_READ, one every 20 ms, never reading an
  // answer: the answers pile up on the client's side. Ends only when stopped.
  async "fs-unread"(client, sessionId) {
    // The SDK's web stream over stdin would resume it: take its listener away, and keep it paused.
    process.stdin.removeAllListeners("data");
    process.stdin.resume = () => process.stdin;
    process.stdin.pause();
    for (let i = 0; i < Number(process.env.FAKE_ACP_READS ?? 30); i++) {
      void client.request(acp.methods.client.fs.readTextFile, { sessionId, path: process.env.FAKE_ACP_READ }).catch(() => {});
      await sleep(20);
    }
    // Said after the last request on the same stream: once the client has it, it has every request.
    await text(client, sessionId, "asked them all");
    record({ unreadAsked: true });
    await new Promise(() => {});
  },

  // The same, with the FAKE_ACP_READS requests written at once, in one chunk: the client has them all before it
  // answers any.
  async "fs-unread-at-once"(client, sessionId) {
    process.stdin.removeAllListeners("data");
    process.stdin.resume = () => process.stdin;
    process.stdin.pause();
    const reads = Array.from({ length: Number(process.env.FAKE_ACP_READS ?? 30) }, (_, i) =>
      JSON.stringify({ jsonrpc: "2.0", id: `read-at-once-${i}`, method: "fs/read_text_file", params: { sessionId, path: process.env.FAKE_ACP_READ } }),
    );
    raw(reads.join("\n"));
    await text(client, sessionId, "asked them all");
    await new Promise(() => {});
  },

  // FAKE_ACP_CALLS tool calls (default 60), each with a diff of FAKE_ACP_DIFF_BYTES (default 10 MB), each then completed.
  async "big-diffs"(client, sessionId) {
    const newText = "x".repeat(Number(process.env.FAKE_ACP_DIFF_BYTES ?? 10 * 1024 * 1024));
    for (let i = 0; i < Number(process.env.FAKE_ACP_CALLS ?? 60); i++) {
      const toolCallId = `big-${i}`;
      const path = `file${i}.txt`;
      const created = { sessionUpdate: "tool_call", toolCallId, title: `Edit ${path}`, kind: "edit", status: "pending", content: [{ type: "diff", path, oldText: null, newText }], rawInput: { path } };
      await rawDrained(JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: created } }));
      await update(client, sessionId, { sessionUpdate: "tool_call_update", toolCallId, status: "completed" });
    }
    await text(client, sessionId, "wrote them all");
    return "end_turn";
  },

  async turns(client, sessionId) {
    turns++;
    await text(client, sessionId, `turn ${turns} in ${sessionId} pid ${process.pid}`);
    return "end_turn";
  },

  async load(client, sessionId) {
    await text(client, sessionId, `continued ${sessionId}`);
    return "end_turn";
  },

  async "auth-required"(client, sessionId) {
    await text(client, sessionId, "authenticated turn");
    return "end_turn";
  },
};

/** What the agent does on SIGUSR2, which a test sends between turns: what its last turn's scenario set. */
let betweenTurns = async () => {};
process.on("SIGUSR2", () => void betweenTurns());

/** A read of a.txt and a write of late.txt, each recorded as "ok" or the JSON-RPC error code it got. */
async function tryFiles(client, sessionId, when) {
  const outcome = (request) => request.then(() => "ok", (error) => error.code);
  const read = await outcome(client.request(acp.methods.client.fs.readTextFile, { sessionId, path: "a.txt" }));
  const write = await outcome(client.request(acp.methods.client.fs.writeTextFile, { sessionId, path: "late.txt", content: "late\n" }));
  record({ fsLate: when, read, write });
}

// Unusual ids and order, as real agents use: only the kinds say what each option means.
const DEFAULT_OPTIONS = [
  { optionId: "zz-always", name: "Always allow", kind: "allow_always" },
  { optionId: "nope", name: "Reject", kind: "reject_once" },
  { optionId: "proceed", name: "Allow once", kind: "allow_once" },
];

async function askPermission(client, sessionId, kind, title, { toolCallId = "p1", options = DEFAULT_OPTIONS } = {}) {
  // The first mention of the tool call is the permission request itself, as Gemini, Qwen and Codex do.
  const response = await client.request(acp.methods.client.session.requestPermission, {
    sessionId,
    toolCall: { toolCallId, title, kind, status: "pending", rawInput: { command: title } },
    options,
  });
  record({ permission: response.outcome, call: toolCallId });
  const allowed = response.outcome.outcome === "selected" && !["nope", "never"].includes(response.outcome.optionId);
  await update(client, sessionId, { sessionUpdate: "tool_call_update", toolCallId, status: allowed ? "completed" : "failed" });
  await text(client, sessionId, allowed ? "ran it" : "did not run it");
  return response.outcome.outcome === "cancelled" ? "cancelled" : "end_turn";
}

/** Thousands of nested arrays: a small line that overflows the stack of any recursive reader. */
const DEEP = "[".repeat(5000) + "]".repeat(5000);
/** Ids that are terminal escapes: an OSC 52 clipboard write, a screen clear, a right-to-left override. */
const ESCAPE_IDS = ["\x1b]52;c;aGFja2Vk\x07", "\x1b[2J\x1b[H", "\u202eevil"];

/**
 * What a hostile or broken agent writes mid-turn, one kind per scenario `hostile:<kind>`; the turn then goes on and
 * ends as usual, unless the kind answers the prompt itself. The first of them is always its stdout's line 3 (after the
 * answers to initialize and session/new).
 */
const HOSTILE_LINES = {
  "deep-tool": (sessionId) => [
    `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":${JSON.stringify(sessionId)},"update":{"sessionUpdate":"tool_call","toolCallId":"deep","title":"Deep","kind":"other","status":"pending","rawInput":{"x":${DEEP}}}}}`,
  ],
  // A request with an id of its own: the client answers it with an error, which this agent's SDK does not expect.
  "deep-permission": (sessionId) => [
    `{"jsonrpc":"2.0","id":"deep-permission","method":"session/request_permission","params":{"sessionId":${JSON.stringify(sessionId)},"toolCall":{"toolCallId":"deep","title":"Deep","kind":"execute","rawInput":{"x":${DEEP}}},"options":[{"optionId":"yes","name":"Allow","kind":"allow_once"}]}}`,
  ],
  // FAKE_ACP_LINE_BYTES: the line's size; default just over the 16 MiB default limit.
  long: (sessionId) => [
    JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x".repeat(Number(process.env.FAKE_ACP_LINE_BYTES ?? 17 * 1024 * 1024)) } } } }),
  ],
  bom: (sessionId) => ["\ufeff" + JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "after a BOM, " } } } })],
  "not-json": () => ["{\"jsonrpc\": \"2.0\", \"method\": "],
  "not-rpc": () => [JSON.stringify({ hello: "world" }), JSON.stringify([1, 2, 3]), JSON.stringify({ jsonrpc: "2.0" })],
  "unknown-id": () => ESCAPE_IDS.map((id) => JSON.stringify({ jsonrpc: "2.0", id, result: {} })),
  binary: () => [Buffer.from([0x00, 0x1b, 0x5b, 0x32, 0x4a, 0xc3, 0x28, 0xff, 0xfe, 0x9b, 0x07, 0x7f, 0xe2, 0x80, 0xae, 0x80, 0x0d]).toString("latin1")],
};

async function hostile(kind, client, sessionId, requestId) {
  if (kind === "binary") process.stdout.write(Buffer.from(HOSTILE_LINES.binary()[0] + "\n", "latin1"));
  else if (kind === "error-not-object") {
    // Answers the prompt itself, with an error that is not an object, and never properly.
    raw(JSON.stringify({ jsonrpc: "2.0", id: requestId, error: "the model fell over" }));
    await new Promise(() => {});
  } else for (const line of HOSTILE_LINES[kind](sessionId)) raw(line);
  await text(client, sessionId, "still here");
  return "end_turn";
}

function failPrompt(kind) {
  if (kind === "401") throw new acp.RequestError(401, '{"error":{"code":401,"message":"API key not valid. Please pass a valid API key.","status":"UNAUTHENTICATED"}}');
  if (kind === "internal") throw new acp.RequestError(-32603, "Internal error", { details: "429 Too Many Requests: rate limit exceeded" });
  if (kind === "auth") throw new acp.RequestError(-32000, "Authentication required");
  if (kind === "context") throw new acp.RequestError(-32603, "Internal error", { details: "prompt is too long: 210000 tokens > 200000 maximum" });
  throw new acp.RequestError(-32603, "Internal error", { details: "something odd" });
}

const app = acp
  .agent({ name: "fake-acp-agent" })
  .onRequest(acp.methods.agent.initialize, ({ params }) => {
    record({ initialize: params });
    return {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: scenario === "load",
        // FAKE_ACP_RESUME=broken: offers resume and answers it "Method not found", as Qwen Code 0.15.10 does.
        ...(process.env.FAKE_ACP_RESUME === "broken" ? { sessionCapabilities: { resume: {} } } : {}),
        // FAKE_ACP_PROMPT_CAPABILITIES='{"image":true}': what its prompts may carry besides text and resource links.
        ...(process.env.FAKE_ACP_PROMPT_CAPABILITIES === undefined ? {} : { promptCapabilities: JSON.parse(process.env.FAKE_ACP_PROMPT_CAPABILITIES) }),
      },
      authMethods: scenario === "auth-required" ? [{ id: "api-key", name: "API key" }] : [],
      agentInfo: { name: "fake-acp-agent", version: "1.0.0" },
    };
  })
  .onRequest(acp.methods.agent.authenticate, ({ params }) => {
    record({ authenticate: params.methodId });
    authenticated = true;
    return {};
  })
  .onRequest(acp.methods.agent.session.new, async ({ params }) => {
    if (process.env.FAKE_ACP_STDERR !== undefined) await new Promise((resolve) => process.stderr.write(process.env.FAKE_ACP_STDERR, resolve));
    if (scenario === "auth-required" && !authenticated) throw new acp.RequestError(-32000, "Authentication required");
    if (scenario === "bypass-root") {
      throw new acp.RequestError(-32603, "Internal error: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons", { startupFailureReason: "bypass_root" });
    }
    if (scenario === "query-closed") throw new acp.RequestError(-32603, "Internal error", { details: "Query closed before response received" });
    const sessionId = `session-${process.pid}-${++sessionCounter}`;
    record({ newSession: sessionId, cwd: params.cwd });
    return { sessionId };
  })
  .onRequest(acp.methods.agent.session.resume, ({ params }) => {
    record({ resumeSession: params.sessionId });
    throw acp.RequestError.methodNotFound("session/resume");
  })
  .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
    record({ loadSession: params.sessionId });
    // FAKE_ACP_LOAD=refuse: the saved session is gone, as Gemini CLI 0.61.0 answers for every saved session.
    if (process.env.FAKE_ACP_LOAD === "refuse") throw new acp.RequestError(-32603, "Internal error", { details: "No previous sessions found for this project." });
    await update(client, params.sessionId, { sessionUpdate: "user_message_chunk", content: { type: "text", text: "old question" } });
    await text(client, params.sessionId, "old answer");
    return {};
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client, requestId }) => {
    record({ prompt: params.prompt });
    if (scenario.startsWith("hostile:")) return { stopReason: await hostile(scenario.slice("hostile:".length), client, params.sessionId, requestId) };
    if (scenario.startsWith("stop:")) {
      await text(client, params.sessionId, "partial answer");
      return { stopReason: scenario.slice("stop:".length) };
    }
    if (scenario.startsWith("error:")) failPrompt(scenario.slice("error:".length));
    const stopReason = await prompts[scenario](client, params.sessionId);
    // FAKE_ACP_PROMPT_USAGE: the answer's `usage` (unstable ACP), as JSON, as claude-agent-acp sends it.
    return { stopReason, ...(process.env.FAKE_ACP_PROMPT_USAGE === undefined ? {} : { usage: JSON.parse(process.env.FAKE_ACP_PROMPT_USAGE) }) };
  })
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    record({ cancel: params.sessionId });
    cancelled.add(params.sessionId);
  });

const connection = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
connection.closed.then(() => {
  record({ stdinClosed: process.pid });
  // FAKE_ACP_IGNORE_EOF=1: stays after its stdin closed, as an agent that only signals end.
  if (process.env.FAKE_ACP_IGNORE_EOF === "1") setInterval(() => {}, 1000);
  else process.exit(0);
});
