// One harness for the dialect tests: decode a fixture or hand-built lines with an adapter into a transcript, or
// into the adapter's own events and problems; list a transcript's blocks compactly; and find every fixture of the
// other dialects, to check that a dialect claims none of their lines.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { DialectAdapter, DialectDefinition, StreamEnding } from "../../src/dialects/dialect";
import type { CliStreamEvent } from "../../src/protocol/events";
import type { ToolCard, Transcript, TranscriptBlock } from "../../src/protocol/transcript";
import { replayStream } from "../../src/session/replay";
import { repoRoot } from "./repo";
import { chunksOf } from "./stream-builder";

export const FIXTURES = path.join(repoRoot, "test", "fixtures");

/** A fixture's text: `folder` is the dialect's folder under test/fixtures. */
export function fixture(folder: string, name: string): string {
  return fs.readFileSync(path.join(FIXTURES, folder, name), "utf8");
}

/** A recorded stream (no process, no ending) read by the adapter, as the session makes it a transcript. */
export async function transcriptOf(ndjson: string, adapter: DialectAdapter): Promise<Transcript> {
  const session = await replayStream(chunksOf([ndjson]), { adapter });
  return session.toTranscript();
}

/** NDJSON of values; a string is written as it is (a line that is not JSON). */
export function lines(...values: unknown[]): string {
  return values.map((value) => (typeof value === "string" ? value : JSON.stringify(value)) + "\n").join("");
}

/** What the adapter says about values, without a session in between; problems as "CODE message". */
export function decodeAll(adapter: DialectAdapter, values: unknown[], ending?: StreamEnding | null) {
  const events: CliStreamEvent[] = [];
  const problems: string[] = [];
  const out = { event: (e: CliStreamEvent) => events.push(e), problem: (code: string, message: string) => problems.push(`${code} ${message}`) };
  for (const value of values) adapter.decode(value, out);
  if (ending !== undefined) adapter.end?.(out, ending);
  return { events, problems };
}

export const kinds = (blocks: readonly TranscriptBlock[]) => blocks.map((b) => b.kind);
export const tools = (blocks: readonly TranscriptBlock[]) => blocks.filter((b): b is ToolCard => b.kind === "tool");
export const texts = (blocks: readonly TranscriptBlock[]) => blocks.flatMap((b) => (b.kind === "text" ? [b.text] : []));
export const errors = (blocks: readonly TranscriptBlock[]) => blocks.filter((b) => b.kind === "error");

/** Every .ndjson file below `dir`. */
export function ndjsonFiles(dir: string = FIXTURES): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ndjsonFiles(full);
    return entry.name.endsWith(".ndjson") ? [full] : [];
  });
}

/** Whether a fixture file lies in a folder whose name starts with one of `prefixes` (recordings: "claude-recorded"). */
export function inFolders(file: string, ...prefixes: string[]): boolean {
  const folder = path.relative(FIXTURES, file).split(path.sep)[0];
  return prefixes.some((prefix) => folder.startsWith(prefix));
}

/** A line as an object, or undefined for a line that is not JSON or not an object. */
export function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Asserts that no object line of these files is claimed by any of the dialects, naming the file and line that is. */
export function assertClaimsNone(files: readonly string[], ...dialects: DialectDefinition[]): void {
  assert.ok(files.length > 0, "there are other dialects' fixtures to check");
  for (const file of files) {
    for (const [index, line] of fs.readFileSync(file, "utf8").split("\n").entries()) {
      const value = parseObject(line);
      if (value === undefined) continue;
      for (const dialect of dialects) assert.equal(dialect.recognizes(value), false, `${path.relative(FIXTURES, file)} line ${index + 1}`);
    }
  }
}
