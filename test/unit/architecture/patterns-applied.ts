// Run as its own process by hostile-text.test.ts: which patterns each hostile-text case's code applies, seen by
// wrapping RegExp.prototype.exec, through which test, match, matchAll, replace, split and search all go once it is
// not the built-in one. A process of its own, because V8 then leaves its fast paths for good: every pattern applied
// after it, in any test, would run slower.
import { HOSTILE_TEXT_CASES } from "./hostile-text-cases";

/**
 * A pattern as every way of applying it calls it: `split` and `matchAll` copy it with other flags. No regular
 * expression here: this runs inside the wrapped exec.
 */
export function patternKey(regex: RegExp): string {
  return `/${regex.source}/${[...regex.flags].filter((flag) => flag !== "g" && flag !== "y").join("")}`;
}

async function main(): Promise<void> {
  const applied: Record<string, string[]> = {};
  const exec = RegExp.prototype.exec;
  for (const hostile of HOSTILE_TEXT_CASES) {
    const seen = new Set<string>();
    RegExp.prototype.exec = function (this: RegExp, text: string) {
      seen.add(patternKey(this));
      return exec.call(this, text);
    };
    for (const text of Object.values(hostile.attacks(64))) await hostile.run(text);
    RegExp.prototype.exec = exec;
    applied[hostile.through] = [...seen];
  }
  process.stdout.write(JSON.stringify(applied));
}

if (require.main === module) void main();
