import { strict as assert } from "node:assert";
import { Readable } from "node:stream";
import { createAdapter } from "../../../src/dialects/registry";
import { createLivePrinter, createStderrPassthrough } from "../../../src/cli/live-printer";
import { replayStream } from "../../../src/session/replay";
import { assertNoRawControl, hostileStream } from "../../helpers/hostile-stream";

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
