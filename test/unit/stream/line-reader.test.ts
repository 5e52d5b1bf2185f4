import { strict as assert } from "node:assert";
import { LineReader } from "../../../src/stream/line-reader";

type Seen =
  | { readonly kind: "line"; readonly text: string; readonly lineNumber: number }
  | { readonly kind: "oversized"; readonly lineNumber: number; readonly sizeBytes: number };

function recordingReader(maxLineBytes?: number): { reader: LineReader; seen: Seen[] } {
  const seen: Seen[] = [];
  const reader = new LineReader(
    {
      onLine: (text, lineNumber) => seen.push({ kind: "line", text, lineNumber }),
      onOversizedLine: (lineNumber, sizeBytes) => seen.push({ kind: "oversized", lineNumber, sizeBytes }),
    },
    maxLineBytes,
  );
  return { reader, seen };
}

function utf8(text: string): Buffer {
  return Buffer.from(text, "utf8");
}

function line(text: string, lineNumber: number): Seen {
  return { kind: "line", text, lineNumber };
}

function oversized(lineNumber: number, sizeBytes: number): Seen {
  return { kind: "oversized", lineNumber, sizeBytes };
}

describe("LineReader", () => {
  describe("splitting lines", () => {
    it("delivers each newline-terminated line with its line number", () => {
      const { reader, seen } = recordingReader();
      reader.push(utf8("one\ntwo\nthree\n"));
      assert.deepEqual(seen, [line("one", 1), line("two", 2), line("three", 3)]);
    });

    it("strips the CR of a CRLF line ending", () => {
      const { reader, seen } = recordingReader();
      reader.push(utf8("one\r\ntwo\r\n"));
      assert.deepEqual(seen, [line("one", 1), line("two", 2)]);
    });

    it("keeps a CR that is not right before the newline", () => {
      const { reader, seen } = recordingReader();
      reader.push(utf8("a\rb\n"));
      assert.deepEqual(seen, [line("a\rb", 1)]);
    });

    it("treats a CR and LF that arrive in different chunks as one CRLF ending", () => {
      const { reader, seen } = recordingReader();
      reader.push(utf8("one\r"));
      reader.push(utf8("\ntwo\n"));
      assert.deepEqual(seen, [line("one", 1), line("two", 2)]);
    });

    it("joins a line that arrives across many chunks", () => {
      const { reader, seen } = recordingReader();
      for (const part of ['{"a"', ":", "", "1", "}\n"]) reader.push(utf8(part));
      assert.deepEqual(seen, [line('{"a":1}', 1)]);
    });

    it("skips blank and whitespace-only lines but counts them in line numbers", () => {
      const { reader, seen } = recordingReader();
      reader.push(utf8("\n  \n\t\r\nfirst\n\r\n\u00a0\n\ufeff\nsecond\n"));
      assert.deepEqual(seen, [line("first", 4), line("second", 8)]);
    });

    it("skips a whitespace-only line whatever Unicode space it starts with", () => {
      const { reader, seen } = recordingReader();
      reader.push(utf8("\u3000\n\u2028 \n \u3000\nlast\n"));
      assert.deepEqual(seen, [line("last", 4)]);
    });

    it("counts blank and oversized lines in linesSeen", () => {
      const { reader } = recordingReader(4);
      reader.push(utf8("a\n\ntoo long\nb\n"));
      assert.equal(reader.linesSeen, 4);
    });

    it("holds a last line without a newline until end()", () => {
      const { reader, seen } = recordingReader();
      reader.push(utf8("first\nlast"));
      assert.deepEqual(seen, [line("first", 1)]);
      reader.end();
      assert.deepEqual(seen, [line("first", 1), line("last", 2)]);
    });

    it("strips a trailing CR from a last line that ends at end()", () => {
      const { reader, seen } = recordingReader();
      reader.push(utf8("last\r"));
      reader.end();
      assert.deepEqual(seen, [line("last", 1)]);
    });

    it("adds no empty line at end() when the stream ended with a newline", () => {
      const { reader, seen } = recordingReader();
      reader.push(utf8("only\n"));
      reader.end();
      assert.deepEqual(seen, [line("only", 1)]);
      assert.equal(reader.linesSeen, 1);
    });

    it("ignores a second end()", () => {
      const { reader, seen } = recordingReader();
      reader.push(utf8("last"));
      reader.end();
      reader.end();
      assert.deepEqual(seen, [line("last", 1)]);
    });

    it("throws when pushed to after end(), which is a programmer error", () => {
      const { reader } = recordingReader();
      reader.end();
      assert.throws(() => reader.push(utf8("late\n")), /after end/);
    });

    it("rejects a limit that is not positive", () => {
      const handlers = { onLine: () => {}, onOversizedLine: () => {} };
      assert.throws(() => new LineReader(handlers, 0), RangeError);
      assert.throws(() => new LineReader(handlers, Number.NaN), RangeError);
    });
  });

  describe("decoding UTF-8", () => {
    it("decodes a multi-byte character split at any byte inside it", () => {
      const text = "héllo 👋 世界";
      const bytes = utf8(text + "\n");
      for (let split = 1; split < bytes.length; split++) {
        const { reader, seen } = recordingReader();
        reader.push(bytes.subarray(0, split));
        reader.push(bytes.subarray(split));
        assert.deepEqual(seen, [line(text, 1)], `split at byte ${split}`);
      }
    });

    it("decodes a line delivered one byte per chunk", () => {
      const text = "🧑‍💻 日本語 ok";
      const { reader, seen } = recordingReader();
      for (const byte of utf8(text + "\r\n")) reader.push(Uint8Array.of(byte));
      assert.deepEqual(seen, [line(text, 1)]);
    });

    it("reads a Uint8Array view that starts part-way into its ArrayBuffer", () => {
      const backing = utf8("xxxxhello\nyyyy");
      const view = new Uint8Array(backing.buffer, backing.byteOffset + 4, 6);
      const { reader, seen } = recordingReader();
      reader.push(view);
      assert.deepEqual(seen, [line("hello", 1)]);
    });

    it("replaces invalid UTF-8 with U+FFFD instead of throwing", () => {
      const { reader, seen } = recordingReader();
      reader.push(Buffer.from([0x61, 0xff, 0xc3, 0x62, 0x0a]));
      assert.deepEqual(seen, [line("a\ufffd\ufffdb", 1)]);
    });
  });

  describe("the line size limit", () => {
    it("accepts a line exactly at the limit", () => {
      const { reader, seen } = recordingReader(8);
      reader.push(utf8("12345678\n"));
      assert.deepEqual(seen, [line("12345678", 1)]);
    });

    it("rejects a line one byte over the limit, reporting its size", () => {
      const { reader, seen } = recordingReader(8);
      reader.push(utf8("123456789\n"));
      assert.deepEqual(seen, [oversized(1, 9)]);
    });

    it("does not count the CR of a CRLF ending against the limit", () => {
      const { reader, seen } = recordingReader(8);
      reader.push(utf8("12345678\r\n"));
      assert.deepEqual(seen, [line("12345678", 1)]);
    });

    it("reports the size of an oversized CRLF line without its CR", () => {
      const { reader, seen } = recordingReader(8);
      reader.push(utf8("123456789\r\n1234567890123\r\n"));
      assert.deepEqual(seen, [oversized(1, 9), oversized(2, 13)]);
    });

    it("reports an oversized CRLF line without its CR when CR and LF arrive in different chunks", () => {
      const { reader, seen } = recordingReader(8);
      reader.push(utf8("1234567890\r"));
      reader.push(utf8("\n"));
      assert.deepEqual(seen, [oversized(1, 10)]);
    });

    it("counts the limit in bytes, not characters", () => {
      const { reader, seen } = recordingReader(8);
      reader.push(utf8("👋👋\n👋👋a\n"));
      assert.deepEqual(seen, [line("👋👋", 1), oversized(2, 9)]);
    });

    it("reports an oversized last line without a newline at end()", () => {
      const { reader, seen } = recordingReader(4);
      reader.push(utf8("ok\n123456"));
      reader.end();
      assert.deepEqual(seen, [line("ok", 1), oversized(2, 6)]);
    });

    it("reads the lines around an oversized line normally", () => {
      const { reader, seen } = recordingReader(4);
      reader.push(utf8("ab\n12"));
      reader.push(utf8("345"));
      reader.push(utf8("678\ncd\n"));
      assert.deepEqual(seen, [line("ab", 1), oversized(2, 8), line("cd", 3)]);
    });

    it("reports a 50 MB line once with its size and reads the next line, never buffering more than the 16 MiB limit", () => {
      const limit = 16 * 1024 * 1024;
      const lineBytes = 50 * 1024 * 1024;
      const chunk = Buffer.alloc(64 * 1024, "x");
      const { reader, seen } = recordingReader(limit);
      let mostBuffered = 0;
      for (let fed = 0; fed < lineBytes; fed += chunk.length) {
        reader.push(chunk);
        mostBuffered = Math.max(mostBuffered, reader.bufferedBytes);
        assert.ok(reader.bufferedBytes <= limit, `buffered ${reader.bufferedBytes} bytes after ${fed + chunk.length}`);
      }
      reader.push(utf8('\n{"next":true}\n'));

      assert.deepEqual(seen, [oversized(1, lineBytes), line('{"next":true}', 2)]);
      // It did buffer while the line could still fit, so the bound above was really exercised.
      assert.ok(mostBuffered > limit - chunk.length, `most buffered was ${mostBuffered}`);
      assert.equal(reader.bufferedBytes, 0);
    });
  });
});
