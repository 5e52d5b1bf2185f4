// Claude Code's own sessions of a workspace folder, read from its store under the user's home
// (`~/.claude/projects/<folder name>/<session id>.jsonl`) for the Sessions view: listed from the head and tail of each
// file, read whole as turns when opened, continued by the `claude` profile with `--resume <id>`. Read only: nothing
// there is ever written or deleted. Facts: test/fixtures/claude-recorded/2.1.330/sessions/README.md.
import { promises as fs, type Dirent } from "node:fs";
import * as path from "node:path";
import type { Turn } from "../protocol/messages";
import { SessionIdSchema, type SessionSummary } from "../protocol/sessions";
import { claudeProfile } from "../profiles/claude-profile";
import { RefusedLine, oversizedLineMessage, parseJsonLine } from "../stream/json-line";
import { DEFAULT_MAX_LINE_BYTES, LineReader } from "../stream/line-reader";
import { ClaudeHistory, CLAUDE_HISTORY_LIMITS, type ClaudeHistoryLimits } from "./claude-history";
import { claudeProjectFolderName, claudeProjectsFolder } from "./claude-project-folder";
import { readClaudeStoreLine, type ClaudeStoreLine } from "./claude-store-line";
import { TITLE_CHARS, titleFromPrompt } from "../common/session-title";
import { openStoreFile, readSlice, readSlices, type StoreFile } from "./store-file";

export const CLAUDE_STORE_LIMITS = {
  /** Entries of a project folder looked at; a folder with more lists what it found among these. */
  folderEntries: 10_000,
  /** Session files listed, the most recently changed first. */
  sessionFiles: 1_000,
  /** Bytes read from the start of a file to list it (its first prompt, where, when it began)… */
  headBytes: 64 * 1024,
  /** …and from its end (when it changed last, how many turns). */
  tailBytes: 64 * 1024,
  /** Characters of a title: the first line of the first prompt. */
  titleChars: TITLE_CHARS,
  /** A line of a session file longer than this, while reading it whole, is skipped (and said). */
  lineBytes: DEFAULT_MAX_LINE_BYTES,
} as const;

export type ClaudeStoreLimits = { readonly [K in keyof typeof CLAUDE_STORE_LIMITS]: number };

export interface ClaudeStoreOptions {
  /** Told of each file or folder left out, and why, in words a log line can carry. */
  onSkipped?: (file: string, why: string) => void;
  /** Smaller limits, for tests. */
  limits?: Partial<ClaudeStoreLimits>;
  historyLimits?: ClaudeHistoryLimits;
}

export interface ClaudeSessionHistory {
  turns: Turn[];
  claudeSessionId: string;
  /** False when the history was longer than a session keeps (CLAUDE_HISTORY_LIMITS): the turns are its first part. */
  complete: boolean;
}

const SESSION_FILE_SUFFIX = ".jsonl";

/** Claude names a session's file by its id: `<uuid>.jsonl`. */
function isSessionFileName(name: string): boolean {
  return name.endsWith(SESSION_FILE_SUFFIX) && SessionIdSchema.safeParse(name.slice(0, -SESSION_FILE_SUFFIX.length)).success;
}

/**
 * The sessions Claude Code ran in `workspaceFolder`, newest first. A summary's `id` is Claude's own session id (a
 * lowercase UUID, the file's name): `readClaudeSession` takes it back, and `--resume` continues it.
 */
export async function listClaudeSessions(workspaceFolder: string, home: string, options: ClaudeStoreOptions = {}): Promise<SessionSummary[]> {
  const limits: ClaudeStoreLimits = { ...CLAUDE_STORE_LIMITS, ...options.limits };
  const cwds = await workspacePaths(workspaceFolder);
  const files: { file: string; modifiedAt: number }[] = [];
  for (const folder of await projectFolders(cwds, home, options)) {
    for (const name of await sessionFileNames(folder, limits.folderEntries, options)) {
      const file = path.join(folder, name);
      const stats = await fs.lstat(file).catch(() => undefined);
      if (stats?.isFile()) files.push({ file, modifiedAt: stats.mtimeMs });
    }
  }
  files.sort((a, b) => b.modifiedAt - a.modifiedAt);
  const summaries: SessionSummary[] = [];
  for (const { file } of files.slice(0, limits.sessionFiles)) {
    const summary = await summarize(file, cwds, limits);
    if ("skipped" in summary) options.onSkipped?.(file, summary.skipped);
    else summaries.push(summary);
  }
  return summaries.sort((a, b) => b.updatedAt - a.updatedAt);
}

