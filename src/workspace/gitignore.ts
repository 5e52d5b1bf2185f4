// The part of gitignore(5) a file lister needs: *, **, ?, [..], trailing /, leading /, ! negation, \ escapes.
// Each .gitignore speaks about paths relative to its own folder; the deepest file that has an opinion wins.
// A pattern is matched by a scan, not made a regular expression: the .gitignore is the workspace's, and a backtracking
// regex takes time that grows with the power of its stars ("*a*a*a*a*b" on a long name took minutes).

/** One piece of a segment's pattern: a given character, one of a class, any one character, or any run of them. */
type Piece =
  | { kind: "char"; char: string }
  | { kind: "class"; negated: boolean; members: readonly Member[] }
  | { kind: "any" }
  | { kind: "star" };

/** A class member: a character, or a range from `first` to `last`. */
interface Member {
  first: string;
  last: string;
}

/** The pieces that say nothing of a character, shared by every pattern that has them. */
const STAR: Piece = { kind: "star" };
const ANY: Piece = { kind: "any" };

/** "**" as a whole segment: any number of whole segments, zero included. */
const GLOBSTAR = "**";
type SegmentPattern = readonly Piece[] | typeof GLOBSTAR;

interface IgnoreRule {
  readonly segments: readonly SegmentPattern[];
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
    const segments = relativePath.split("/");
    for (const rule of this.rules) {
      if (rule.directoryOnly && !isDirectory) continue;
      if (matchesPath(rule.segments, segments)) verdict = !rule.negated;
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
  return { segments: segmentPatterns(pattern, anchored), negated, directoryOnly };
}

function trimUnescapedTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === " " && line[end - 2] !== "\\") end--;
  return line.slice(0, end);
}

/** An unanchored pattern matches at any depth: as if it began with "**\/". */
function segmentPatterns(pattern: string, anchored: boolean): SegmentPattern[] {
  const segments = pattern.split("/");
  const patterns: SegmentPattern[] = anchored ? [] : [GLOBSTAR];
  segments.forEach((segment, i) => {
    if (segment !== "**") patterns.push(piecesOf(segment));
    // "**" alone: everything; "a/**": everything inside a, so one segment at least; "**/b" and "a/**/b": zero or
    // more folders between.
    else if (i === segments.length - 1 && i > 0) patterns.push([STAR], GLOBSTAR);
    else patterns.push(GLOBSTAR);
  });
  return patterns;
}

function piecesOf(segment: string): Piece[] {
  const pieces: Piece[] = [];
  // A "[" past the last "]" opens no class: known without searching the rest of the segment from each one.
  const lastClose = segment.lastIndexOf("]");
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === "\\" && i + 1 < segment.length) {
      pieces.push({ kind: "char", char: segment[++i] });
    } else if (c === "*") {
      pieces.push(STAR);
      while (segment[i + 1] === "*") i++;
    } else if (c === "?") {
      pieces.push(ANY);
    } else if (c === "[" && i + 2 <= lastClose) {
      const end = segment.indexOf("]", i + 2);
      let body = segment.slice(i + 1, end);
      const negated = body.startsWith("!") || body.startsWith("^");
      if (negated) body = body.slice(1);
      pieces.push({ kind: "class", negated, members: membersOf(body) });
      i = end;
    } else {
      pieces.push({ kind: "char", char: c });
    }
  }
  return pieces;
}

/** "a-z0_": ranges and single characters; a "-" that starts or ends the class is itself. */
function membersOf(body: string): Member[] {
  const members: Member[] = [];
  for (let i = 0; i < body.length; i++) {
    if (body[i + 1] === "-" && i + 2 < body.length) {
      members.push({ first: body[i], last: body[i + 2] });
      i += 2;
    } else {
      members.push({ first: body[i], last: body[i] });
    }
  }
  return members;
}

/**
 * Whether the path's segments match, "**" standing for any number of them. The greedy scan goes back only to the
 * last "**" when a segment does not match, so its work is at most segments × patterns, never exponential.
 */
function matchesPath(patterns: readonly SegmentPattern[], segments: readonly string[]): boolean {
  let p = 0;
  let s = 0;
  let lastGlobstar = -1;
  let resumeAt = 0;
  while (s < segments.length) {
    const pattern = patterns[p];
    if (pattern === GLOBSTAR) {
      lastGlobstar = p++;
      resumeAt = s;
    } else if (pattern !== undefined && matchesSegment(pattern, segments[s])) {
      p++;
      s++;
    } else if (lastGlobstar !== -1) {
      p = lastGlobstar + 1;
      s = ++resumeAt;
    } else {
      return false;
    }
  }
  while (patterns[p] === GLOBSTAR) p++;
  return p === patterns.length;
}

/** The same greedy scan inside one segment, going back only to the last "*": at most characters × pieces. */
function matchesSegment(pieces: readonly Piece[], text: string): boolean {
  let p = 0;
  let t = 0;
  let lastStar = -1;
  let resumeAt = 0;
  while (t < text.length) {
    const piece = pieces[p];
    if (piece?.kind === "star") {
      lastStar = p++;
      resumeAt = t;
    } else if (piece !== undefined && matchesCharacter(piece, text[t])) {
      p++;
      t++;
    } else if (lastStar !== -1) {
      p = lastStar + 1;
      t = ++resumeAt;
    } else {
      return false;
    }
  }
  while (pieces[p]?.kind === "star") p++;
  return p === pieces.length;
}

function matchesCharacter(piece: Exclude<Piece, { kind: "star" }>, c: string): boolean {
  switch (piece.kind) {
    case "char":
      return piece.char === c;
    case "any":
      return true;
    case "class":
      // A reversed range ("z-a") holds nothing, as in git.
      return piece.members.some((m) => m.first <= c && c <= m.last) !== piece.negated;
  }
}
