// Every regular expression in src/ is examined for text built to make it slow: either the adversarial suites run it
// on such text (hostile-text-cases.ts here, test/webview/hostile-text-cases.ts in a page), or it is named below as
// applied only to our own text, with the reason. A new expression fails this test until someone decides which.
// Every literal must also pass scslre, the analyser behind eslint-plugin-regexp: it finds the patterns that are
// super-linear on a run of one character; the suites' texts find the rest ("session session …").
import * as assert from "node:assert/strict";
import { analyse } from "scslre";
import { WEBVIEW_HOSTILE_TEXTS } from "../../webview/hostile-text-cases";
import { HOSTILE_TEXT_CASES } from "./hostile-text-cases";
import { regexesInSource, siteKey, sitesIn, type RegexSite } from "./regex-sites";

/** Expressions whose text is never an agent's, a recording's or a workspace's, and why. */
const OWN_TEXT: readonly { sites: RegexSite[]; why: string }[] = [
  { sites: sitesIn("panel/webview-html.ts", /&/g, /"/g, /</g, />/g), why: "the page's script and style addresses and its CSP source, which VS Code makes from the extension's folder" },
  { sites: sitesIn("stream/json-line.ts", /\.0$/), why: "a byte count this code formatted with toFixed(1)" },
  { sites: sitesIn("process/process-tree.ts", /^\d+$/), why: "the names of /proc's entries, which the kernel makes" },
  { sites: sitesIn("process/command-path.ts", /^"(.*)"$/), why: "the folders of the user's own PATH" },
  { sites: sitesIn("profiles/profile-registry.ts", /[\\/]/, /\.(exe|cmd|bat|js|mjs)$/i), why: "the CLI path the user set (a machine-scoped setting, never a workspace's)" },
  { sites: sitesIn("builtin-agent/tools/search-text.ts", /[gy]/g), why: "the flags of a pattern the built-in agent made itself" },
];

describe("the regular expressions of src/", () => {
  const found = regexesInSource();
  const covered = new Set([...HOSTILE_TEXT_CASES.flatMap((c) => c.covers), ...WEBVIEW_HOSTILE_TEXTS.flatMap((c) => c.covers)].map(siteKey));
  const own = new Set(OWN_TEXT.flatMap((entry) => entry.sites).map(siteKey));

  it("finds the expressions it checks, literals and those built at run time (the scan itself works)", () => {
    const keys = new Set(found.map(siteKey));
    assert.ok(keys.has(siteKey({ file: "dialects/codex-adapter.ts", pattern: /^Reconnecting\.\.\.\s*(\d+)\/(\d+)(?:\s*\(([\s\S]*)\))?\s*$/ })));
    assert.ok(keys.has(siteKey({ file: "builtin-agent/answers/find-text.ts", pattern: 'new RegExp(escapeRegExp(text), "i")' })));
    assert.ok(found.length > 100, `only ${found.length} found`);
  });

  it("runs each one on hostile text in an adversarial suite, or names it as applied only to our own text", () => {
    const unexamined = found.filter((site) => !covered.has(siteKey(site)) && !own.has(siteKey(site))).map((site) => `${site.file}:${site.line} ${String(site.pattern)}`);
    assert.deepEqual(unexamined, []);
  });

  it("names no expression twice over: one on agent text is never also called our own", () => {
    assert.deepEqual([...own].filter((key) => covered.has(key)), []);
  });

  it("names no expression that src/ no longer has", () => {
    const present = new Set(found.map(siteKey));
    assert.deepEqual([...covered, ...own].filter((key) => !present.has(key)), []);
  });

  it("holds no literal that is super-linear on a run of one character, as scslre finds them", () => {
    const reported = found.flatMap((site) => {
      if (typeof site.pattern === "string") return [];
      const { reports } = analyse({ source: site.pattern.source, flags: site.pattern.flags });
      return reports.map((report) => `${site.file}:${site.line} ${String(site.pattern)}: ${report.type}${report.exponential ? " (exponential)" : ""}`);
    });
    assert.deepEqual(reported, []);
  });
});