/** The whole conversation of Claude's session `claudeSessionId` in `workspaceFolder`, or undefined when there is none. */
export async function readClaudeSession(
  workspaceFolder: string,
  home: string,
  claudeSessionId: string,
  options: ClaudeStoreOptions = {},
): Promise<ClaudeSessionHistory | undefined> {
  if (!SessionIdSchema.safeParse(claudeSessionId).success) return undefined;
  const limits: ClaudeStoreLimits = { ...CLAUDE_STORE_LIMITS, ...options.limits };
  const cwds = await workspacePaths(workspaceFolder);
  for (const folder of await projectFolders(cwds, home, options)) {
    const target = path.join(folder, `${claudeSessionId}${SESSION_FILE_SUFFIX}`);
    const file = await openStoreFile(target);
    if ("skipped" in file) {
      if (file.skipped !== "it does not exist") options.onSkipped?.(target, file.skipped);
      continue;
    }
    try {
      const history = await readHistory(file, claudeSessionId, cwds, limits.lineBytes, options.historyLimits ?? CLAUDE_HISTORY_LIMITS);
      if ("skipped" in history) options.onSkipped?.(target, history.skipped);
      else return history;
    } finally {
      await file.handle.close();
    }
  }
  return undefined;
}

/** The folders where Claude Code keeps this workspace folder's sessions, those that exist (real folders only). */
export async function claudeSessionFolders(workspaceFolder: string, home: string): Promise<string[]> {
  return projectFolders(await workspacePaths(workspaceFolder), home, {});
}

/** The folder as given (made absolute) and as the system resolves it: Claude records the path it ran in, its real one. */
async function workspacePaths(workspaceFolder: string): Promise<string[]> {
  const given = path.resolve(workspaceFolder);
  const real = await fs.realpath(given).catch(() => given);
  return real === given ? [given] : [given, real];
}

/** The project folders Claude would have made for these paths: real folders only, never a symlink to elsewhere. */
async function projectFolders(cwds: readonly string[], home: string, options: ClaudeStoreOptions): Promise<string[]> {
  const projects = claudeProjectsFolder(home);
  const folders: string[] = [];
  for (const name of new Set(cwds.map(claudeProjectFolderName))) {
    const folder = path.join(projects, name);
    const stats = await fs.lstat(folder).catch(() => undefined);
    if (stats === undefined) continue;
    if (stats.isDirectory()) folders.push(folder);
    else options.onSkipped?.(folder, stats.isSymbolicLink() ? "it is a symbolic link, which Claude Code never makes there" : "it is not a folder");
  }
  return folders;
}

/** Names of the session files among the folder's first `maxEntries` entries: `<uuid>.jsonl`, regular files. */
async function sessionFileNames(folder: string, maxEntries: number, options: ClaudeStoreOptions): Promise<string[]> {
  const names: string[] = [];
  let seen = 0;
  const dir = await fs.opendir(folder).catch(() => undefined);
  if (dir === undefined) return names;
  try {
    for (let entry: Dirent | null = await dir.read(); entry !== null; entry = await dir.read()) {
      if (++seen > maxEntries) {
        options.onSkipped?.(folder, `it has more than ${maxEntries} entries; the first ${maxEntries} were looked at`);
        break;
      }
      if (!isSessionFileName(entry.name)) continue;
      if (entry.isFile()) names.push(entry.name);
      else options.onSkipped?.(path.join(folder, entry.name), entry.isSymbolicLink() ? "it is a symbolic link" : "it is not a regular file");
    }
  } finally {
    await dir.close();
  }
  return names;
}

/** What the head and the tail of a session file say of it: enough for its row in the list. */
async function summarize(target: string, cwds: readonly string[], limits: ClaudeStoreLimits): Promise<SessionSummary | { skipped: string }> {
  const file = await openStoreFile(target);
  if ("skipped" in file) return file;
  try {
    const whole = file.size <= limits.headBytes + limits.tailBytes;
    const head = linesOf(await readSlice(file, 0, whole ? file.size : limits.headBytes), { fromStart: true, toEnd: whole });
    const tail = whole ? [] : linesOf(await readSlice(file, file.size - limits.tailBytes, limits.tailBytes), { fromStart: false, toEnd: true });
    return summaryOf(path.basename(target, SESSION_FILE_SUFFIX), file, head, tail, whole, cwds, limits.titleChars);
  } finally {
    await file.handle.close();
  }
}

