// The part of gitignore(5) a file lister needs: *, **, ?, [..], trailing /, leading /, ! negation, \ escapes.
// Each .gitignore speaks about paths relative to its own folder; the deepest file that has an opinion wins.

interface IgnoreRule {
  readonly regex: RegExp;
  readonly negated: boolean;
  readonly directoryOnly: boolean;
}

/** One .gitignore file's rules, for paths relative to the folder it sits in. */
export class IgnoreRules {
  private constructor(private readonly rules: readonly IgnoreRule[]) {}

  static parse(text: string): IgnoreRules {
    const rules: IgnoreRule[] = [];
    for (const line of text.split(/\r?\n/)) {
      const rule = parseRule(line);
      if (rule !== null) rules.push(rule);
    }
    return new IgnoreRules(rules);
  }

  get isEmpty(): boolean {
    return this.rules.length === 0;
  }

  /** true: ignored, false: re-included by a `!` rule, undefined: no rule here says anything. */
  verdict(relativePath: string, isDirectory: boolean): boolean | undefined {
    let verdict: boolean | undefined;
    for (const rule of this.rules) {
      if (rule.directoryOnly && !isDirectory) continue;
      if (rule.regex.test(relativePath)) verdict = !rule.negated;
    }
    return verdict;
  }
}

/** The .gitignore files that apply inside one folder: its own and every ancestor's, outermost first. */
export class IgnoreStack {
  private constructor(private readonly levels: readonly { base: string; rules: IgnoreRules }[]) {}

  static readonly empty = new IgnoreStack([]);

  /** `base` is the folder the rules came from, relative to the workspace root ("" for the root). */
  with(base: string, rules: IgnoreRules): IgnoreStack {
    return rules.isEmpty ? this : new IgnoreStack([...this.levels, { base, rules }]);
  }

  /** `path` is relative to the workspace root, with `/` separators. */
  ignores(path: string, isDirectory: boolean): boolean {
    let ignored = false;
    for (const { base, rules } of this.levels) {
      const relative = base === "" ? path : path.slice(base.length + 1);
      const verdict = rules.verdict(relative, isDirectory);
      if (verdict !== undefined) ignored = verdict;
    }
    return ignored;
  }
}

function parseRule(line: string): IgnoreRule | null {
  let pattern = trimUnescapedTrailingSpaces(line);
  if (pattern === "" || pattern.startsWith("#")) return null;
  const negated = pattern.startsWith("!");
  if (negated) pattern = pattern.slice(1);
  else if (pattern.startsWith("\\!") || pattern.startsWith("\\#")) pattern = pattern.slice(1);
  const directoryOnly = pattern.endsWith("/") && !pattern.endsWith("\\/");
  if (directoryOnly) pattern = pattern.slice(0, -1);
  // A slash anywhere but the end ties the pattern to this folder; otherwise it matches at any depth.
  const anchored = pattern.includes("/");
  if (pattern.startsWith("/")) pattern = pattern.slice(1);
  if (pattern === "") return null;
  const body = globToRegexSource(pattern);
  return { regex: new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`), negated, directoryOnly };
}

function trimUnescapedTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === " " && line[end - 2] !== "\\") end--;
  return line.slice(0, end);
}

function globToRegexSource(pattern: string): string {
  const segments = pattern.split("/");
  let out = "";
  segments.forEach((segment, i) => {
    const first = i === 0;
    const last = i === segments.length - 1;
    if (segment === "**") {
      // "**" alone: everything; "a/**": everything inside a; "**/b" and "a/**/b": zero or more folders between.
      if (last) out += first ? ".*" : "/.+";
      else out += first ? "(?:.*/)?" : "/(?:.*/)?";
      return;
    }
    if (!first && segments[i - 1] !== "**") out += "/";
    out += segmentToRegexSource(segment);
  });
  return out;
}

function segmentToRegexSource(segment: string): string {
  let out = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === "\\" && i + 1 < segment.length) {
      out += escapeRegex(segment[++i]);
    } else if (c === "*") {
      out += "[^/]*";
      while (segment[i + 1] === "*") i++;
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "[") {
      const end = segment.indexOf("]", i + 2);
      if (end === -1) {
        out += "\\[";
        continue;
      }
      let body = segment.slice(i + 1, end);
      const negate = body.startsWith("!") || body.startsWith("^");
      if (negate) body = body.slice(1);
      const members = body.replace(/\\/g, "\\\\").replace(/]/g, "\\]");
      // A negated class never matches "/": a glob character stays inside one path segment.
      out += negate ? `[^/${members}]` : `[${members}]`;
      i = end;
    } else {
      out += escapeRegex(c);
    }
  }
  return out;
}

function escapeRegex(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
