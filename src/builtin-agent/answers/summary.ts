// "Summarise this workspace": languages by file count and size, what the README says it is, the key files,
// and how to build and test — from listing the files and reading the few that say the most.
import { OTHER_LANGUAGE, languageOf } from "../languages";
import { countOf, formatBytes, inlineCode, tableRow } from "../markdown";
import type { FileListing, ListedFile } from "../tools/list-files";
import type { AnswerContext } from "./answer-context";
import { buildInstructions, type BuildSources } from "./build-instructions";
import { keyFilesIn } from "./key-files";
import { firstParagraph } from "./readme-paragraph";

const LANGUAGES_SHOWN = 12;
const README = /^readme(\.(md|markdown|mdx|txt|rst))?$/i;
const MAKEFILE = /^(GNUmakefile|[Mm]akefile)$/;

interface LanguageShare {
  language: string;
  files: number;
  bytes: number;
}

export async function answerSummary(context: AnswerContext): Promise<string> {
  await context.think("To describe this workspace I'll list its files (honouring .gitignore), count them by language, then read the README and whatever says how to build and test it.");
  const listed = await context.tools.listFiles();
  if (!listed.ok) return `I couldn't list the files of this workspace: ${listed.error}.\n`;
  const listing = listed.value;
  const paths = new Set(listing.files.map((file) => file.path));
  const readme = listing.files.find((file) => README.test(file.path));
  const makefile = listing.files.find((file) => MAKEFILE.test(file.path));
  const toRead = [readme?.path, paths.has("package.json") ? "package.json" : undefined, makefile?.path].filter((p): p is string => p !== undefined);
  await context.think(
    toRead.length > 0
      ? `${countOf(listing.files.length, "file")} listed. Now reading ${toRead.join(", ")}.`
      : `${countOf(listing.files.length, "file")} listed; there is no README or build file at the top level to read.`,
  );

  const out = [`## Workspace ${inlineCode(context.workspaceName)}`, "", overview(listing), ""];
  out.push(...languageTable(listing.files));
  out.push("### What it is", "");
  out.push(...(readme ? await readmeSection(context, readme.path) : ["There is no README at the top of the workspace.", ""]));
  const keyFiles = keyFilesIn(listing.files);
  out.push("### Key files", "");
  if (keyFiles.length === 0) out.push("None of the files I know to look for (README, package.json, Makefile, go.mod, Cargo.toml, …) are here.");
  for (const { path, about } of keyFiles) out.push(`- ${inlineCode(path)} — ${about}`);
  out.push("", "### How to build and test", "");
  const sources: BuildSources = { paths };
  const unread: string[] = [];
  if (paths.has("package.json")) {
    const pkg = await context.tools.readFile("package.json");
    if (pkg.ok) sources.packageJson = pkg.value.text;
    else unread.push(`I couldn't read ${inlineCode("package.json")}: ${pkg.error}.`);
  }
  if (makefile) {
    const make = await context.tools.readFile(makefile.path);
    if (make.ok) sources.makefile = make.value.text;
    else unread.push(`I couldn't read ${inlineCode(makefile.path)}: ${make.error}.`);
  }
  out.push(...buildInstructions(sources));
  for (const note of unread) out.push(note, "");
  return out.join("\n").trimEnd() + "\n";
}

function overview(listing: FileListing): string {
  const bytes = listing.files.reduce((sum, file) => sum + file.size, 0);
  const languages = new Set(listing.files.map((file) => languageOf(file.path))).size;
  const parts = [`${countOf(listing.files.length, "file")} (${formatBytes(bytes)}) in ${countOf(languages, "language or file type", "languages and file types")}.`];
  if (listing.ignoredEntries > 0) parts.push(`${countOf(listing.ignoredEntries, "entry", "entries")} left out by \`.gitignore\`; \`.git\` and \`node_modules\` are never counted.`);
  if (listing.truncated) parts.push(`I stopped listing at ${countOf(listing.files.length, "file")}, so these numbers cover only part of the tree.`);
  if (listing.depthLimited) parts.push("Some folders were nested too deep to list.");
  for (const folder of listing.unreadableFolders) parts.push(`I couldn't read the folder ${inlineCode(folder.path)} (${folder.error}).`);
  return parts.join(" ");
}

function languageTable(files: readonly ListedFile[]): string[] {
  if (files.length === 0) return ["The workspace has no files to count.", ""];
  const shares = new Map<string, LanguageShare>();
  for (const file of files) {
    const language = languageOf(file.path);
    const share = shares.get(language) ?? { language, files: 0, bytes: 0 };
    share.files++;
    share.bytes += file.size;
    shares.set(language, share);
  }
  const ranked = [...shares.values()].sort(
    (a, b) => b.files - a.files || b.bytes - a.bytes || (a.language < b.language ? -1 : a.language > b.language ? 1 : 0),
  );
  const out = ["### Languages by file count", "", tableRow(["Language", "Files", "Size"]), tableRow(["---", "---:", "---:"])];
  for (const share of ranked.slice(0, LANGUAGES_SHOWN)) {
    const name = share.language === OTHER_LANGUAGE ? "Other (no known extension)" : share.language;
    out.push(tableRow([name, share.files.toLocaleString("en-US"), formatBytes(share.bytes)]));
  }
  const rest = ranked.slice(LANGUAGES_SHOWN);
  if (rest.length > 0) out.push("", `…and ${rest.length} more: ${rest.map((s) => s.language).join(", ")}.`);
  return [...out, ""];
}

async function readmeSection(context: AnswerContext, path: string): Promise<string[]> {
  const read = await context.tools.readFile(path);
  if (!read.ok) return [`I couldn't read ${inlineCode(path)}: ${read.error}.`, ""];
  const paragraph = firstParagraph(read.value.text);
  if (paragraph === null) return [`${inlineCode(path)} has no paragraph of prose to quote.`, ""];
  return [`From ${inlineCode(path)}:`, "", `> ${paragraph}`, ""];
}
