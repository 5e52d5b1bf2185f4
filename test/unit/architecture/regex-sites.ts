// Every regular expression in src/, found by reading the source with TypeScript's own parser (as the
// import-direction test reads imports): each literal, and each `new RegExp(…)` or `RegExp(…)` call. The linearity
// test holds every one of them to account, so a new one cannot arrive unexamined.
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { repoRoot } from "../../helpers/repo";

export const SRC = path.join(repoRoot, "src");

/**
 * A regular expression as written in a file of src/ (relative, with `/`). A literal is named by itself, compared as
 * `String(regex)`; one built at run time by its `new RegExp(…)` call as written, with each run of blanks one space
 * and template literals' backticks and `$` left out, so that the call can be written in a test as `String.raw`.
 */
export interface RegexSite {
  file: string;
  pattern: RegExp | string;
}

export interface FoundRegex extends RegexSite {
  line: number;
}

/** The sites of one file: a short way to write several. */
export function sitesIn(file: string, ...patterns: (RegExp | string)[]): RegexSite[] {
  return patterns.map((pattern) => ({ file, pattern }));
}

/** What two mentions of the same site have in common: the file and the pattern as written. */
export function siteKey(site: RegexSite): string {
  return `${site.file} ${typeof site.pattern === "string" ? site.pattern : String(site.pattern)}`;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** A literal's text made a RegExp, so it prints as a literal written in a test does (flags in their usual order). */
function literalOf(text: string): RegExp {
  const end = text.lastIndexOf("/");
  return new RegExp(text.slice(1, end), text.slice(end + 1));
}

function callText(text: string): string {
  return text.replace(/\s+/g, " ").replaceAll("`", "").replaceAll("${", "{");
}

function isRegExpCall(node: ts.Node): node is ts.NewExpression | ts.CallExpression {
  return (ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === "RegExp";
}

export function regexesInSource(): FoundRegex[] {
  const found: FoundRegex[] = [];
  for (const full of sourceFiles(SRC)) {
    const file = path.relative(SRC, full).split(path.sep).join("/");
    const source = ts.createSourceFile(full, fs.readFileSync(full, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) found.push({ file, pattern: literalOf(node.getText(source)), line });
      else if (isRegExpCall(node)) found.push({ file, pattern: callText(node.getText(source)), line });
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
