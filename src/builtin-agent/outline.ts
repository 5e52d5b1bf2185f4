// A file's outline — classes, functions, methods, types and exports, with line numbers — read with regular
// expressions line by line. Not a parser: good enough for a person to find their way, and always the same answer.
import { languageOf } from "./languages";

export type OutlineKind = "class" | "function" | "method" | "interface" | "type" | "enum" | "struct" | "trait" | "constant" | "heading";

export interface OutlineItem {
  kind: OutlineKind;
  name: string;
  /** 1-based. */
  line: number;
  exported: boolean;
  /** The class, impl or type a method belongs to. */
  container?: string;
  /** A markdown heading's level, 1 to 6. */
  level?: number;
}

export interface Outline {
  language: string;
  items: OutlineItem[];
  /** What other files can import, as the file states it (`export { a }`, `__all__`, `pub`, capitalised Go names). */
  exports: string[];
}

export const OUTLINED_LANGUAGES = ["TypeScript", "JavaScript", "Python", "Go", "Rust", "Markdown"] as const;

/** Null when the language is not one this module reads. */
export function outlineOf(filePath: string, text: string): Outline | null {
  const language = languageOf(filePath);
  const lines = text.split(/\r?\n/);
  switch (language) {
    case "TypeScript":
    case "JavaScript":
      return withExports(language, outlineScript(lines));
    case "Python":
      return withExports(language, outlinePython(lines));
    case "Go":
      return withExports(language, outlineGo(lines));
    case "Rust":
      return withExports(language, outlineRust(lines));
    case "Markdown":
      return { language, items: outlineMarkdown(lines), exports: [] };
    default:
      return null;
  }
}

interface Scanned {
  items: OutlineItem[];
  /** Exported names stated apart from a declaration (`export { a, b }`, `__all__`). */
  extraExports: string[];
}

function withExports(language: string, scanned: Scanned): Outline {
  const exports: string[] = [];
  const add = (name: string) => {
    if (!exports.includes(name)) exports.push(name);
  };
  for (const item of scanned.items) if (item.exported && item.kind !== "method") add(item.name);
  for (const name of scanned.extraExports) add(name);
  // `const f = …; export { f }` exports f as surely as `export const f` does.
  const items = scanned.items.map((item) => (item.kind !== "method" && !item.exported && scanned.extraExports.includes(item.name) ? { ...item, exported: true } : item));
  return { language, items, exports };
}

// Every pattern here is linear in the line: no run of blanks can be shared by two quantifiers (the blanks after an
// optional part belong to it), and no run is tried again from each of its characters. A workspace's files are anyone's.
const IDENT = "[A-Za-z_$][\\w$]*";
const SCRIPT_RULES: { kind: OutlineKind; regex: RegExp }[] = [
  { kind: "class", regex: new RegExp(`^\\s*(export\\s+)?(?:default\\s+)?(?:declare\\s+)?(?:abstract\\s+)?class\\s+(${IDENT})`) },
  { kind: "function", regex: new RegExp(`^\\s*(export\\s+)?(?:default\\s+)?(?:declare\\s+)?(?:async\\s+)?function(?:\\s*\\*)?\\s*(${IDENT})`) },
  {
    kind: "function",
    regex: new RegExp(
      `^\\s*(export\\s+)?(?:const|let|var)\\s+(${IDENT})\\s*(?::[^=]+)?=\\s*(?:async\\s+)?(?:function\\b|\\([^)]*\\)\\s*(?::[^=]+)?=>|${IDENT}\\s*=>)`,
    ),
  },
  { kind: "interface", regex: new RegExp(`^\\s*(export\\s+)?(?:declare\\s+)?interface\\s+(${IDENT})`) },
  { kind: "type", regex: new RegExp(`^\\s*(export\\s+)?(?:declare\\s+)?type\\s+(${IDENT})\\s*(?:<[^=]*>\\s*)?=`) },
  { kind: "enum", regex: new RegExp(`^\\s*(export\\s+)?(?:declare\\s+)?(?:const\\s+)?enum\\s+(${IDENT})`) },
  { kind: "constant", regex: new RegExp(`^\\s*(export\\s+)(?:const|let|var)\\s+(${IDENT})`) },
];
const SCRIPT_METHOD = new RegExp(
  `^\\s*(?:(?:public|private|protected|static|readonly|async|override|abstract|get|set)\\s+)*(?:\\*\\s*)?(#?${IDENT})\\s*(?:<[^>]*>\\s*)?\\(`,
);
const NOT_METHODS = new Set(["if", "for", "while", "switch", "catch", "return", "function", "super", "await", "new", "typeof"]);

