// Where the pipeline's time goes: the Locus bench stream through ever longer prefixes of the pipeline, each stage's
// cost being the difference to the one before. Measured in CPU time of this process (run with --single-threaded-gc
// so collector threads do not add theirs), which a shared machine's other work disturbs far less than wall time.
import { PerformanceObserver } from "node:perf_hooks";
import type { DialectAdapter } from "../src/dialects/dialect";
import { LocusAdapter } from "../src/dialects/locus-adapter";
import { Session } from "../src/session/session";
import { createSessionFeed } from "../src/session/session-feed";
import { EventDecoder, type DecodedLineSink } from "../src/stream/event-decoder";
import { LineReader } from "../src/stream/line-reader";
import { chunked, makeStream } from "./pipeline.bench";

const ROUNDS = 9;
const lines = makeStream(200_000);
const chunks = chunked(Buffer.from(lines.join("\n") + "\n", "utf8"));

function read(onLine: (text: string, line: number) => void): void {
  const reader = new LineReader({ onLine, onOversizedLine: () => {} });
  for (const chunk of chunks) reader.push(chunk);
  reader.end();
}

const failOnProblem: DecodedLineSink = { event: () => {}, problem: (p) => { throw new Error(p.message); } };
/** Parses nothing further: what the decoder costs around JSON.parse, without an adapter. */
const bareAdapter: DialectAdapter = { dialect: "bare", decode: () => {} };

function feedSession(keepBlocks: boolean): void {
  const session = new Session({ dialect: "locus", onEvent: () => {}, keepBlocks });
  const feed = createSessionFeed(session, new EventDecoder(new LocusAdapter()));
  for (const chunk of chunks) feed.push(chunk);
  feed.end();
  session.endOfStream();
}

const STAGES: [string, () => void][] = [
  ["JSON.parse of the lines", () => { for (const text of lines) JSON.parse(text); }],
  ["+ line reader", () => read((text) => JSON.parse(text))],
  ["+ decoder (depth check)", () => { const decoder = new EventDecoder(bareAdapter); read((text, line) => decoder.decodeLine(text, line, failOnProblem)); }],
  ["+ Locus adapter (zod)", () => { const decoder = new EventDecoder(new LocusAdapter()); read((text, line) => decoder.decodeLine(text, line, failOnProblem)); }],
  ["+ session, no transcript", () => feedSession(false)],
  ["+ transcript kept", () => feedSession(true)],
];

let gcMs = 0;
new PerformanceObserver((list) => { for (const entry of list.getEntries()) gcMs += entry.duration; }).observe({ entryTypes: ["gc"] });
const collectGarbage: () => void = typeof global.gc === "function" ? global.gc : () => {};

/** GC entries are delivered later, on the event loop: let them land before counting starts or ends. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 10));
}

async function main(): Promise<void> {
  const cpu = STAGES.map(() => [] as number[]);
  const gc = STAGES.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, [, run]] of STAGES.entries()) {
      collectGarbage();
      await settle();
      gcMs = 0;
      const started = process.cpuUsage();
      run();
      const used = process.cpuUsage(started);
      await settle();
      cpu[i].push((used.user + used.system) / 1000);
      gc[i].push(gcMs);
    }
  }
  console.log(`${lines.length} lines, CPU ms, best of ${ROUNDS} rounds (GC pauses of that round)`);
  let previous = 0;
  for (const [i, [name]] of STAGES.entries()) {
    const best = Math.min(...cpu[i]);
    const round = cpu[i].indexOf(best);
    const step = i === 0 ? "" : `  (${best - previous >= 0 ? "+" : ""}${(best - previous).toFixed(1)})`;
    console.log(`${name.padEnd(26)} ${best.toFixed(1).padStart(7)}${step.padEnd(10)}  gc ${gc[i][round].toFixed(1)}`);
    previous = best;
  }
  // What the 0.6 leaves for everything after JSON.parse: a pipeline must turn bytes into strings before it can
  // parse them, so the line reader's stage is the most any pipeline of this shape can reach.
  const parse = Math.min(...cpu[0]);
  const read = Math.min(...cpu[1]);
  const whole = Math.min(...cpu[STAGES.length - 1]);
  console.log(`reading and parsing alone reach ${(parse / read).toFixed(2)} of JSON.parse; the whole pipeline ${(parse / whole).toFixed(2)}`);
  console.log(`at 0.6 the decoder, adapter, session and transcript would have ${(parse / 0.6 - read).toFixed(1)} ms; they take ${(whole - read).toFixed(1)}`);
}

void main();
