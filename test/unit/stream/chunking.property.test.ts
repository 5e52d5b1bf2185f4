// Properties of the whole read path (bytes → lines → events → session) that must hold for any input.
import { strict as assert } from "node:assert";
import fc from "fast-check";
import { LocusAdapter } from "../../../src/dialects/locus-adapter";
import { CliStreamEventSchema, PROTOCOL_ERROR_CODES, type CliStreamEvent } from "../../../src/protocol/events";
import { FINAL_STATUSES, type Transcript } from "../../../src/protocol/transcript";
import { replayStream } from "../../../src/session/replay";
import { LineReader } from "../../../src/stream/line-reader";
import {
  T0,
  chunksOf,
  done,
  errorEvent,
  start,
  status,
  textDelta,
  thinking,
  toolCompleted,
  toolStarted,
} from "../../helpers/stream-builder";

const RUNS = 200;
/** start, up to 25 events, done. */
const MAX_EVENTS = 27;

// ---- arbitraries -------------------------------------------------------------------------------

/** Text that makes chunk boundaries interesting: multi-byte, astral, joined emoji, CJK, line separators. */
const text = fc.oneof(
  fc.constantFrom("👋", "世界你好", "héllo", "🧑‍💻 ok", "日本語のテキスト", "a\r\nb", "\u2028\u2029", "\ufeff", "💥".repeat(7), ""),
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 12 }),
);

const toolName = fc.constantFrom("Read", "Grep", "Edit", "読む");
const toolId = fc.constantFrom("toolu_1", "toolu_2", "toolu_3");

const middleEvent: fc.Arbitrary<CliStreamEvent> = fc.oneof(
  text.map((t) => textDelta(t)),
  text.map((t) => thinking(t)),
  fc.tuple(toolName, toolId, text).map(([tool, id, path]) => toolStarted(tool, id, { path })),
  fc.tuple(toolName, toolId, fc.boolean(), fc.nat(5000)).map(([tool, id, success, duration]) =>
    toolCompleted(tool, id, success ? { success, duration } : { success, error: "failed 💥" }),
  ),
  fc.tuple(text, text).map(([s, m]) => status(s, m)),
  fc.tuple(fc.constantFrom(...PROTOCOL_ERROR_CODES), text).map(([code, message]) => errorEvent(code, message, true)),
);

/** start → anything in between → done, each event a little later than the one before. */
const validEvents: fc.Arbitrary<CliStreamEvent[]> = fc
  .tuple(text, fc.array(middleEvent, { maxLength: MAX_EVENTS - 2 }), fc.integer({ min: 0, max: 2 }))
  .map(([model, middle, exitCode]) =>
    [start({ model }), ...middle, done({ exitCode, duration: 1000 })].map((event, i) => ({ ...event, timestamp: T0 + i * 10 })),
  );

interface StreamLine {
  readonly json: string;
  readonly crlf: boolean;
  /** A blank or whitespace-only line after this one. */
  readonly blankAfter: "" | "\n" | "  \r\n";
}

const lineFormat = fc.record({ crlf: fc.boolean(), blankAfter: fc.constantFrom<StreamLine["blankAfter"]>("", "\n", "  \r\n") });

const validStream: fc.Arbitrary<StreamLine[]> = fc
  .tuple(validEvents, fc.array(lineFormat, { minLength: MAX_EVENTS, maxLength: MAX_EVENTS }))
  .map(([events, formats]) => events.map((event, i) => ({ json: JSON.stringify(event), ...formats[i] })));

/** Where to cut the bytes: fractions of the length, or after every single byte. */
const cuts = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constant("every-byte" as const) },
);

// ---- helpers ---------------------------------------------------------------------------------

function render(lines: readonly StreamLine[], useCrlf: boolean): string {
  return lines.map((l) => l.json + (useCrlf && l.crlf ? "\r\n" : "\n") + (useCrlf ? l.blankAfter : l.blankAfter && "\n")).join("");
}

