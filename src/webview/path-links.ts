// File paths in the agent's answers (`src/auth.ts`, `src/auth.ts:42`, `/abs/x.py:3:5`, `README.md#L7`) become links
// that open the file at its line. The page cannot know what is a file: it marks what looks like a path as a
// candidate, asks the host (a correlated request), and turns into links only those the host found to be files inside
// the workspace; everything else stays text. Found by a plain scan of the characters: no regular expression is run on
// model text here.

/** What the page may ask and be told: the host answers a `checkPaths` with the paths it found to be workspace files. */
export interface PathChecker {
  check(paths: string[]): void;
}

/** A path and its line, as written in the answer. */
export interface WrittenPath {
  path: string;
  line: number | null;
}

/** The class a candidate has; `path-link` is added once the host found the file. */
const CANDIDATE = "path-candidate";
const LINK = "path-link";
/** Longer is not a path anyone writes in prose (and the host would refuse it anyway). */
const MAX_PATH_CHARS = 512;
/** At most this many paths in one question to the host. */
const MAX_PATHS_PER_CHECK = 100;
/** Answers remembered; past this the memory starts again (the host is asked again, nothing breaks). */
const MAX_KNOWN = 5_000;
/** A text node this long is not scanned for paths: it costs time for text nobody reads as paths. */
const MAX_SCANNED_CHARS = 100_000;

/** Characters a path is made of; anything else ends it. `:` and `#` may start its line suffix. */
function isPathChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) || // 0-9
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    code === 0x2e || // .
    code === 0x5f || // _
    code === 0x2d || // -
    code === 0x2f || // /
    code === 0x5c || // \
    code === 0x7e || // ~
    code === 0x40 || // @
    code === 0x2b || // +
    code === 0x3a || // :
    code === 0x23 // #
  );
}

const isDigit = (char: string): boolean => char >= "0" && char <= "9";
const isLetter = (char: string): boolean => (char >= "a" && char <= "z") || (char >= "A" && char <= "Z");
const isAlphanumeric = (char: string): boolean => isDigit(char) || isLetter(char);

/** Where the paths are in `text`: each candidate's place and what it names. Linear in the text's length. */
export function findPaths(text: string): { start: number; end: number; written: WrittenPath }[] {
  const found: { start: number; end: number; written: WrittenPath }[] = [];
  if (text.length > MAX_SCANNED_CHARS) return found;
  let index = 0;
  while (index < text.length) {
    if (!isPathChar(text.charCodeAt(index))) {
      index++;
      continue;
    }
    const start = index;
    while (index < text.length && isPathChar(text.charCodeAt(index))) index++;
    let end = index;
    // Sentence punctuation after a path is not part of it: "see src/a.ts." or "in a.ts:".
    while (end > start && ".:#,".includes(text[end - 1])) end--;
    const written = pathOf(text.slice(start, end));
    if (written !== null) found.push({ start, end, written });
  }
  return found;
}

/** The path and line a token names, or null when it does not look like a file's path. */
export function pathOf(token: string): WrittenPath | null {
  if (token.length === 0 || token.length > MAX_PATH_CHARS || token.includes("://")) return null;
  // `@src/a.ts`: how agents (and our own prompts) mention a file.
  const { base, line } = splitLine(token.startsWith("@") ? token.slice(1) : token);
  if (base.length === 0 || base.endsWith("/") || base.endsWith("\\") || base.includes(":") || base.includes("#")) return null;
  let letters = false;
  for (const char of base) letters ||= isLetter(char);
  if (!letters) return null;
  return hasFolder(base) || hasExtension(base) ? { path: base, line } : null;
}

/** `a.ts:12`, `a.ts:12:5` (column dropped) and `a.ts#L12` name a line. */
function splitLine(token: string): { base: string; line: number | null } {
  const hash = token.lastIndexOf("#L");
  if (hash > 0 && allDigits(token.slice(hash + 2))) return { base: token.slice(0, hash), line: lineNumber(token.slice(hash + 2)) };
  let base = token;
  let line: number | null = null;
  for (let parts = 0; parts < 2; parts++) {
    const colon = base.lastIndexOf(":");
    if (colon <= 0 || !allDigits(base.slice(colon + 1))) break;
    line = lineNumber(base.slice(colon + 1));
    base = base.slice(0, colon);
  }
  return { base, line };
}

function allDigits(text: string): boolean {
  if (text.length === 0 || text.length > 9) return false;
  for (const char of text) if (!isDigit(char)) return false;
  return true;
}

function lineNumber(text: string): number | null {
  const line = Number(text);
  return line >= 1 ? line : null;
}

