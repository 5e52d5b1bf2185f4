import * as assert from "node:assert/strict";
import { Writable } from "node:stream";
import { ProtocolEmitter } from "../../../src/builtin-agent/emitter";
import { CliStreamEventSchema, type CliStreamEvent } from "../../../src/protocol/events";

/** A reader that takes one line at a time and holds each until `release` is called. */
class SlowReader extends Writable {
  readonly lines: string[] = [];
  private pending: (() => void)[] = [];

  constructor() {
    super({ highWaterMark: 1 });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.lines.push(chunk.toString("utf8"));
    this.pending.push(() => callback());
  }

  release(): void {
    const pending = this.pending;
    this.pending = [];
    for (const done of pending) done();
  }
}

class MemoryReader extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.lines.push(chunk.toString("utf8"));
    callback();
  }

  events(): CliStreamEvent[] {
    return this.lines.map((line) => CliStreamEventSchema.parse(JSON.parse(line)));
  }
}

describe("protocol emitter", () => {
  it("writes one newline-terminated protocol-1 envelope per event, all with its session id", async () => {
    const out = new MemoryReader();
    const emitter = new ProtocolEmitter(out);
    await emitter.start({ command: "exec" });
    await emitter.text("hi");
    await emitter.done(0);
    assert.ok(out.lines.every((line) => line.endsWith("}\n") && !line.slice(0, -1).includes("\n")));
    assert.deepEqual(
      out.events().map((e) => [e.protocol, e.type, e.sessionId]),
      [[1, "start", emitter.sessionId], [1, "text_delta", emitter.sessionId], [1, "done", emitter.sessionId]],
    );
  });

  it("writes done once, whoever asks again, and nothing after it", async () => {
    const out = new MemoryReader();
    const emitter = new ProtocolEmitter(out);
    await emitter.start({ command: "exec" });
    await emitter.done(1);
    await emitter.done(0);
    await emitter.error({ code: "UNKNOWN", message: "late", recoverable: false });
    await emitter.text("late");
    assert.deepEqual(out.events().map((e) => e.type), ["start", "done"]);
    assert.equal(emitter.exitCode, 1);
  });

  it("lists each tool once, in the order first used, and says success from the exit code", async () => {
    const out = new MemoryReader();
    const emitter = new ProtocolEmitter(out);
    await emitter.start({ command: "exec" });
    for (const [tool, id] of [["ListFiles", "1"], ["ReadFile", "2"], ["ListFiles", "3"]]) {
      await emitter.toolStarted(tool, id, {});
      await emitter.toolCompleted({ tool, toolId: id, success: true, durationMs: 0.04 });
    }
    await emitter.done(0);
    const done = out.events().pop();
    assert.equal(done?.type, "done");
    if (done?.type === "done") assert.deepEqual({ ...done.payload, duration: 0 }, { exitCode: 0, duration: 0, toolsUsed: ["ListFiles", "ReadFile"], success: true });
  });

  it("reports a failed tool with its error and leaves error out of a successful one", async () => {
    const out = new MemoryReader();
    const emitter = new ProtocolEmitter(out);
    await emitter.start({ command: "exec" });
    await emitter.toolCompleted({ tool: "ReadFile", toolId: "1", success: false, durationMs: 1.26, error: "x is a folder, not a file" });
    await emitter.toolCompleted({ tool: "ReadFile", toolId: "2", success: true, durationMs: 2 });
    const payloads = out.events().flatMap((e) => (e.type === "tool_completed" ? [e.payload] : []));
    assert.deepEqual(payloads, [
      { tool: "ReadFile", toolId: "1", success: false, duration: 1.3, error: "x is a folder, not a file" },
      { tool: "ReadFile", toolId: "2", success: true, duration: 2 },
    ]);
  });

  it("waits for a full reader to drain before the next event", async () => {
    const out = new SlowReader();
    const emitter = new ProtocolEmitter(out);
    void emitter.start({ command: "exec" });
    let written = false;
    const write = emitter.text("second").then(() => (written = true));
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.equal(written, false, "the write resolved while the reader was still full");
    out.release();
    await new Promise<void>((resolve) => setImmediate(resolve));
    out.release();
    await write;
    assert.equal(out.lines.length, 2);
  });

  it("refuses an event before start, a programmer's mistake", () => {
    const emitter = new ProtocolEmitter(new MemoryReader());
    assert.throws(() => void emitter.text("too early"), /text_delta emitted before start/);
  });

  it("stops writing and tells its owner when the reader goes away", async () => {
    const out = new MemoryReader();
    let closed = false;
    const emitter = new ProtocolEmitter(out, () => (closed = true));
    await emitter.start({ command: "exec" });
    out.destroy(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.equal(closed, true);
    await emitter.text("nobody listens");
    await emitter.done(1);
    assert.equal(out.lines.length, 1);
  });
});