/** Cuts bytes into chunks; some are plain Uint8Array views into the middle of a shared buffer, as a pipe's may be. */
function chunk(bytes: Buffer, how: readonly number[] | "every-byte"): Uint8Array[] {
  const points =
    how === "every-byte"
      ? Array.from({ length: bytes.length }, (_, i) => i)
      : [...new Set(how.map((f) => Math.floor(f * bytes.length)))].sort((a, b) => a - b);
  const bounds = [0, ...points.filter((p) => p > 0 && p < bytes.length), bytes.length];
  const chunks: Uint8Array[] = [];
  for (let i = 1; i < bounds.length; i++) {
    const [from, to] = [bounds[i - 1], bounds[i]];
    chunks.push(i % 2 === 0 ? bytes.subarray(from, to) : new Uint8Array(bytes.buffer, bytes.byteOffset + from, to - from));
  }
  return chunks;
}

interface Replayed {
  readonly transcript: Transcript;
  readonly events: CliStreamEvent[];
}

async function replay(chunks: Iterable<Uint8Array | string>, maxLineBytes?: number): Promise<Replayed> {
  const events: CliStreamEvent[] = [];
  const session = await replayStream(chunksOf(chunks), {
    adapter: new LocusAdapter(),
    onEvent: (event) => events.push(event),
    ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
  });
  return { transcript: session.toTranscript(), events };
}

/** The normalized stream's promises: start first, exactly one done and it is last, every event valid protocol 1. */
function assertWellFormed({ transcript, events }: Replayed): void {
  const types = events.map((e) => e.type);
  assert.equal(types[0], "start", `first event: ${types.join(",")}`);
  assert.equal(types.filter((t) => t === "done").length, 1, `done count: ${types.join(",")}`);
  assert.equal(types[types.length - 1], "done", `last event: ${types.join(",")}`);
  for (const event of events) assert.ok(CliStreamEventSchema.safeParse(event).success, `invalid event ${JSON.stringify(event)}`);
  assert.ok((FINAL_STATUSES as readonly string[]).includes(transcript.status), `status ${transcript.status}`);
}

type ReaderOutput = ["line", string, number] | ["oversized", number, number];

/** What LineReader must do, written the slow and obvious way: split the whole input on LF. */
function referenceLines(bytes: Buffer, maxLineBytes: number): ReaderOutput[] {
  const out: ReaderOutput[] = [];
  let lineNumber = 0;
  for (let from = 0; from < bytes.length; ) {
    const newline = bytes.indexOf(0x0a, from);
    const end = newline === -1 ? bytes.length : newline;
    const contentEnd = end > from && bytes[end - 1] === 0x0d ? end - 1 : end;
    lineNumber++;
    if (contentEnd - from > maxLineBytes) out.push(["oversized", lineNumber, contentEnd - from]);
    else {
      const text = bytes.toString("utf8", from, contentEnd);
      if (text.trim() !== "") out.push(["line", text, lineNumber]);
    }
    from = end + 1;
  }
  return out;
}

function readLines(chunks: readonly Uint8Array[], maxLineBytes: number): ReaderOutput[] {
  const out: ReaderOutput[] = [];
  const reader = new LineReader(
    {
      onLine: (text, lineNumber) => out.push(["line", text, lineNumber]),
      onOversizedLine: (lineNumber, sizeBytes) => out.push(["oversized", lineNumber, sizeBytes]),
    },
    maxLineBytes,
  );
  for (const chunk of chunks) {
    reader.push(chunk);
    assert.ok(reader.bufferedBytes <= maxLineBytes + 1, `buffered ${reader.bufferedBytes} bytes, limit ${maxLineBytes}`);
  }
  reader.end();
  return out;
}