/** Declarations at the top level, and methods directly inside a top-level class body. */
function outlineScript(lines: readonly string[]): Scanned {
  const items: OutlineItem[] = [];
  const extraExports: string[] = [];
  let currentClass: { name: string; opened: boolean } | null = null;
  let depth = 0;
  let inBlockComment = false;
  lines.forEach((raw, index) => {
    const { code, stillInComment } = stripComments(raw, inBlockComment);
    inBlockComment = stillInComment;
    const line = index + 1;
    if (depth === 0) {
      const declared = declarationIn(code, line);
      if (declared !== null) {
        items.push(declared);
        currentClass = declared.kind === "class" ? { name: declared.name, opened: false } : null;
      }
      extraExports.push(...exportedNamesIn(code, raw));
    } else if (depth === 1 && currentClass !== null) {
      const method = SCRIPT_METHOD.exec(code);
      if (method && !NOT_METHODS.has(method[1])) items.push({ kind: "method", name: method[1], line, exported: false, container: currentClass.name });
    }
    depth = Math.max(0, depth + braceBalance(code));
    if (currentClass !== null && depth > 0) currentClass.opened = true;
    if (currentClass?.opened && depth === 0) currentClass = null;
  });
  return { items, extraExports };
}

function declarationIn(code: string, line: number): OutlineItem | null {
  for (const { kind, regex } of SCRIPT_RULES) {
    const match = regex.exec(code);
    if (match) return { kind, name: match[2], line, exported: match[1] !== undefined };
  }
  return null;
}

/** `export { a, b as c }`, `export default x`, `export * from "./m"`, `module.exports.x =`, `exports.x =`. */
function exportedNamesIn(code: string, raw: string): string[] {
  const list = /^\s*export\s+(?:type\s+)?\{([^}]*)\}/.exec(code);
  if (list) {
    return list[1]
      .split(",")
      .map((part) => part.trim().replace(/^type\s+/, ""))
      .filter((part) => part !== "")
      .map((part) => part.split(/(?<!\s)\s+as\s+/).pop() ?? part);
  }
  if (/^\s*export\s+default\b/.test(code) && !/^\s*export\s+default\s+(?:abstract\s+)?(?:class|function|async)\b/.test(code)) return ["default"];
  // The module path is a string, which `code` has blanked out.
  const star = /^\s*export\s+\*/.test(code) ? /^\s*export\s+\*\s+(?:as\s+(\w+)\s+)?from\s+["']([^"']+)["']/.exec(raw) : null;
  if (star) return [star[1] ?? `* from ${star[2]}`];
  const commonJs = /^\s*(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=/.exec(code);
  if (commonJs) return [commonJs[1]];
  if (/^\s*module\.exports\s*=/.test(code)) return ["module.exports"];
  return [];
}

