// The dialects a user can name in settings or on the command line.
import type { DialectAdapter } from "./dialect";
import { LocusAdapter } from "./locus-adapter";

export const DIALECT_NAMES = ["locus"] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];

export function isDialectName(name: string): name is DialectName {
  return (DIALECT_NAMES as readonly string[]).includes(name);
}

export function createAdapter(name: DialectName): DialectAdapter {
  switch (name) {
    case "locus":
      return new LocusAdapter();
  }
}
