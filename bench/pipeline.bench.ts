// Throughput of decode + validate + session against bare JSON.parse of the same lines, in one run.
// Targets: the pipeline at no less than 0.45 of JSON.parse's speed, a regression guard (issue 22: reading bytes into
// lines and the depth check alone hold it near 0.6–0.7, which the report prints beside it as the ceiling); the same mix
// as Claude Code writes it, through the Claude adapter's schemas, at 0.45; ACP `session/update` chunks read from the
// agent's stdout and decoded into events at no less than 0.5 (issue 14).
import { AgentWire } from "../src/acp/agent-wire";
import { SessionUpdateDecoder } from "../src/dialects/acp/session-update-decoder";
import { ClaudeAdapter } from "../src/dialects/claude-adapter";
import type { DialectAdapter } from "../src/dialects/dialect";
import { LocusAdapter } from "../src/dialects/locus-adapter";
import type { CliStreamEvent } from "../src/protocol/events";
import { Session } from "../src/session/session";
import { createSessionFeed } from "../src/session/session-feed";
import { EventDecoder } from "../src/stream/event-decoder";
import { LineReader } from "../src/stream/line-reader";

const EVENT_COUNT = 200_000;
const CHUNK_BYTES = 64 * 1024;
const ROUNDS = 15;

/** The protocol document's mix: mostly text deltas, then tool pairs and thinking, a status now and then. */
export function makeStream(count: number): string[] {
  const sid = "5b0a0c3e-8f7a-4a8e-9a54-0d6c1f1d2e3f";
  let t = 1_707_700_000_000;
  const line = (type: string, payload: object) => JSON.stringify({ protocol: 1, type, sessionId: sid, timestamp: t++, payload });
  const lines = [line("start", { command: "exec", model: "claude-sonnet-4-5", provider: "anthropic", cwd: "/home/user/project" })];
  let tool = 0;
  while (lines.length < count - 1) {
    const r = lines.length % 100;
    if (r < 80) lines.push(line("text_delta", { content: `The authentication flow works by checking token ${lines.length} — `.slice(0, 20 + (lines.length % 40)) }));
    else if (r < 88) lines.push(line("thinking", { content: "Let me analyze the auth middleware and its callers." }));
    else if (r < 93) {
      const toolId = `toolu_${tool++}`;
      lines.push(line("tool_started", { tool: "Read", toolId, parameters: { file_path: `/src/auth/file${tool}.ts` } }));
      lines.push(line("tool_completed", { tool: "Read", toolId, success: true, duration: 42 }));
    } else lines.push(line("status", { status: "streaming", message: "Streaming AI response" }));
  }
  lines.push(line("done", { exitCode: 0, duration: 12345, toolsUsed: ["Read"], success: true }));
  return lines;
}

/** The same mix in Claude Code's stream-json: text deltas inside content blocks, tool calls as blocks and results. */
function makeClaudeStream(count: number): string[] {
  const session_id = "5b0a0c3e-8f7a-4a8e-9a54-0d6c1f1d2e3f";
  const event = (e: object) => JSON.stringify({ type: "stream_event", event: e, session_id, parent_tool_use_id: null });
  const lines = [JSON.stringify({ type: "system", subtype: "init", session_id, model: "claude-sonnet-4-5", cwd: "/home/user/project", tools: [] })];
  let message = 0;
  let index = 0;
  const open = (block: object) => lines.push(event({ type: "content_block_start", index, content_block: block }));
  const close = () => lines.push(event({ type: "content_block_stop", index: index++ }));
  lines.push(event({ type: "message_start", message: { id: `msg_${message++}`, role: "assistant", content: [] } }));
  open({ type: "text", text: "" });
  while (lines.length < count - 1) {
    const r = lines.length % 100;
    if (r < 80) {
      const text = `The authentication flow works by checking token ${lines.length} — `.slice(0, 20 + (lines.length % 40));
      lines.push(event({ type: "content_block_delta", index, delta: { type: "text_delta", text } }));
    } else if (r < 88) {
      lines.push(event({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: "Let me analyze the auth middleware." } }));
    } else if (r === 88) {
      close();
      const id = `toolu_${message}`;
      open({ type: "tool_use", id, name: "Read", input: {} });
      lines.push(event({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: `{"file_path": "/src/auth/file${message}.ts"}` } }));
      close();
      lines.push(JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] }, session_id, parent_tool_use_id: null }));
      lines.push(event({ type: "message_start", message: { id: `msg_${message++}`, role: "assistant", content: [] } }));
      index = 0;
      open({ type: "text", text: "" });
    } else lines.push(event({ type: "ping" }));
  }
  lines.push(JSON.stringify({ type: "result", subtype: "success", is_error: false, duration_ms: 12345, session_id, usage: { input_tokens: 10, output_tokens: 20 } }));
  return lines;
}

