// The dialects a user can name in settings or on the command line, and `auto`, which recognises them.
import { agentCodeDialect } from "./agent-code-adapter";
import { AutoAdapter } from "./auto-adapter";
import { claudeDialect } from "./claude-adapter";
import type { DialectAdapter, DialectDefinition } from "./dialect";
import { LocusAdapter } from "./locus-adapter";
import { locusFlatDialect } from "./locus-flat-adapter";
import { indusagiDialect, piDialect } from "./pi-adapter";

export const locusDialect: DialectDefinition = {
  name: "locus",
  create: () => new LocusAdapter(),
  // Protocol 1's envelope: nothing else writes `protocol` beside `payload`.
  recognizes: (value) => typeof value.protocol === "number" && typeof value.payload === "object",
};

/** In the order `auto` asks them: the most specific shapes first, Locus's later flat events last. */
const DEFINITIONS: readonly DialectDefinition[] = [locusDialect, claudeDialect, indusagiDialect, piDialect, agentCodeDialect, locusFlatDialect];

export const DIALECT_NAMES = ["auto", "locus", "locus-flat", "claude", "pi", "indusagi", "agent-code"] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];

export function isDialectName(name: string): name is DialectName {
  return (DIALECT_NAMES as readonly string[]).includes(name);
}

export function createAdapter(name: DialectName): DialectAdapter {
  if (name === "auto") return new AutoAdapter(DEFINITIONS, locusDialect);
  const definition = DEFINITIONS.find((d) => d.name === name);
  if (definition === undefined) throw new Error(`no definition for dialect ${name}`);
  return definition.create();
}