function outlinePython(lines: readonly string[]): Scanned {
  const items: OutlineItem[] = [];
  const classes: { name: string; indent: number; bodyIndent: number | null }[] = [];
  let all: string[] | null = null;
  for (const [index, raw] of lines.entries()) {
    if (raw.trim() === "" || raw.trimStart().startsWith("#")) continue;
    const indent = raw.length - raw.trimStart().length;
    while (classes.length > 0 && indent <= classes[classes.length - 1].indent) classes.pop();
    const container = classes[classes.length - 1];
    if (container !== undefined && container.bodyIndent === null) container.bodyIndent = indent;
    const line = index + 1;
    const cls = /^(\s*)class\s+([A-Za-z_]\w*)/.exec(raw);
    const def = /^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)/.exec(raw);
    if (cls) {
      items.push({ kind: "class", name: cls[2], line, exported: indent === 0 && !cls[2].startsWith("_") });
      classes.push({ name: cls[2], indent, bodyIndent: null });
    } else if (def && container !== undefined && indent === container.bodyIndent) {
      items.push({ kind: "method", name: def[2], line, exported: false, container: container.name });
    } else if (def && indent === 0) {
      items.push({ kind: "function", name: def[2], line, exported: !def[2].startsWith("_") });
    }
    const declaredAll = /^__all__\s*=\s*[[(]([^\])]*)/.exec(raw);
    if (declaredAll) all = [...declaredAll[1].matchAll(/["']([^"']+)["']/g)].map((m) => m[1]);
  }
  // An explicit __all__ is the module's word on what it exports; otherwise public top-level names are.
  if (all === null) return { items, extraExports: [] };
  const declared = all;
  return { items: items.map((item) => ({ ...item, exported: item.kind !== "method" && declared.includes(item.name) })), extraExports: declared };
}

function outlineGo(lines: readonly string[]): Scanned {
  const items: OutlineItem[] = [];
  const exported = (name: string) => /^[A-Z]/.test(name);
  lines.forEach((raw, index) => {
    const line = index + 1;
    // The receiver: `(c *Cart)`, `(c Cart)`, `(*Cart)` or `(Cart)`, its type the container.
    const method = /^func\s+\(\s*(?:\w+(?:\s+|\s*\*\s*)|\*\s*)?(\w+)(?:\[[^\]]*\])?\s*\)\s*(\w+)/.exec(raw);
    const func = /^func\s+(\w+)/.exec(raw);
    const type = /^type\s+(\w+)(?:\[[^\]]*\])?\s+(struct|interface)?/.exec(raw);
    if (method) {
      items.push({ kind: "method", name: method[2], line, exported: exported(method[2]), container: method[1] });
    } else if (func) {
      items.push({ kind: "function", name: func[1], line, exported: exported(func[1]) });
    } else if (type) {
      const kind: OutlineKind = type[2] === "struct" ? "struct" : type[2] === "interface" ? "interface" : "type";
      items.push({ kind, name: type[1], line, exported: exported(type[1]) });
    }
  });
  return { items, extraExports: [] };
}

function outlineRust(lines: readonly string[]): Scanned {
  const items: OutlineItem[] = [];
  const impls: { name: string; depth: number }[] = [];
  let depth = 0;
  let inBlockComment = false;
  lines.forEach((raw, index) => {
    const { code, stillInComment } = stripComments(raw, inBlockComment);
    inBlockComment = stillInComment;
    const line = index + 1;
    while (impls.length > 0 && depth <= impls[impls.length - 1].depth) impls.pop();
    // `impl<T> Trait<A, B> for Type`: the trait's words are separated by spaces, so none can be split two ways.
    const impl = /^\s*impl\b(?:<[^>]*>)?\s+(?:[\w:<>,]+(?: +[\w:<>,]+)*\s+for\s+)?(\w+)/.exec(code);
    const fn = /^\s*(pub(?:\([^)]*\))?\s+)?(?:default\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+(\w+)/.exec(code);
    const item = /^\s*(pub(?:\([^)]*\))?\s+)?(struct|enum|trait|type)\s+(\w+)/.exec(code);
    const container = impls[impls.length - 1];
    if (impl) {
      impls.push({ name: impl[1], depth });
    } else if (fn) {
      const inImpl = container !== undefined && depth === container.depth + 1;
      items.push(
        inImpl
          ? { kind: "method", name: fn[2], line, exported: fn[1] !== undefined, container: container.name }
          : { kind: "function", name: fn[2], line, exported: fn[1] !== undefined },
      );
    } else if (item) {
      const kind: OutlineKind = item[2] === "struct" ? "struct" : item[2] === "enum" ? "enum" : item[2] === "trait" ? "trait" : "type";
      items.push({ kind, name: item[3], line, exported: item[1] !== undefined });
    }
    depth = Math.max(0, depth + braceBalance(code));
  });
  return { items, extraExports: [] };
}

