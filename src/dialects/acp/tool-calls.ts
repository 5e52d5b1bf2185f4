// The tool calls of one conversation as known so far. Agents send them in parts: a `tool_call`, then
// `tool_call_update`s that carry only what changed, and a permission request may be the first mention of all.
//
// Bounded: a message's content, rawInput and rawOutput are passed on cut as the transcript cuts them (counted), and
// then let go; a call keeps only what later messages need (its id, title, kind, status, the paths it names, for a
// permission request's outside-the-workspace check, and the diffs it showed, within their own allowance), and the
// book keeps a bounded number of calls. Kept whole, 60 calls with a 10 MB diff each held 600 MB for the
// conversation's life.
//
// A diff once shown stays: the protocol replaces a call's content whole, and opencode 1.18.33 sends its diff only with
// the permission request, then completes the call with content that has none. A message that says nothing of a file
// keeps that file's diff on the card; one that sends a new diff for it replaces it.
import type { AcpToolCall, AcpToolCallStatus, AcpToolContent, AcpToolKind, AcpToolLocation } from "./acp-events";
import { canonicalDigest } from "./canonical-digest";

/** The fields one message carried; absent ones leave the call as it was. */
export interface ToolCallPatch {
  toolCallId: string;
  title?: string;
  kind?: AcpToolKind;
  status?: AcpToolCallStatus;
  content?: AcpToolContent[];
  locations?: AcpToolLocation[];
  rawInput?: unknown;
  rawOutput?: unknown;
}

export interface MergedToolCall {
  call: AcpToolCall;
  change: "created" | "updated";
  /** The call had ended (completed or failed) before this message: its card is finished, maybe in an earlier turn. */
  endedBefore: boolean;
  /** This message replaced the call's content (the protocol replaces it whole); otherwise `call.content` holds only paths. */
  contentChanged: boolean;
}

/**
 * What one message of a call may pass on, as the session's transcript keeps it (TRANSCRIPT_LIMITS, which this layer
 * cannot import; a test holds them equal): a text and a diff up to a block's characters (a larger diff is dropped
 * whole: half a file change would say something the agent did not), tool input up to a card's parameters.
 */
export const TOOL_CALL_LIMITS = {
  /** Characters of one text or of one diff (path, old and new text); TRANSCRIPT_LIMITS.blockChars. */
  contentChars: 4 * 1024 * 1024,
  /** Characters of rawInput or rawOutput as JSON; TRANSCRIPT_LIMITS.parameterChars. */
  rawChars: 256 * 1024,
  /** Calls remembered; the oldest are forgotten first (a later message about one starts it again). */
  calls: 1000,
  /** Characters of titles and paths all remembered calls keep together; TRANSCRIPT_LIMITS.sessionChars. */
  keptChars: 16 * 1024 * 1024,
  /** Characters of the diffs the calls showed, kept to show again; the oldest calls' are let go first. */
  diffChars: 16 * 1024 * 1024,
  /** Characters of the ids of ended calls the book forgot, kept to tell a late message about one; the oldest go first. */
  endedIdChars: 1024 * 1024,
} as const;

export type ToolCallLimits = { readonly [K in keyof typeof TOOL_CALL_LIMITS]: number };

type Diff = Extract<AcpToolContent, { type: "diff" }>;

interface KeptCall {
  call: AcpToolCall;
  /** Characters of its title and paths, against `keptChars`. */
  chars: number;
  /** The whole diffs its card shows, one per file: shown again when a message replaces the content without them. */
  diffs: Diff[];
  /** Characters of `diffs`, against `diffChars`. */
  diffChars: number;
  /** It completed or failed once: a later status does not start it again. */
  ended: boolean;
}

export class ToolCallBook {
  private readonly calls = new Map<string, KeptCall>();
  private keptChars = 0;
  private keptDiffChars = 0;
  /** Ids of ended calls the book let go of, oldest first, and their characters against `endedIdChars`. */
  private readonly forgottenEnded = new Set<string>();
  private forgottenEndedChars = 0;
  private readonly limits: ToolCallLimits;

  constructor(limits: Partial<ToolCallLimits> = {}) {
    this.limits = { ...TOOL_CALL_LIMITS, ...limits };
  }

  /** Calls remembered now. */
  get size(): number {
    return this.calls.size;
  }

  get(toolCallId: string): AcpToolCall | undefined {
    return this.calls.get(toolCallId)?.call;
  }