export function chunked(bytes: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK_BYTES) chunks.push(bytes.subarray(i, i + CHUNK_BYTES));
  return chunks;
}

function runPipeline(chunks: readonly Buffer[], adapter: DialectAdapter = new LocusAdapter()): number {
  let events = 0;
  const session = new Session({ dialect: adapter.dialect, onEvent: () => events++ });
  const feed = createSessionFeed(session, new EventDecoder(adapter));
  for (const chunk of chunks) feed.push(chunk);
  feed.end();
  session.endOfStream();
  if (session.problems.length > 0) throw new Error(`bench stream has problems: ${session.problems[0].message}`);
  return events;
}

function readAndParse(chunks: readonly Buffer[]): number {
  let parsed = 0;
  const reader = new LineReader({
    onLine: (text) => {
      if ((JSON.parse(text) as CliStreamEvent).type) parsed++;
    },
    onOversizedLine: () => {},
  });
  for (const chunk of chunks) reader.push(chunk);
  reader.end();
  return parsed;
}

function runJsonParse(lines: readonly string[]): number {
  let parsed = 0;
  for (const text of lines) if ((JSON.parse(text) as CliStreamEvent).type) parsed++;
  return parsed;
}

/** What an ACP agent streams during a long answer: one `agent_message_chunk` per model delta. */
function makeAcpStream(count: number): string[] {
  const sessionId = "5b0a0c3e-8f7a-4a8e-9a54-0d6c1f1d2e3f";
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const text = `The authentication flow works by checking token ${i} — `.slice(0, 20 + (i % 40));
    lines.push(JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } } }));
  }
  return lines;
}

/** The connection's update path: stdout bytes → lines → JSON → the update decoder → events. */
function runAcp(chunks: readonly Buffer[]): number {
  let events = 0;
  const decoder = new SessionUpdateDecoder({ event: () => events++, trace: (message) => { throw new Error(`bench stream traced: ${message}`); } });
  const wire = new AgentWire(() => true, {
    sessionUpdate: (params) => decoder.decode((params as { update: unknown }).update),
    problem: (problem) => { throw new Error(`bench stream has problems: ${problem.message}`); },
  });
  for (const chunk of chunks) wire.push(chunk);
  wire.end();
  return events;
}

function runJsonParseAcp(lines: readonly string[]): number {
  let parsed = 0;
  for (const text of lines) if ((JSON.parse(text) as { method: string }).method) parsed++;
  return parsed;
}

