import * as assert from "node:assert/strict";
import { createAdapter } from "../../../src/dialects/registry";
import { ReplayRun } from "../../../src/session/replay";
import { createSessionFeed } from "../../../src/session/session-feed";
import { Session } from "../../../src/session/session";
import { EventDecoder } from "../../../src/stream/event-decoder";
import * as cli from "../../helpers/stream-builder";
import { ScriptedStream } from "../../helpers/scripted-host";

describe("replaying a recorded stream", () => {
  it("shows the recorded session as it was", async () => {
    const run = new ReplayRun(cli.chunksOf([cli.toNdjson([cli.start(), cli.textDelta("Hello"), cli.done({ duration: 42 })])]), { adapter: createAdapter("locus") });
    const transcript = await run.finished;
    assert.equal(transcript.status, "completed");
    assert.deepEqual(transcript.blocks, [{ kind: "text", text: "Hello" }]);
    assert.equal(transcript.done.durationMs, 42);
  });

  it("stops at once even when the source is waiting for more, keeping what was read", async () => {
    const source = new ScriptedStream();
    let textShown: () => void = () => {};
    const shown = new Promise<void>((resolve) => (textShown = resolve));
    const run = new ReplayRun(source, { adapter: createAdapter("locus"), onChange: (change) => change.kind === "block-added" && textShown() });
    source.push(cli.start(), cli.textDelta("first part"));
    await shown;
    const transcript = await run.stop();
    assert.equal(transcript.status, "canceled");
    assert.deepEqual(transcript.blocks, [{ kind: "text", text: "first part" }]);
  });

  it("a source that fails mid-way ends the session as failed and says why", async () => {
    async function* failing(): AsyncGenerator<string> {
      yield cli.toNdjson([cli.start(), cli.textDelta("half")]);
      throw new Error("EIO: i/o error, read");
    }
    const transcript = await new ReplayRun(failing(), { adapter: createAdapter("locus") }).finished;
    assert.equal(transcript.status, "failed");
    const error = transcript.blocks.find((b) => b.kind === "error");
    assert.deepEqual(error, { kind: "error", code: "UNKNOWN", message: "The recorded stream could not be read to its end: EIO: i/o error, read", recoverable: false });
    assert.equal(transcript.blocks[0].kind === "text" && transcript.blocks[0].text, "half");
  });

  it("lets a tap see every raw line before it is decoded, malformed ones included", () => {
    const seen: [number, string][] = [];
    const session = new Session({ dialect: "locus" });
    const feed = createSessionFeed(session, new EventDecoder(createAdapter("locus")), undefined, (text, line) => seen.push([line, text]));
    feed.push(Buffer.from(`${JSON.stringify(cli.start())}\nnot json\r\n`));
    feed.end();
    assert.deepEqual(seen, [
      [1, JSON.stringify(cli.start())],
      [2, "not json"],
    ]);
    assert.equal(session.problems[0]?.code, "MALFORMED_EVENT");
  });
});
