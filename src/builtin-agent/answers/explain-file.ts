// "Explain <file>": what the file is and its outline — types with their methods, functions, exports — after
// finding it in the workspace and reading it. A file that cannot be read is said to be so, not guessed at.
import { languageOf } from "../languages";
import { countOf, escapeMarkdown, formatBytes, inlineCode } from "../markdown";
import { OUTLINED_LANGUAGES, outlineOf, type Outline, type OutlineItem } from "../outline";
import type { ListedFile } from "../tools/list-files";
import type { FileText } from "../tools/read-file";
import type { AnswerContext } from "./answer-context";

const TYPE_KINDS = new Set(["class", "struct", "interface", "trait", "enum", "type"]);
const LEADING_COMMENT_CHARS = 400;
const PROSE_LANGUAGES = new Set(["Markdown", "MDX", "Text", "reStructuredText", "AsciiDoc"]);

export async function answerExplainFile(context: AnswerContext, requested: string): Promise<string> {
  await context.think(`To explain ${requested} I'll find it among the workspace's files, read it, and outline its classes, functions and exports.`);
  const listed = await context.tools.listFiles();
  const { path, alternatives } = listed.ok ? resolve(listed.value.files, requested) : { path: requested, alternatives: [] };
  const read = await context.tools.readFile(path);
  const out = [`## ${inlineCode(path)}`, ""];
  if (!read.ok) {
    out.push(`I couldn't read this file: ${read.error}. So there is nothing I can outline.`);
    return out.join("\n") + "\n";
  }
  out.push(...describe(read.value));
  if (alternatives.length > 0) out.push(`Other files with that name: ${alternatives.map(inlineCode).join(", ")}.`, "");
  return out.join("\n").trimEnd() + "\n";
}

/** The path as given when it is listed; otherwise the shortest listed path that ends with it. */
function resolve(files: readonly ListedFile[], requested: string): { path: string; alternatives: string[] } {
  const wanted = requested.replace(/^\.\//, "");
  if (files.some((file) => file.path === wanted)) return { path: wanted, alternatives: [] };
  const candidates = files
    .map((file) => file.path)
    .filter((p) => p.endsWith(`/${wanted}`))
    .sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  if (candidates.length === 0) return { path: wanted, alternatives: [] };
  return { path: candidates[0], alternatives: candidates.slice(1, 6) };
}

function describe(file: FileText): string[] {
  const language = languageOf(file.path);
  if (file.binary) return [`A binary file (${language}, ${formatBytes(file.size)}), so it has no outline.`, ""];
  const lines = file.text.split(/\r?\n/).length;
  const out = [`${language} · ${countOf(lines, "line")} · ${formatBytes(file.size)}`, ""];
  if (file.truncated) out.push(`Only its first ${formatBytes(file.text.length)} were read; the outline covers that part.`, "");
  // In prose formats a first "# Title" is a heading, not a comment.
  const comment = PROSE_LANGUAGES.has(language) ? null : leadingComment(file.text);
  if (comment !== null) out.push("It begins by saying:", "", `> ${escapeMarkdown(comment)}`, "");
  const outline = outlineOf(file.path, file.text);
  if (outline === null) {
    out.push(`I can outline ${OUTLINED_LANGUAGES.join(", ")} files; this one is ${language}.`, "");
    return out;
  }
  return [...out, ...outlineSections(outline)];
}

function outlineSections(outline: Outline): string[] {
  if (outline.items.length === 0) return ["I found no classes, functions or other declarations in it.", ""];
  if (outline.language === "Markdown") {
    return ["**Headings**", "", ...outline.items.map((h) => `${"  ".repeat((h.level ?? 1) - 1)}- ${escapeMarkdown(h.name)} (line ${h.line})`), ""];
  }
  const out: string[] = [];
  const types = outline.items.filter((item) => TYPE_KINDS.has(item.kind));
  const functions = outline.items.filter((item) => item.kind === "function");
  const methods = outline.items.filter((item) => item.kind === "method");
  const typeNames = new Set(types.map((t) => t.name));
  if (types.length > 0) {
    out.push("**Types**", "");
    for (const type of types) {
      const own = methods.filter((m) => m.container === type.name);
      const methodList = own.length > 0 ? ` — methods: ${own.map((m) => `${inlineCode(m.name)} (line ${m.line})`).join(", ")}` : "";
      out.push(`- ${type.kind} ${entry(type)}${methodList}`);
    }
    out.push("");
  }
  const orphans = methods.filter((m) => m.container === undefined || !typeNames.has(m.container));
  if (orphans.length > 0) {
    out.push("**Methods of types declared elsewhere**", "");
    for (const m of orphans) out.push(`- ${inlineCode(`${m.container ?? "?"}.${m.name}`)} (line ${m.line}${m.exported ? ", exported" : ""})`);
    out.push("");
  }
  if (functions.length > 0) out.push("**Functions**", "", ...functions.map((f) => `- ${entry(f)}`), "");
  const constants = outline.items.filter((item) => item.kind === "constant");
  if (constants.length > 0) out.push("**Constants**", "", ...constants.map((c) => `- ${entry(c)}`), "");
  out.push(outline.exports.length > 0 ? `**Exports:** ${outline.exports.map(inlineCode).join(", ")}` : "**Exports:** none that I can see.", "");
  return out;
}

function entry(item: OutlineItem): string {
  return `${inlineCode(item.name)} (line ${item.line}${item.exported ? ", exported" : ""})`;
}

/** The comment a file opens with (after a shebang), as one line of text. */
function leadingComment(text: string): string | null {
  const lines = text.split(/\r?\n/);
  let i = lines[0]?.startsWith("#!") ? 1 : 0;
  while (i < lines.length && lines[i].trim() === "") i++;
  const collected: string[] = [];
  const first = lines[i]?.trim() ?? "";
  if (first.startsWith("/*") || first.startsWith('"""') || first.startsWith("'''")) {
    const close = first.startsWith("/*") ? "*/" : first.slice(0, 3);
    for (let j = i; j < lines.length; j++) {
      const line = lines[j].trim();
      const opened = j === i ? line.slice(first.startsWith("/**") ? 3 : first.startsWith("/*") ? 2 : 3) : line;
      const end = opened.indexOf(close);
      collected.push((end === -1 ? opened : opened.slice(0, end)).replace(/^\*\s?/, ""));
      if (end !== -1) break;
    }
  } else {
    const marker = first.startsWith("//") ? "//" : first.startsWith("#") && !first.startsWith("#!") ? "#" : first.startsWith("--") ? "--" : null;
    if (marker === null) return null;
    for (let j = i; j < lines.length && lines[j].trim().startsWith(marker); j++) collected.push(lines[j].trim().slice(marker.length).replace(/^[/#!]*\s?/, ""));
  }
  const joined = collected.map((l) => l.trim()).filter((l) => l !== "").join(" ");
  if (joined === "") return null;
  return joined.length > LEADING_COMMENT_CHARS ? joined.slice(0, LEADING_COMMENT_CHARS - 1) + "…" : joined;
}