function summaryOf(
  id: string,
  file: StoreFile,
  head: readonly ClaudeStoreLine[],
  tail: readonly ClaudeStoreLine[],
  whole: boolean,
  cwds: readonly string[],
  titleChars: number,
): SessionSummary | { skipped: string } {
  const prompts = head.filter((line) => line.kind === "prompt");
  const first = prompts[0];
  if (first?.cwd != null && !cwds.includes(first.cwd)) return { skipped: `it was run in another folder (${first.cwd}) whose store name is the same` };
  const lastPrompt = [...tail].reverse().find((line) => line.kind === "last-prompt");
  const title = first?.text ?? lastPrompt?.text;
  if (title === undefined) return { skipped: "no prompt of the user's was found in it" };
  const times = [...head, ...tail].flatMap((line) => (line.kind !== "last-prompt" && line.at !== null ? [line.at] : []));
  const turnIndexes = [...head, ...tail].flatMap((line) => (line.kind === "prompt" && line.turnIndex !== null ? [line.turnIndex] : []));
  return {
    id,
    title: titleFromPrompt(title, titleChars),
    agent: { profile: claudeProfile.name, displayName: claudeProfile.displayName },
    status: "completed",
    // The lines' own times: a file's time also changes when it is copied or restored.
    createdAt: times.length > 0 ? Math.min(...times) : Math.round(file.modifiedAt),
    updatedAt: times.length > 0 ? Math.max(...times) : Math.round(file.modifiedAt),
    // Claude numbers each prompt (turnPosition.turnIndex); a file read whole is also counted.
    turnCount: Math.max(whole ? prompts.length : 0, ...turnIndexes, prompts.length, 1),
    changes: null,
    source: "claude-code",
  };
}

/**
 * The store lines in a slice of a file. A slice that does not start the file begins inside a line, and one that does
 * not end it ends inside one: those partial lines are left out.
 */
function linesOf(slice: Buffer, where: { fromStart: boolean; toEnd: boolean }): ClaudeStoreLine[] {
  const lines: ClaudeStoreLine[] = [];
  const reader = new LineReader(
    {
      onLine: (text) => {
        const value = parseJsonLine(text);
        if (!(value instanceof RefusedLine)) lines.push(readClaudeStoreLine(value));
      },
      onOversizedLine: () => undefined,
    },
    Math.max(1, slice.length),
  );
  const start = where.fromStart ? 0 : slice.indexOf(0x0a) + 1;
  if (start > 0 || where.fromStart) reader.push(slice.subarray(start));
  if (where.toEnd) reader.end();
  return lines;
}

/** Reads the file line by line into turns, checking on its first prompt that it belongs to this folder. */
async function readHistory(
  file: StoreFile,
  claudeSessionId: string,
  cwds: readonly string[],
  maxLineBytes: number,
  historyLimits: ClaudeHistoryLimits,
): Promise<ClaudeSessionHistory | { skipped: string }> {
  const history = new ClaudeHistory(claudeProfile.displayName, historyLimits);
  let foreign: string | null = null;
  let sawPrompt = false;
  const reader = new LineReader(
    {
      onLine: (text, lineNumber) => {
        const value = parseJsonLine(text);
        if (value instanceof RefusedLine) return history.skipLine(lineNumber, value.message);
        const line = readClaudeStoreLine(value);
        if (line.kind === "prompt" && !sawPrompt) {
          sawPrompt = true;
          if (line.cwd !== null && !cwds.includes(line.cwd)) foreign = line.cwd;
        }
        if (foreign === null) history.accept(line, lineNumber);
      },
      onOversizedLine: (lineNumber, sizeBytes) => history.skipLine(lineNumber, oversizedLineMessage(sizeBytes, maxLineBytes)),
    },
    maxLineBytes,
  );
  for await (const slice of readSlices(file)) {
    reader.push(slice);
    if (foreign !== null || history.full) break;
  }
  if (foreign !== null) return { skipped: `it was run in another folder (${String(foreign)}) whose store name is the same` };
  if (!history.full) reader.end();
  return { turns: history.finish(), claudeSessionId, complete: !history.full };
}
