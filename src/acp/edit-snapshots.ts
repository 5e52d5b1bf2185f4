// The diffs of edits an agent sends no diff for: each file an edit call names is read (through the client's confined
// file reading: workspace files only, bounded) before the call may change it, and again once it completed; the card
// shows the file before ↔ after. Where that cannot be done, the card says why instead.
import type { AcpToolCall, AcpToolContent } from "../dialects/acp/acp-events";
import { namesSameFile } from "../dialects/acp/tool-calls";

export const EDIT_SNAPSHOT_LIMITS = {
  /** Edit calls followed at once; a call past this gets no computed diff (its card says so). */
  calls: 16,
  /** Files of one call read. */
  filesPerCall: 8,
  /** Characters of the copies from before held at once; a file past this is not copied (its card says so). */
  chars: 16 * 1024 * 1024,
} as const;

export type EditSnapshotLimits = { readonly [K in keyof typeof EDIT_SNAPSHOT_LIMITS]: number };

/** A file as it was before the edit: its text, absent (the edit creates it), or why it could not be read. */
type Before = { text: string | null } | { unreadable: string };

interface FollowedEdit {
  /** By path, as the call names it; settled once each file was read. */
  files: Map<string, Promise<Before>>;
  chars: number;
  /** Let go (failed, completed, the turn over): a copy read after that is not kept. */
  gone: boolean;
}

/** What the card of a completed edit shows: the diffs computed, and a line for each file that has none, saying why. */
export interface ComputedEdit {
  diffs: Extract<AcpToolContent, { type: "diff" }>[];
  notes: string[];
}

/** Reads a workspace file as the agent's own read would; rejects with the reason (outside, too large, missing). */
export type ReadWorkspaceFile = (path: string) => Promise<string>;

export class EditSnapshots {
  private readonly edits = new Map<string, FollowedEdit>();
  private chars = 0;
  /** Reads go one at a time: each may hold a whole file (up to 4 MiB) until it is judged. */
  private reading: Promise<unknown> = Promise.resolve();
  private readonly limits: EditSnapshotLimits;

  constructor(
    private readonly read: ReadWorkspaceFile,
    limits: Partial<EditSnapshotLimits> = {},
  ) {
    this.limits = { ...EDIT_SNAPSHOT_LIMITS, ...limits };
  }

  /** Calls followed now. */
  get size(): number {
    return this.edits.size;
  }

  /** The turn is over: no call of it completes any more. */
  clear(): void {
    for (const id of [...this.edits.keys()]) this.forget(id);
  }

  /**
   * Reads, once, the files of an edit call the agent has sent no diff for, before it changes them: resolves when they
   * are read (a permission request waits for it before it is answered). Anything else is left alone.
   */
  async before(call: AcpToolCall): Promise<void> {
    if (!isEdit(call) || hasEnded(call)) return;
    let edit = this.edits.get(call.toolCallId);
    if (edit === undefined) {
      if (this.edits.size >= this.limits.calls) return;
      edit = { files: new Map(), chars: 0, gone: false };
      this.edits.set(call.toolCallId, edit);
    }
    // A later message may name more files (claude-agent-acp's first mention of a write names none).
    for (const path of unique(call.locations.map((location) => location.path))) {
      if (edit.files.size >= this.limits.filesPerCall) break;
      if (!edit.files.has(path)) edit.files.set(path, this.copy(edit, path));
    }
    await Promise.all(edit.files.values());
  }

  /**
   * The call completed: each file it named that the agent sent no diff for, before ↔ now. Undefined for a call not
   * followed, or whose files all have the agent's own diffs. The call is let go either way.
   */
  async after(call: AcpToolCall): Promise<ComputedEdit | undefined> {
    const edit = this.edits.get(call.toolCallId);
    this.forget(call.toolCallId);
    if (!isEdit(call)) return undefined;
    const sent = call.content.flatMap((item) => (item.type === "diff" ? [item.path] : []));
    const named = unique(call.locations.map((location) => location.path));
    const missing = named.filter((path) => !sent.some((other) => namesSameFile(path, other)));
    if (missing.length === 0) return sent.length > 0 ? undefined : { diffs: [], notes: ["No diff: the agent named no file it changed."] };
    const computed = await this.compare(edit, missing);
    // A call of no known kind may only have read its files: a diff shows if it changed one, and nothing is said else.
    return call.kind === "other" ? { diffs: computed.diffs, notes: [] } : computed;
  }

  /** The call failed: its copies are let go. */
  forget(toolCallId: string): void {
    const edit = this.edits.get(toolCallId);
    if (edit === undefined) return;
    this.edits.delete(toolCallId);
    edit.gone = true;
    this.chars -= edit.chars;
  }

  /** Each file before ↔ now, or why there is no diff of it. */
  private async compare(edit: FollowedEdit | undefined, missing: readonly string[]): Promise<ComputedEdit> {
    const computed: ComputedEdit = { diffs: [], notes: [] };
    for (const path of missing) {
      const before = edit?.files.get(path);
      if (before === undefined) {
        computed.notes.push(`No diff of ${path}: ${edit === undefined ? "there is no copy of it from before the edit (the agent told of it only once it was done, or too many edits ran at once)" : "too many files in one edit to copy them all"}.`);
        continue;
      }
      const was = await before;
      if ("unreadable" in was) {
        computed.notes.push(`No diff of ${path}: ${was.unreadable}.`);
        continue;
      }
      const now = await this.readNow(path);
      if (typeof now !== "string" && now !== null) computed.notes.push(`No diff of ${path}: ${now.unreadable}.`);
      else if (now === was.text) computed.notes.push(`No diff of ${path}: the file is unchanged.`);
      else computed.diffs.push({ type: "diff", path, oldText: was.text, newText: now ?? "" });
    }
    return computed;
  }

  private async copy(edit: FollowedEdit, path: string): Promise<Before> {
    const now = await this.readNow(path);
    if (typeof now !== "string") return now === null ? { text: null } : now;
    if (this.chars + now.length > this.limits.chars) return { unreadable: "too many large files are being edited at once to keep a copy of this one" };
    if (edit.gone) return { unreadable: "the edit ended before the file was read" };
    edit.chars += now.length;
    this.chars += now.length;
    return { text: now };
  }

  /** The file's text now, null when it does not exist, or why it cannot be read; after the reads before it. */
  private readNow(path: string): Promise<string | null | { unreadable: string }> {
    const read = this.reading.then(async () => {
      try {
        return await this.read(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") return null;
        return { unreadable: error instanceof Error ? error.message : String(error) };
      }
    });
    this.reading = read;
    return read;
  }
}

/** An edit by its kind, or a call of no known kind that names files. */
function isEdit(call: AcpToolCall): boolean {
  return call.kind === "edit" || call.kind === "delete" || call.kind === "move" || (call.kind === "other" && call.locations.length > 0);
}

function hasEnded(call: AcpToolCall): boolean {
  return call.status === "completed" || call.status === "failed";
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}