/**
 * A path with a folder in it (it does not end with a separator: `pathOf` saw to that). A lone `/name` is not one: it
 * is what `</script>` or a route leaves, far more often than a file at the root of the disk.
 */
function hasFolder(base: string): boolean {
  const rest = base.startsWith("/") || base.startsWith("\\") ? base.slice(1) : base;
  return rest.includes("/") || rest.includes("\\");
}

/** `name.ext`, the extension 1–10 letters or digits with a letter among them (`v1.2` and `3.14` are not files). */
function hasExtension(base: string): boolean {
  const dot = base.lastIndexOf(".");
  if (dot < 0 || dot === base.length - 1) return false;
  const extension = base.slice(dot + 1);
  if (extension.length > 10) return false;
  let letter = false;
  for (const char of extension) {
    if (!isAlphanumeric(char)) return false;
    letter ||= isLetter(char);
  }
  return letter;
}

/** The written path a link or candidate element stands for. */
export function writtenPathOf(node: Element): WrittenPath | null {
  const path = node.getAttribute("data-path");
  if (path === null) return null;
  const line = Number(node.getAttribute("data-line") ?? "");
  return { path, line: Number.isInteger(line) && line >= 1 ? line : null };
}

/**
 * The page's memory of which written paths are workspace files, and its questions to the host about the others.
 * Candidates are made where markdown is rendered; this upgrades them to links as the answers come.
 */
export class PathLinks {
  private readonly known = new Map<string, boolean>();
  private readonly asking = new Set<string>();
  private readonly toAsk = new Set<string>();
  private scheduled = false;
  private checker: PathChecker | null = null;

  /** The page's channel to the host; until then, nothing is asked. */
  connect(checker: PathChecker): void {
    this.checker = checker;
  }

  /** Wraps what looks like a path in the text of `root` (not in code blocks or links) as a candidate. */
  markCandidates(root: DocumentFragment | Element): void {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
      acceptNode: (node) => (node.parentElement?.closest("pre, a, .path-candidate") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
    });
    const texts: Text[] = [];
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) texts.push(node as Text);
    for (const text of texts) this.markText(text);
  }

  /** The host's answer: of `checked`, `found` are files in the workspace. */
  answered(checked: readonly string[], found: readonly string[]): void {
    if (this.known.size > MAX_KNOWN) this.known.clear();
    const files = new Set(found);
    for (const path of checked) {
      this.asking.delete(path);
      this.known.set(path, files.has(path));
    }
    for (const candidate of document.querySelectorAll(`.${CANDIDATE}:not(.${LINK})`)) {
      const path = candidate.getAttribute("data-path");
      if (path !== null && files.has(path)) makeLink(candidate);
    }
  }

  private markText(text: Text): void {
    const value = text.data;
    const paths = findPaths(value);
    if (paths.length === 0) return;
    const parts: Node[] = [];
    let at = 0;
    for (const { start, end, written } of paths) {
      if (start > at) parts.push(document.createTextNode(value.slice(at, start)));
      parts.push(this.candidate(value.slice(start, end), written));
      at = end;
    }
    if (at < value.length) parts.push(document.createTextNode(value.slice(at)));
    text.replaceWith(...parts);
  }

  private candidate(shown: string, written: WrittenPath): HTMLElement {
    const span = document.createElement("span");
    span.className = CANDIDATE;
    span.textContent = shown;
    span.setAttribute("data-path", written.path);
    if (written.line !== null) span.setAttribute("data-line", String(written.line));
    const known = this.known.get(written.path);
    if (known === true) makeLink(span);
    else if (known === undefined && !this.asking.has(written.path)) this.ask(written.path);
    return span;
  }

  private ask(path: string): void {
    this.toAsk.add(path);
    if (this.scheduled) return;
    this.scheduled = true;
    // Once the painting task is over: a turn's paths go in one question.
    setTimeout(() => this.flush(), 0);
  }

  private flush(): void {
    this.scheduled = false;
    const paths = [...this.toAsk];
    this.toAsk.clear();
    if (this.checker === null) return;
    for (let at = 0; at < paths.length; at += MAX_PATHS_PER_CHECK) {
      const batch = paths.slice(at, at + MAX_PATHS_PER_CHECK);
      for (const path of batch) this.asking.add(path);
      this.checker.check(batch);
    }
  }
}

function makeLink(candidate: Element): void {
  candidate.classList.add(LINK);
  candidate.setAttribute("role", "link");
  candidate.setAttribute("tabindex", "0");
  const line = candidate.getAttribute("data-line");
  candidate.setAttribute("title", `Open ${candidate.getAttribute("data-path") ?? ""}${line === null ? "" : ` at line ${line}`}`);
}

/** The page's one memory of paths: every rendered answer marks its candidates here. */
export const pathLinks = new PathLinks();