/** Bytes rich in line endings, CRs, whitespace, multi-byte characters and invalid UTF-8. */
const lineishBytes = fc
  .array(
    fc.oneof(
      fc.constantFrom("\n", "\r\n", "\r", " ", "\t", "\u3000", "\u00a0", "\ufeff", "👋", "世界", "{}", "x".repeat(9)),
      fc.string({ unit: "binary", maxLength: 8 }),
      fc.uint8Array({ maxLength: 4 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
    ),
    { maxLength: 60 },
  )
  .map((pieces) => Buffer.concat(pieces.map((piece) => Buffer.from(piece, /[^\u0000-\u00ff]/.test(piece) ? "utf8" : "latin1"))));

// ---- the properties --------------------------------------------------------------------------

describe("reading a stream in chunks (property)", function () {
  this.timeout(60_000);

  it("splits any bytes into the same lines as splitting the whole input on LF, however they are chunked", () => {
    fc.assert(
      fc.property(lineishBytes, fc.integer({ min: 1, max: 24 }), cuts, (bytes, maxLineBytes, how) => {
        assert.deepEqual(readLines(chunk(bytes, how), maxLineBytes), referenceLines(bytes, maxLineBytes));
      }),
      { numRuns: RUNS },
    );
  });

  it("gives the same transcript however a valid stream is chunked, and with CRLF or LF endings", async () => {
    await fc.assert(
      fc.asyncProperty(validStream, cuts, async (lines, how) => {
        const expected = await replay([render(lines, false)]);
        const actual = await replay(chunk(Buffer.from(render(lines, true), "utf8"), how));
        // Guards against a vacuous pass: every generated line must have decoded, through to the CLI's own done.
        assert.deepEqual(expected.transcript.problems.filter((p) => p.code === "MALFORMED_EVENT"), []);
        assert.equal(expected.transcript.done.synthesized, false);
        assert.deepEqual(actual.transcript, expected.transcript);
        assert.deepEqual(actual.events, expected.events);
      }),
      { numRuns: RUNS },
    );
  });

  it("gives the same transcript when a valid stream arrives as strings cut between characters", async () => {
    await fc.assert(
      fc.asyncProperty(validStream, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 20 }), async (lines, fractions) => {
        const whole = render(lines, true);
        const characters = Array.from(whole); // code points, so no cut splits a surrogate pair
        const points = [...new Set(fractions.map((f) => Math.floor(f * characters.length)))].sort((a, b) => a - b);
        const bounds = [0, ...points, characters.length];
        const strings = bounds.slice(1).map((to, i) => characters.slice(bounds[i], to).join(""));
        const expected = await replay([Buffer.from(whole, "utf8")]);
        const actual = await replay(strings);
        assert.deepEqual(actual.transcript, expected.transcript);
      }),
      { numRuns: RUNS / 2 },
    );
  });

  it("turns any bytes at all into a well-formed stream with exactly one done, last", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2048 }), cuts, async (bytes, how) => {
        assertWellFormed(await replay(chunk(Buffer.from(bytes), how)));
      }),
      { numRuns: RUNS },
    );
  });

  describe("with a mixture of valid, garbled, truncated and blank lines", () => {
    const anyEvent = fc.oneof(
      middleEvent,
      text.map((model) => start({ model })),
      fc.integer({ min: -1, max: 130 }).map((exitCode) => done({ exitCode, duration: 5 })),
      fc.tuple(fc.constantFrom(...PROTOCOL_ERROR_CODES), text).map(([code, message]) => errorEvent(code, message, false)),
      middleEvent.map((event) => ({ ...event, protocol: 2 })),
      text.map((content) => ({ ...textDelta(content), type: "file_changed" })),
    );
    const garbledLine = fc.oneof(
      anyEvent.map((event) => JSON.stringify(event)),
      anyEvent.map((event) => "\ufeff" + JSON.stringify(event)),
      fc.tuple(anyEvent, fc.double({ min: 0, max: 1, noNaN: true })).map(([event, f]) => {
        const json = JSON.stringify(event);
        return json.slice(0, Math.floor(f * json.length)); // truncated JSON
      }),
      fc.string({ unit: "binary", maxLength: 40 }), // garbage text
      fc.constantFrom("", "   ", "\t", "\r", "\ufeff", "null", "[]", "42", '"done"', "{}", '{"type":"done","payload":{}}'),
      fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
    );
    const rawLine = fc.oneof(
      { weight: 6, arbitrary: garbledLine.map((line) => Buffer.from(line, "utf8")) },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) }, // invalid UTF-8 too
    );
    const mixedStream = fc.record({
      lines: fc.array(fc.tuple(rawLine, fc.constantFrom("\n", "\r\n")), { maxLength: 30 }),
      finalNewline: fc.boolean(),
      maxLineBytes: fc.constantFrom(undefined, 48, 200),
    });

    it("never throws and always yields a well-formed stream with exactly one done, last", async () => {
      await fc.assert(
        fc.asyncProperty(mixedStream, cuts, async ({ lines, finalNewline, maxLineBytes }, how) => {
          const parts = lines.flatMap(([line, ending]) => [line, Buffer.from(ending)]);
          if (!finalNewline && parts.length > 0) parts.pop();
          assertWellFormed(await replay(chunk(Buffer.concat(parts), how), maxLineBytes));
        }),
        { numRuns: RUNS },
      );
    });
  });
});