  /**
   * Applies what the patch carries; a call not seen before is created from it (an update can come first). The merged
   * call carries this message's content and raw fields, cut to the limits; `cutChars` counts what was cut.
   */
  merge(patch: ToolCallPatch): MergedToolCall {
    const known = this.calls.get(patch.toolCallId);
    const endedBefore = known === undefined ? this.forgetEnded(patch.toolCallId) : known.ended;
    const kept = known?.call ?? {
      toolCallId: patch.toolCallId,
      title: "",
      kind: "other",
      status: "pending",
      content: [],
      locations: [],
      rawInput: undefined,
      rawOutput: undefined,
      cutChars: 0,
      fingerprint: { input: null, diffs: null },
    };
    if (patch.title !== undefined) kept.title = patch.title;
    if (patch.kind !== undefined) kept.kind = patch.kind;
    if (patch.status !== undefined) kept.status = patch.status;
    if (patch.locations !== undefined) kept.locations = patch.locations;
    this.noteFingerprint(kept, patch);
    const cut = { chars: 0 };
    const sent = patch.content === undefined ? undefined : patch.content.map((item) => this.bounded(item, cut));
    const content = sent === undefined ? undefined : this.withShownDiffs(patch.toolCallId, sent);
    const rawInput = this.boundedRaw(patch.rawInput, cut);
    const rawOutput = this.boundedRaw(patch.rawOutput, cut);
    // The protocol replaces content whole: what the call keeps of it is its diffs' paths and its terminals.
    if (content !== undefined) kept.content = content.flatMap(keptOf);
    const ended = endedBefore || patch.status === "completed" || patch.status === "failed";
    this.keep(kept, known, ended);
    // An ended call's card is finished with this message (its shown diffs re-added above): nothing more to show again,
    // so its diffs are let go now rather than held until the allowance is full (600 ended 1 MB edits held 16 Mi more).
    if (ended) this.keepDiffs(patch.toolCallId, []);
    else if (content !== undefined) this.keepDiffs(patch.toolCallId, content);
    // Observers get a copy: a later merge must not change what they already hold.
    const call: AcpToolCall = {
      ...kept,
      content: content ?? [...kept.content],
      locations: [...kept.locations],
      rawInput,
      rawOutput,
      cutChars: cut.chars,
      fingerprint: { ...kept.fingerprint },
    };
    return { call, change: known === undefined ? "created" : "updated", endedBefore, contentChanged: content !== undefined };
  }

  /**
   * Digests of the whole input and diffs, before anything is cut: a call keeps its identity (what it will run, what it
   * will change) for a later permission request whatever it keeps of them. A message whose content holds no diff
   * (output, a status) leaves the diffs' digest as it was.
   */
  private noteFingerprint(call: AcpToolCall, patch: ToolCallPatch): void {
    if (patch.rawInput !== undefined) call.fingerprint.input = canonicalDigest(patch.rawInput);
    const diffs = patch.content?.flatMap((item) => (item.type === "diff" ? [[item.path, item.oldText, item.newText]] : [])) ?? [];
    if (diffs.length > 0) call.fingerprint.diffs = canonicalDigest(diffs);
  }

  /** Text cut as a transcript block is, with the same note; a diff too large dropped whole, its path kept. */
  private bounded(item: AcpToolContent, cut: { chars: number }): AcpToolContent {
    const max = this.limits.contentChars;
    if (item.type === "text" && item.text.length > max) {
      const dropped = item.text.length - max;
      cut.chars += dropped;
      return { type: "text", text: `${copyOf(keptStart(item.text, max))}\n… ${dropped.toLocaleString("en-US")} more characters not kept` };
    }
    if (item.type === "diff" && item.droppedChars === undefined) {
      const size = item.path.length + (item.oldText?.length ?? 0) + item.newText.length;
      if (size > max) {
        cut.chars += size - item.path.length;
        return { type: "diff", path: item.path, oldText: null, newText: "", droppedChars: size - item.path.length };
      }
    }
    return item;
  }

  /** Tool input or output too large for a card is dropped whole: half an object would say something it did not. */
  private boundedRaw(value: unknown, cut: { chars: number }): unknown {
    if (value === undefined || (typeof value !== "object" && typeof value !== "string") || value === null) return value;
    const size = typeof value === "string" ? value.length : jsonLength(value);
    if (size !== undefined && size <= this.limits.rawChars) return value;
    // A value JSON cannot write (nested past the stack; the line guard keeps those out of a live stream) is not kept
    // either, and is not counted: its size is not known.
    if (size !== undefined) cut.chars += size;
    return undefined;
  }

  /** The content sent, and after it the diffs shown before of each file it says nothing of. */
  private withShownDiffs(toolCallId: string, sent: AcpToolContent[]): AcpToolContent[] {
    const shown = this.calls.get(toolCallId)?.diffs ?? [];
    const sentPaths = sent.flatMap((item) => (item.type === "diff" ? [item.path] : []));
    const kept = shown.filter((old) => !sentPaths.some((path) => namesSameFile(path, old.path)));
    return kept.length === 0 ? sent : [...sent, ...kept];
  }