function timeIt(fn: () => number): number {
  // Each run starts from a collected heap, so one run's garbage is not billed to the next.
  collectGarbage();
  const started = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const collectGarbage: () => void = typeof global.gc === "function" ? global.gc : () => {};

/** Noise on a shared machine only ever adds time: the fastest round is the steadiest estimate of each side. */
function best(values: number[]): number {
  return Math.min(...values);
}

interface Scenario {
  /** The first line of the report: what the lines are. */
  title: string;
  /** What the measured path does, for its line of the report. */
  label: string;
  /** Its name in the ratio line. */
  name: string;
  unit: string;
  /** The lowest ratio the issue accepts. */
  target: number;
  lines: string[];
  /** The path under test, over the lines' bytes in 64 KiB chunks; returns how many events it produced. */
  run(chunks: readonly Buffer[]): number;
  /** Bare JSON.parse of the same lines, reading one field as any consumer would. */
  baseline(lines: readonly string[]): number;
  /** What no pipeline over stdout can beat: reading the bytes into lines and parsing each, nothing else. */
  ceiling?(chunks: readonly Buffer[]): number;
}

function compareWithJsonParse(scenario: Scenario): void {
  const { lines } = scenario;
  const bytes = Buffer.from(lines.join("\n") + "\n", "utf8");
  const chunks = chunked(bytes);
  const events = scenario.run(chunks);
  // A Claude stream's lines are not one event each (pings, block ends); a Locus or ACP stream's are.
  if (scenario.name !== "claude" && events !== lines.length) throw new Error(`${scenario.label} lost events`);

  const pathMs: number[] = [];
  const parseMs: number[] = [];
  const ceilingMs: number[] = [];
  const ceiling = scenario.ceiling;
  // Interleave them so machine noise hits each alike.
  for (let round = 0; round < ROUNDS; round++) {
    parseMs.push(timeIt(() => scenario.baseline(lines)));
    pathMs.push(timeIt(() => scenario.run(chunks)));
    if (ceiling !== undefined) ceilingMs.push(timeIt(() => ceiling(chunks)));
  }
  const mb = bytes.length / (1024 * 1024);
  const measured = best(pathMs);
  const parse = best(parseMs);
  const ratio = parse / measured;
  const rate = (ms: number) => `${ms.toFixed(1)} ms  ${(lines.length / ms / 1000).toFixed(2)} M ${scenario.unit}/s  ${(mb / (ms / 1000)).toFixed(1)} MiB/s`;
  console.log(`${scenario.title}: ${lines.length}, bytes: ${mb.toFixed(1)} MiB, best of ${ROUNDS} rounds${global.gc ? "" : " — run with --expose-gc for steadier numbers"}`);
  console.log(`JSON.parse baseline:           ${rate(parse)}`);
  console.log(`${(scenario.label + ":").padEnd(30)} ${rate(measured)}`);
  if (ceilingMs.length > 0) {
    const reading = best(ceilingMs);
    console.log(`${"read lines + JSON.parse only:".padEnd(30)} ${rate(reading)}  (ratio ${(parse / reading).toFixed(2)}: the ceiling for any pipeline)`);
  }
  console.log(`speed ratio (${scenario.name} / JSON.parse): ${ratio.toFixed(2)}  (target >= ${scenario.target.toFixed(2)}: ${ratio >= scenario.target ? "met" : "NOT met"})`);
}

function main(): void {
  compareWithJsonParse({
    title: "events",
    label: "decode+validate+session",
    name: "pipeline",
    unit: "events",
    target: 0.45,
    lines: makeStream(EVENT_COUNT),
    run: (chunks) => runPipeline(chunks),
    baseline: runJsonParse,
    ceiling: readAndParse,
  });
  console.log("");
  compareWithJsonParse({
    title: "Claude stream-json lines",
    label: "claude decode+validate+session",
    name: "claude",
    unit: "lines",
    target: 0.45,
    lines: makeClaudeStream(EVENT_COUNT),
    run: (chunks) => runPipeline(chunks, new ClaudeAdapter()),
    baseline: runJsonParse,
  });
  console.log("");
  compareWithJsonParse({
    title: "ACP session/update chunks",
    label: "ACP read+decode into events",
    name: "ACP",
    unit: "updates",
    target: 0.5,
    lines: makeAcpStream(EVENT_COUNT),
    run: runAcp,
    baseline: runJsonParseAcp,
  });
}

// Only when run: pipeline-stages.bench.ts borrows the stream.
if (require.main === module) main();
