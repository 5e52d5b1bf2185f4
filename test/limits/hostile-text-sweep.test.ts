// The adversarial suite's wide sweep, too slow for `npm test`: every hostile-text case, for each beginning of its
// patterns, given a megabyte-long run of each troublesome character, and the beginning repeated with that character
// between. The unit suite runs each case's own attacks; this finds what nobody thought to write.
import * as assert from "node:assert/strict";
import { HOSTILE_BOUND_MS, HOSTILE_CHARS, cpuMsSince, repeated } from "../helpers/hostile-text";
import { HOSTILE_TEXT_CASES } from "../unit/architecture/hostile-text-cases";

/** Blanks, line ends, quotes, digits, letters, punctuation, brackets, a control sequence and a non-ASCII letter. */
const UNITS = [" ", "\t", "\n", "\r", "\r\n", "`", "'", '"', "“", "0", "9", "a", "A", "_", ".", ",", ":", ";", "-", "*", "#", "/", "\\", "(", ")", "[", "]", "{", "}", "<", ">", "=", "|", "!", "?", "$(", "\u001b[", "é"];

/** A run of `unit` after `lead` that something other than the pattern's end stops; and `lead` said again and again. */
function sweepTexts(lead: string, unit: string): [string, string][] {
  const run: [string, string] = [`${JSON.stringify(lead)} then ${JSON.stringify(unit)} × 1 MB`, `${lead}${repeated(unit, HOSTILE_CHARS)}\u0000`];
  return lead === "" ? [run] : [run, [`${JSON.stringify(lead + unit)} × 1 MB`, repeated(lead + unit)]];
}

describe("regular expressions on agent text, swept with runs of every troublesome character", function () {
  this.timeout(30 * 60_000);

  for (const hostile of HOSTILE_TEXT_CASES) {
    describe(hostile.through, () => {
      for (const lead of ["", ...hostile.leads]) {
        it(`takes ${lead === "" ? "runs" : `${JSON.stringify(lead)} and runs after it`} in well under a second each`, async () => {
          const slow: string[] = [];
          for (const unit of UNITS) {
            for (const [name, text] of sweepTexts(lead, unit)) {
              const started = process.cpuUsage();
              await hostile.run(text);
              const tookMs = cpuMsSince(started);
              if (tookMs >= HOSTILE_BOUND_MS) slow.push(`${name}: ${Math.round(tookMs)} ms of CPU time`);
            }
          }
          assert.deepEqual(slow, []);
        });
      }
    });
  }
});
