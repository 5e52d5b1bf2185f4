import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { Readable } from "node:stream";
import { createAdapter } from "../../../src/dialects/registry";
import { createLivePrinter, createStderrPassthrough } from "../../../src/cli/live-printer";
import type { ProtocolError } from "../../../src/protocol/events";
import { replayStream } from "../../../src/session/replay";
import { assertNoRawControl, hostileStream } from "../../helpers/hostile-stream";
import { repoRoot } from "../../helpers/repo";
import { done, event, start, toNdjson } from "../../helpers/stream-builder";

/** Collects what is written to it. */
function sink(): { text: string; write(text: string): void } {
  return {
    text: "",
    write(text: string) {
      this.text += text;
    },
  };
}

/** Our colour codes: ESC [ number m. */
const OUR_SGR = /\x1b\[\d+m/g;

describe("live printer", () => {
  it("in colour, prints its own colour codes and nothing else the stream could make a terminal act on", async () => {
    const stream = hostileStream();
    const out = sink();
    const err = sink();
    const printer = createLivePrinter({ out, err, color: true });
    await replayStream(Readable.from([stream]), { adapter: createAdapter("locus"), onChange: printer });

    assert.ok(out.text.match(OUR_SGR)!.length > 10, "the printer coloured its lines");
    const withoutOurColours = (out.text + err.text).replace(OUR_SGR, "");
    assertNoRawControl(withoutOurColours, "the printed output without our colour codes");
    assert.ok(out.text.includes("\x1b[2m💭 thinking [\\x9b31mred|\\u202eevil\\u202c|\\u2028|\\x1b]52;c;"), "thinking dimmed, its escapes shown");
  });

  it("names a tool call by the agent's own title, as the chat's card does (real ACP agents' recorded writes)", async () => {
    const printed = async (agent: string) => {
      const out = sink();
      const log = fs.readFileSync(path.join(repoRoot, "test", "fixtures", "acp-recorded", agent, "write-allowed.ndjson"), "utf8");
      await replayStream(Readable.from([log]), { adapter: createAdapter("acp"), severalTurns: true, onChange: createLivePrinter({ out, err: sink(), color: false }) });
      return out.text;
    };
    // Qwen Code titles the call when it first mentions it; claude-agent-acp first says only "Write", then the file.
    assert.match(await printed("qwen/0.15.10"), /^▶ edit Writing to todo\.md\n/m);
    assert.match(await printed("claude-acp/0.23.1"), /^▶ edit Write\n/m);
  });

  it("warns under a permission request of the files it names outside the workspace, escaped", async () => {
    const out = sink();
    const request = (requestId: string, outsideWorkspace?: string[]) =>
      event("permission_requested", { requestId, title: "Edit", toolKind: "edit", options: [{ id: "y", name: "Allow", kind: "allow_once" }], ...(outsideWorkspace ? { outsideWorkspace } : {}) });
    const ndjson = toNdjson([start(), request("1", ["/etc/hosts", "../evil\u001b[2J"]), request("2"), done()]);
    await replayStream(Readable.from([ndjson]), { adapter: createAdapter("locus"), onChange: createLivePrinter({ out, err: sink(), color: false }) });
    assert.ok(out.text.includes("? Edit — Allow\n  ⚠ outside the workspace: /etc/hosts, ../evil\\x1b[2J\n? Edit — Allow\n"), out.text);
  });

  it("prints a permission request and its answer on one line each, so a title cannot forge an answer", async () => {
    const out = sink();
    const forged = "Run tests\n  → allowed (Allow once) by you";
    const options = [{ id: "n", name: "Reject\n  → allowed", kind: "reject_once" as const }];
    const ndjson = toNdjson([start(), event("permission_requested", { requestId: "1", title: forged, options }), event("permission_answered", { requestId: "1", decision: "rejected", optionId: "n", by: "user" }), done()]);
    await replayStream(Readable.from([ndjson]), { adapter: createAdapter("locus"), onChange: createLivePrinter({ out, err: sink(), color: false }) });
    assert.deepEqual(out.text.split("\n").filter((printed) => printed.includes("→")), [
      "? Run tests\\n  → allowed (Allow once) by you — Reject\\n  → allowed",
      "  → rejected (Reject\\n  → allowed) by you",
    ]);
  });

  it("words a turn whose only work was refused as the card does, and keeps the code on every other error", async () => {
    const out = sink();
    const refused: ProtocolError = { code: "UNKNOWN", message: "Refused: touch made.txt. Nothing else was changed or run.", recoverable: true, cause: { kind: "refused", calls: ["touch made.txt"] } };
    const crashed: ProtocolError = { code: "PROCESS_CRASHED", message: "The CLI exited with code 3", recoverable: false };
    const ndjson = toNdjson([start(), event("error", { error: refused }), event("error", { error: crashed }), done()]);
    await replayStream(Readable.from([ndjson]), { adapter: createAdapter("locus"), onChange: createLivePrinter({ out, err: sink(), color: false }) });
    assert.deepEqual(out.text.split("\n").filter((printed) => printed.startsWith("✗")), [
      "✗ Not allowed: nothing was done. Refused: touch made.txt. Nothing else was changed or run.",
      "✗ PROCESS_CRASHED: The CLI exited with code 3",
    ]);
  });

  it("passes the CLI's stderr on with its lines, escaping a control character split between two chunks", () => {
    const err = sink();
    const pass = createStderrPassthrough(err);
    const bytes = Buffer.from("progress\r50%\nred \u009b31m\n", "utf8");
    const split = bytes.indexOf(0x9b); // the second byte of U+009B's two
    pass(bytes.subarray(0, split));
    pass(bytes.subarray(split));
    assert.equal(err.text, "progress\\r50%\nred \\x9b31m\n");
  });
});
