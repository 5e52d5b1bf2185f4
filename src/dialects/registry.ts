// The registry of dialects: every way of reading an agent CLI's stream (a live run's or a recorded file's), in one
// list. The names `agentStream.dialect` and `--dialect` accept, the order `auto` asks them in, and the settings'
// descriptions are derived from it (package.json is checked against it by test/unit/profiles/registry.test.ts).
// Adding a CLI: docs/adding-an-agent-cli.md.
import { acpDialect } from "./acp/acp-adapter";
import { agentCodeDialect } from "./agent-code-adapter";
import { AutoAdapter } from "./auto-adapter";
import { claudeDialect } from "./claude-adapter";
import { codexDialect } from "./codex-adapter";
import { defineDialect, type DialectAdapter, type DialectDefinition } from "./dialect";
import { geminiDialect } from "./gemini-adapter";
import { LocusAdapter } from "./locus-adapter";
import { locusFlatDialect } from "./locus-flat-adapter";
import { opencodeDialect } from "./opencode-adapter";
import { indusagiDialect, piDialect } from "./pi-adapter";
import { qwenDialect } from "./qwen-adapter";

export const locusDialect = defineDialect({
  name: "locus",
  summary: "Locus protocol 1: `locus exec --json-stream`.",
  create: () => new LocusAdapter(),
  // Protocol 1's envelope: nothing else writes `protocol` beside `payload`.
  recognizes: (value) => typeof value.protocol === "number" && typeof value.payload === "object",
});

/**
 * In the order `auto` asks them (and the settings list them): the most specific shapes first, Locus's flat events last.
 * Qwen Code before Claude Code: its stream is Claude's, told apart only by its init line.
 */
export const DIALECTS = [
  locusDialect,
  acpDialect,
  qwenDialect,
  claudeDialect,
  indusagiDialect,
  piDialect,
  agentCodeDialect,
  geminiDialect,
  codexDialect,
  opencodeDialect,
  locusFlatDialect,
] as const;
/** What `auto` reads a stream as when no dialect claims its first lines: Locus protocol 1, the primary contract. */
const FALLBACK_DIALECT: DialectDefinition = locusDialect;

export type DialectName = "auto" | (typeof DIALECTS)[number]["name"];
export const DIALECT_NAMES: readonly DialectName[] = ["auto", ...DIALECTS.map((dialect) => dialect.name)];
/** `auto`'s line in the settings' list of dialects. */
export const AUTO_DIALECT_SUMMARY = "Recognise the stream from its first lines (any of the below).";

export function isDialectName(name: string): name is DialectName {
  return DIALECT_NAMES.includes(name as DialectName);
}

export function createAdapter(name: DialectName): DialectAdapter {
  if (name === "auto") return new AutoAdapter(DIALECTS, FALLBACK_DIALECT);
  const definition: DialectDefinition | undefined = DIALECTS.find((d) => d.name === name);
  if (definition === undefined) throw new Error(`no definition for dialect ${name}`);
  return definition.create();
}
