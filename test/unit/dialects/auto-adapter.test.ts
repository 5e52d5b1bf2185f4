import * as assert from "node:assert/strict";
import { AutoAdapter, MAX_UNRECOGNIZED_VALUES } from "../../../src/dialects/auto-adapter";
import type { AdapterOutput, DialectAdapter, DialectDefinition } from "../../../src/dialects/dialect";
import { EventFactory } from "../../../src/dialects/event-factory";
import { LocusAdapter } from "../../../src/dialects/locus-adapter";
import { replayStream } from "../../../src/session/replay";
import * as cli from "../../helpers/stream-builder";

/** A tiny made-up dialect: {"say":"…"} lines are text, {"bye":true} ends it. */
class SayAdapter implements DialectAdapter {
  readonly dialect = "say";
  private readonly factory = new EventFactory(() => cli.T0);
  decode(value: unknown, out: AdapterOutput): void {
    const record = value as Record<string, unknown>;
    if (typeof record.say === "string") out.event(this.factory.make("text_delta", { content: record.say }));
    else if (record.bye === true) out.event(this.factory.make("done", { exitCode: 0, duration: 1, success: true }));
  }
}
const sayDialect: DialectDefinition = { name: "say", summary: "say", create: () => new SayAdapter(), recognizes: (v) => typeof v.say === "string" };
const locusDialect: DialectDefinition = { name: "locus", summary: "locus", create: () => new LocusAdapter(), recognizes: (v) => typeof v.protocol === "number" && "payload" in v };

const auto = () => new AutoAdapter([locusDialect, sayDialect], locusDialect);

describe("the auto dialect", () => {
  it("recognises a stream by its first values and reads all of them, in order, with that dialect", async () => {
    const lines = [{ banner: "say v1" }, { say: "Hello, " }, { say: "world" }, { bye: true }].map((v) => JSON.stringify(v) + "\n").join("");
    const session = await replayStream(cli.chunksOf([lines]), { adapter: auto() });
    const transcript = session.toTranscript();
    assert.equal(transcript.dialect, "say");
    assert.equal(transcript.status, "completed");
    assert.deepEqual(transcript.blocks, [{ kind: "text", text: "Hello, world" }]);
  });

  it("reads protocol-1 Locus as Locus", async () => {
    const session = await replayStream(cli.chunksOf([cli.toNdjson([cli.start(), cli.textDelta("hi"), cli.done()])]), { adapter: auto() });
    assert.equal(session.toTranscript().dialect, "locus");
    assert.deepEqual(session.problems, []);
  });

  it("falls back to Locus after values no dialect claims, which then says what is wrong with them", async () => {
    const lines = Array.from({ length: MAX_UNRECOGNIZED_VALUES }, (_, i) => JSON.stringify({ mystery: i }) + "\n").join("");
    const session = await replayStream(cli.chunksOf([lines]), { adapter: auto() });
    assert.equal(session.toTranscript().dialect, "locus");
    assert.equal(session.problems.filter((p) => p.code === "MALFORMED_EVENT").length, MAX_UNRECOGNIZED_VALUES);
    assert.equal(session.toTranscript().status, "failed");
  });

  it("a stream too short to recognise is still read, at its end, as Locus", async () => {
    const session = await replayStream(cli.chunksOf([JSON.stringify({ mystery: 1 }) + "\n"]), { adapter: auto() });
    assert.equal(session.toTranscript().dialect, "locus");
    assert.equal(session.problems[0]?.code, "MALFORMED_EVENT");
  });

  it("reports values that are not objects at once, without choosing a dialect", async () => {
    const adapter = auto();
    const problems: string[] = [];
    adapter.decode([1, 2], { event: () => assert.fail("no event"), problem: (code, message) => problems.push(`${code} ${message}`) });
    assert.deepEqual(problems, ["MALFORMED_EVENT expected a JSON object, got array"]);
    assert.equal(adapter.dialect, "auto");
  });
});
