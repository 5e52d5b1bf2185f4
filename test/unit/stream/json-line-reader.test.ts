// Every agent's stdout is read by one reader: a stream CLI's (through the session feed) and an ACP agent's (through
// the wire) refuse the same bytes with the same problems, line for line.
import * as assert from "node:assert/strict";
import { AgentWire } from "../../../src/acp/agent-wire";
import { LocusAdapter } from "../../../src/dialects/locus-adapter";
import type { Problem } from "../../../src/protocol/transcript";
import { Session } from "../../../src/session/session";
import { createSessionFeed } from "../../../src/session/session-feed";
import { EventDecoder } from "../../../src/stream/event-decoder";
import { MAX_JSON_DEPTH } from "../../../src/stream/json-line";
import { JsonLineReader } from "../../../src/stream/json-line-reader";

const LIMIT = 256;
/** Lines every reader refuses: too long (split across chunks, CRLF), not JSON, too deep; blank lines between. */
const HOSTILE_CHUNKS = [
  Buffer.from(`{"a":"${"x".repeat(200)}`),
  Buffer.from(`${"y".repeat(200)}"}\r`),
  Buffer.from("\n\nnot json \u001b[2J\r\n   \n"),
  Buffer.from("[".repeat(MAX_JSON_DEPTH + 1) + "]".repeat(MAX_JSON_DEPTH + 1) + "\n"),
  Buffer.from("\ufeff{\"unterminated\":"),
];

function problemsOfTheStreamFeed(): readonly Problem[] {
  const session = new Session({ dialect: "locus" });
  session.begin();
  const feed = createSessionFeed(session, new EventDecoder(new LocusAdapter()), LIMIT);
  for (const chunk of HOSTILE_CHUNKS) feed.push(chunk);
  feed.end(null);
  return session.problems;
}

function problemsOfTheAcpWire(): Problem[] {
  const problems: Problem[] = [];
  const wire = new AgentWire(() => true, { sessionUpdate: () => {}, problem: (problem) => problems.push(problem) }, LIMIT);
  for (const chunk of HOSTILE_CHUNKS) wire.push(chunk);
  wire.end();
  return problems;
}

describe("the one JSON line reader of every agent's stdout", () => {
  it("refuses a line too long, one not JSON and one too deep, each with its line number, and goes on", () => {
    const problems: Problem[] = [];
    const values: Array<[unknown, number]> = [];
    const reader = new JsonLineReader({ value: (value, line) => values.push([value, line]), refused: (problem) => problems.push(problem) }, LIMIT);
    for (const chunk of HOSTILE_CHUNKS) reader.push(chunk);
    reader.push(Buffer.from('1}\n{"ok":1}\n'));
    reader.end();
    assert.deepEqual(
      problems.map((problem) => [problem.line, problem.code, problem.message.slice(0, 24)]),
      [
        [1, "MALFORMED_EVENT", "line of 408 bytes (408 b"],
        [3, "MALFORMED_EVENT", 'not JSON: "not json \\u00'],
        [5, "MALFORMED_EVENT", "nested deeper than 64 le"],
      ],
    );
    assert.deepEqual(values, [
      [{ unterminated: 1 }, 6],
      [{ ok: 1 }, 7],
    ]);
  });

  it("tells a stream CLI's bad lines and an ACP agent's in the same words, line for line", () => {
    const fromStream = problemsOfTheStreamFeed();
    assert.equal(fromStream.length, 4, JSON.stringify(fromStream));
    assert.deepEqual(problemsOfTheAcpWire(), fromStream);
  });
});
