import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import type { FileHandle } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { linesOfDocument, MAX_READ_BYTES, readLines, type DocumentLines, type LineRange } from "../../../src/acp/line-range";
import { countReads } from "../../helpers/counting-reads";

/** What the agent means by `line` and `limit`, on a whole text in memory: the lines split at "\n", from `line` (1-based). */
function expected(text: string, range: LineRange): string {
  if ((range.line === undefined || range.line === null) && (range.limit === undefined || range.limit === null)) return text;
  const lines = text.split("\n");
  const start = Math.max(0, (range.line ?? 1) - 1);
  const end = range.limit === undefined || range.limit === null ? lines.length : start + Math.max(0, range.limit);
  return lines.slice(start, end).join("\n");
}

/** `file`, counting the bytes read through it. */
function countingReads(file: FileHandle): { file: FileHandle; bytesRead(): number } {
  let bytesRead = 0;
  return { file: countReads(file, (bytes) => (bytesRead += bytes)), bytesRead: () => bytesRead };
}

function documentOf(text: string, eol = "\n"): DocumentLines {
  const lines = text.split(eol);
  return { lineCount: lines.length, lineAt: (index) => lines[index]!, eol };
}

const RANGES: LineRange[] = [
  {},
  { line: 1 },
  { line: 2 },
  { line: 3, limit: 2 },
  { line: null, limit: 1 },
  { line: 1, limit: 0 },
  { line: 0, limit: 2 },
  { line: 2, limit: 1 },
  { line: 9, limit: 3 },
  { line: 1, limit: 1000 },
];

describe("the lines an agent asks for", () => {
  let dir: string;
  const never = new AbortController().signal;

  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "acp-lines-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function readFromFile(content: string | Buffer, range: LineRange): Promise<string> {
    const file = path.join(dir, "f.txt");
    fs.writeFileSync(file, content);
    const handle = await fs.promises.open(file, "r");
    try {
      return await readLines(handle, fs.statSync(file).size, range, file, never);
    } finally {
      await handle.close();
    }
  }

  // Line breaks just before, at and after the end of the 64 KiB the reader takes at a time, and a line that spans it.
  const atChunkEdge = ["a".repeat(65535) + "\nb\nc", "a".repeat(65536) + "\nb\nc", "x\n" + "y".repeat(70000) + "\nz\n", "é\n".repeat(40000)];
  const texts = ["one\ntwo\nthree\n", "one\ntwo\nthree", "", "\n\n\n", "only", "naïve ✓\nzwei\r\ndrei\n", ...atChunkEdge];

  it("reads from a file exactly the lines asked for, wherever the line breaks fall", async () => {
    for (const text of texts) {
      for (const range of RANGES) {
        assert.equal(await readFromFile(text, range), expected(text, range), `${JSON.stringify(range)} of ${JSON.stringify(text.slice(0, 20))}…`);
      }
    }
  });

  it("takes the same lines from an open document, joined by the document's own line break", () => {
    for (const text of texts) {
      for (const range of RANGES) assert.equal(linesOfDocument(documentOf(text), range, "doc"), expected(text, range), JSON.stringify(range));
    }
    assert.equal(linesOfDocument(documentOf("a\r\nb\r\nc", "\r\n"), { line: 1, limit: 2 }, "doc"), "a\r\nb");
  });

  it("reads no further into a file than the last line asked for", async () => {
    const file = path.join(dir, "big.txt");
    fs.writeFileSync(file, "first\n" + "x".repeat(10 * 1024 * 1024));
    const handle = await fs.promises.open(file, "r");
    const counted = countingReads(handle);
    try {
      assert.equal(await readLines(counted.file, fs.statSync(file).size, { line: 1, limit: 1 }, file, never), "first");
    } finally {
      await handle.close();
    }
    assert.ok(counted.bytesRead() <= 64 * 1024, `${counted.bytesRead()} bytes read`);
  });

  it("refuses a whole file over the bound by its size, before reading it, and says how to read it in parts", async () => {
    const file = path.join(dir, "huge.txt");
    fs.writeFileSync(file, "");
    fs.truncateSync(file, MAX_READ_BYTES + 1);
    const handle = await fs.promises.open(file, "r");
    const counted = countingReads(handle);
    try {
      await assert.rejects(readLines(counted.file, MAX_READ_BYTES + 1, {}, "/ws/huge.txt", never), /\/ws\/huge\.txt is 4\.1 MiB, more than the 4 MiB one read returns: read it in parts with line and limit/);
      await assert.rejects(readLines(counted.file, MAX_READ_BYTES + 1, { line: 1 }, "/ws/huge.txt", never), /read it in parts with line and limit/);
    } finally {
      await handle.close();
    }
    assert.equal(counted.bytesRead(), 0);
  });

  it("refuses lines that come to more than the bound, and one line longer than it, each in its own words", async () => {
    const line = "x".repeat(1024 * 1024);
    const fiveLines = Array.from({ length: 5 }, () => line).join("\n");
    await assert.rejects(readFromFile(fiveLines, { line: 1, limit: 5 }), /the lines asked for from line 1 of .* come to more than 4 MiB, the most one read returns: ask for fewer with limit/);
    assert.equal((await readFromFile(fiveLines, { line: 2, limit: 3 })).length, 3 * line.length + 2);
    await assert.rejects(readFromFile("short\n" + "y".repeat(MAX_READ_BYTES + 1) + "\nend", { line: 2, limit: 1 }), /line 2 of .* alone is longer than 4 MiB, the most one read returns, so it cannot be read as text/);
    assert.equal(await readFromFile("short\n" + "y".repeat(MAX_READ_BYTES + 1) + "\nend", { line: 3, limit: 1 }), "end");
  });

  it("bounds the text taken from an open document the same way", () => {
    const line = "x".repeat(1024 * 1024);
    const document = documentOf(Array.from({ length: 5 }, () => line).join("\n"));
    assert.throws(() => linesOfDocument(document, {}, "/ws/open.txt"), /the lines asked for from line 1 of \/ws\/open\.txt come to more than 4 MiB/);
    assert.equal(linesOfDocument(document, { line: 5, limit: 1 }, "/ws/open.txt"), line);
    assert.throws(() => linesOfDocument(documentOf("y".repeat(MAX_READ_BYTES + 1)), { line: 1, limit: 1 }, "/ws/open.txt"), /line 1 of \/ws\/open\.txt alone is longer than 4 MiB/);
  });

  it("stops reading at the next chunk once its request is abandoned", async () => {
    const abandoned = new AbortController();
    abandoned.abort();
    await assert.rejects(
      (async () => {
        const file = path.join(dir, "f.txt");
        fs.writeFileSync(file, "a\nb\n");
        const handle = await fs.promises.open(file, "r");
        try {
          return await readLines(handle, 4, {}, file, abandoned.signal);
        } finally {
          await handle.close();
        }
      })(),
      /was abandoned/,
    );
  });
});