  /** The call's card shows these diffs now: kept whole (one too large was dropped and is not), within `diffChars`. */
  private keepDiffs(toolCallId: string, content: readonly AcpToolContent[]): void {
    const kept = this.calls.get(toolCallId);
    if (kept === undefined) return;
    const diffs = content.filter((item): item is Diff => item.type === "diff" && item.droppedChars === undefined);
    const chars = diffs.reduce((sum, item) => sum + item.path.length + (item.oldText?.length ?? 0) + item.newText.length, 0);
    this.keptDiffChars += chars - kept.diffChars;
    kept.diffs = diffs;
    kept.diffChars = chars;
    for (const [id, other] of this.calls) {
      if (this.keptDiffChars <= this.limits.diffChars) return;
      if (id === toolCallId || other.diffChars === 0) continue;
      this.keptDiffChars -= other.diffChars;
      other.diffs = [];
      other.diffChars = 0;
    }
  }

  /** Remembers the call, forgetting the oldest others while the book is over its limits. */
  private keep(call: AcpToolCall, known: KeptCall | undefined, ended: boolean): void {
    const chars = call.title.length + call.locations.reduce((sum, place) => sum + place.path.length, 0) + call.content.reduce((sum, item) => sum + (item.type === "diff" ? item.path.length : 0), 0);
    if (known !== undefined) {
      this.keptChars += chars - known.chars;
      known.chars = chars;
      known.ended = ended;
    } else {
      this.calls.set(call.toolCallId, { call, chars, diffs: [], diffChars: 0, ended });
      this.keptChars += chars;
    }
    for (const [id, other] of this.calls) {
      if (this.calls.size <= this.limits.calls && this.keptChars <= this.limits.keptChars) return;
      if (id === call.toolCallId) continue;
      this.calls.delete(id);
      this.keptChars -= other.chars;
      this.keptDiffChars -= other.diffChars;
      if (other.ended) this.rememberEnded(id);
    }
  }

  /** Whether the forgotten call had ended; the book holds it again from now on, so its id is let go here. */
  private forgetEnded(toolCallId: string): boolean {
    if (!this.forgottenEnded.delete(toolCallId)) return false;
    this.forgottenEndedChars -= toolCallId.length;
    return true;
  }

  /** A forgotten call that had ended stays known as ended: a late message about it must not start it again. */
  private rememberEnded(toolCallId: string): void {
    if (toolCallId.length > this.limits.endedIdChars) return;
    this.forgottenEnded.add(toolCallId);
    this.forgottenEndedChars += toolCallId.length;
    for (const id of this.forgottenEnded) {
      if (this.forgottenEndedChars <= this.limits.endedIdChars) return;
      this.forgottenEnded.delete(id);
      this.forgottenEndedChars -= id.length;
    }
  }
}

/**
 * Whether two of a call's diff paths name one file: Qwen Code sends a diff's path absolute with the permission request
 * and relative to the workspace on the finished call.
 */
export function namesSameFile(a: string, b: string): boolean {
  if (a === b) return true;
  const [absolute, relative] = isAbsolutePath(a) ? [a, b] : [b, a];
  if (!isAbsolutePath(absolute) || isAbsolutePath(relative) || relative === "") return false;
  const tail = slashed(relative.startsWith("./") ? relative.slice(2) : relative);
  return slashed(absolute).endsWith(`/${tail}`);
}

function isAbsolutePath(path: string): boolean {
  const drive = path.length >= 3 && path[1] === ":" && (path[2] === "/" || path[2] === "\\");
  return path.startsWith("/") || path.startsWith("\\") || drive;
}

/** Windows' separators as forward slashes. */
function slashed(path: string): string {
  return path.split("\\").join("/");
}

/** The length of `value` as JSON; undefined when it cannot be written (nested deeper than the stack goes). */
function jsonLength(value: unknown): number | undefined {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return undefined;
  }
}

/**
 * What a call keeps of its content once it was passed on: the file a diff names (for a permission request's check),
 * and the terminal a command writes to (its output comes later, by terminal).
 */
function keptOf(item: AcpToolContent): AcpToolContent[] {
  if (item.type === "terminal") return [{ type: "terminal", terminalId: item.terminalId }];
  if (item.type !== "diff") return [];
  const droppedChars = item.droppedChars ?? (item.oldText?.length ?? 0) + item.newText.length;
  return [{ type: "diff", path: item.path, oldText: null, newText: "", droppedChars }];
}

/** At most `max` characters, never ending between the two halves of a surrogate pair. */
function keptStart(text: string, max: number): string {
  const end = max > 0 && isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** A copy that does not hold on to the string it was cut from (a slice of a large string keeps all of it alive). */
function copyOf(text: string): string {
  return Buffer.from(text, "utf16le").toString("utf16le");
}
