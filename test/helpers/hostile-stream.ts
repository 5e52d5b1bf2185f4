// A stream whose model tries to drive the reader's terminal (test/fake-clis/hostile-locus.js), and the oracle for
// escaping, written independently of src/protocol/visible-text.ts.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fakeCli } from "./repo";

export const HOSTILE_CLI = fakeCli("hostile-locus.js");

/** The stream hostile-locus.js writes, as it wrote it. */
export function hostileStream(): string {
  return execFileSync(process.execPath, [HOSTILE_CLI], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
}

/** A character that acts on a terminal (C0 but \n and \t, DEL, C1) or reorders or breaks text (bidi, U+2028/9). */
export const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

/** Fails naming the first raw control character in `output` and showing where it is. */
export function assertNoRawControl(output: string, what: string): void {
  const found = RAW_CONTROL.exec(output);
  if (found === null) return;
  const around = JSON.stringify(output.slice(Math.max(0, found.index - 40), found.index + 40));
  assert.fail(`${what} has a raw U+${found[0].charCodeAt(0).toString(16).padStart(4, "0")} at ${found.index}: ${around}`);
}
