// What agent text built to hurt a regular expression costs, for the cases issue 22 names: Codex's "Reconnecting…"
// line, an ACP error's classification, and a tool title or path written as markdown. Each runs at n and at 2n
// characters; the growth between them is the baseline measured in the same run: about 2 for linear work, about 4
// for quadratic. CPU time of this process, which a shared machine's other work disturbs less than wall time.
import { blockToMarkdown } from "../src/common/transcript-markdown";
import { protocolErrorOfRpcError } from "../src/dialects/acp/turn-outcome";
import { CodexAdapter } from "../src/dialects/codex-adapter";
import { EventDecoder, type DecodedLineSink } from "../src/stream/event-decoder";
import { toolBlock } from "../test/helpers/turn-builder";

const ROUNDS = 3;
/** Small enough that the quadratic code this bench was written against finishes in minutes. */
const SIZES = [50_000, 100_000] as const;

const ignore: DecodedLineSink = { event: () => {}, problem: () => {} };

function codexLine(message: string): void {
  const decoder = new EventDecoder(new CodexAdapter(() => 0));
  decoder.decodeLine(JSON.stringify({ type: "thread.started", thread_id: "t" }), 1, ignore);
  decoder.decodeLine(JSON.stringify({ type: "turn.started" }), 2, ignore);
  decoder.decodeLine(JSON.stringify({ type: "error", message }), 3, ignore);
}

const CASES: [string, (n: number) => void][] = [
  ["Codex: 'Reconnecting... 1/1' + n spaces", (n) => codexLine(`Reconnecting... 1/1${" ".repeat(n)}x`)],
  ["ACP error: 'session ' repeated to n", (n) => protocolErrorOfRpcError({ code: -32603, message: "session ".repeat(n / 8) })],
  ["ACP error: 'status' + n spaces", (n) => protocolErrorOfRpcError({ code: -32603, message: `status${" ".repeat(n)}x` })],
  ["markdown: tool title of n spaces", (n) => blockToMarkdown(toolBlock({ tool: "read", title: `a${" ".repeat(n)}b` }))],
  ["markdown: path of 2n backtick runs", (n) => blockToMarkdown(toolBlock({ diffs: [{ path: "` ".repeat(2 * n), oldText: null, newText: "a\n" }] }))],
];

/** Best CPU milliseconds of a few rounds, or the error the case threw. */
function measure(run: () => void): number | Error {
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.cpuUsage();
    try {
      run();
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

function shown(result: number | Error): string {
  return result instanceof Error ? `${result.name}` : `${result.toFixed(1)} ms`;
}

console.log(`CPU ms, best of ${ROUNDS} rounds, at n = ${SIZES[0].toLocaleString("en-US")} and 2n; growth 2n/n (linear ≈ 2, quadratic ≈ 4)`);
for (const [name, run] of CASES) {
  const [small, large] = SIZES.map((n) => measure(() => run(n)));
  const growth = typeof small === "number" && typeof large === "number" ? `×${(large / Math.max(small, 0.1)).toFixed(1)}` : "";
  console.log(`${name.padEnd(40)} ${shown(small).padStart(12)} ${shown(large).padStart(12)}  ${growth}`);
}