function outlineMarkdown(lines: readonly string[]): OutlineItem[] {
  const items: OutlineItem[] = [];
  let inFence = false;
  lines.forEach((raw, index) => {
    if (/^\s*(```|~~~)/.test(raw)) inFence = !inFence;
    const heading = inFence ? null : headingIn(raw);
    if (heading) items.push({ kind: "heading", name: heading.name, line: index + 1, exported: false, level: heading.level });
  });
  return items;
}

/**
 * "## Part ##" → level 2, "Part". The closing #s and blanks are cut from the end by a scan: a lazy pattern tried
 * them after each character of the heading.
 */
function headingIn(line: string): { level: number; name: string } | null {
  const open = /^(#{1,6})\s+/.exec(line);
  if (open === null) return null;
  const name = withoutTrailingHashes(line.slice(open[0].length).trimEnd()).trimEnd();
  return name === "" ? null : { level: open[1].length, name };
}

function withoutTrailingHashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === "#") end--;
  return text.slice(0, end);
}

/** The line without strings and comments, so braces and keywords inside them do not count. */
function stripComments(line: string, inBlockComment: boolean): { code: string; stillInComment: boolean } {
  let code = line;
  let stillInComment = inBlockComment;
  if (stillInComment) {
    const end = code.indexOf("*/");
    if (end === -1) return { code: "", stillInComment: true };
    code = code.slice(end + 2);
    stillInComment = false;
  }
  code = withoutClosedComments(withStringsBlanked(code));
  const lineComment = code.indexOf("//");
  if (lineComment !== -1) code = code.slice(0, lineComment);
  const open = code.indexOf("/*");
  if (open !== -1) {
    code = code.slice(0, open);
    stillInComment = true;
  }
  return { code, stillInComment };
}

/**
 * Each string closed on this line as `""`; an unclosed quote stays, and the scan goes on after it. A quote found
 * unclosed once is so for the rest of the line: it is not searched for again from each later one, which a regular
 * expression did (`"\\"\\"\\"…` took time quadratic in the line).
 */
function withStringsBlanked(code: string): string {
  const unclosed = new Set<string>();
  let out = "";
  let copiedUpTo = 0;
  for (let i = 0; i < code.length; i++) {
    const quote = code[i];
    if (!QUOTES.has(quote) || unclosed.has(quote)) continue;
    const end = closingQuote(code, i);
    if (end === -1) {
      unclosed.add(quote);
      continue;
    }
    out += `${code.slice(copiedUpTo, i)}""`;
    copiedUpTo = end + 1;
    i = end;
  }
  return out + code.slice(copiedUpTo);
}

const QUOTES = new Set(['"', "'", "`"]);

/** Where the string opened at `start` closes, a backslash escaping the character after it; -1 when not on this line. */
function closingQuote(code: string, start: number): number {
  for (let i = start + 1; i < code.length; i++) {
    if (code[i] === "\\") i++;
    else if (code[i] === code[start]) return i;
  }
  return -1;
}

/** Each `/* … *\/` closed on this line removed: once no later `*\/` closes one, none after it can. */
function withoutClosedComments(code: string): string {
  let out = "";
  let from = 0;
  for (let open = code.indexOf("/*"); open !== -1; open = code.indexOf("/*", from)) {
    const close = code.indexOf("*/", open + 2);
    if (close === -1) break;
    out += code.slice(from, open);
    from = close + 2;
  }
  return out + code.slice(from);
}

function braceBalance(code: string): number {
  let balance = 0;
  for (const c of code) {
    if (c === "{") balance++;
    else if (c === "}") balance--;
  }
  return balance;
}
