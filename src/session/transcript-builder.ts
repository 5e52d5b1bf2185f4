// The ordered transcript: coalesces deltas into blocks, pairs tool calls into cards,
// and tells listeners exactly what changed so a view can repaint only that.
import { createHash } from "node:crypto";
import type { ProtocolError } from "../protocol/events";
import type { TranscriptChange } from "../protocol/messages";
import type {
  PermissionBlock,
  PermissionOption,
  PlanBlock,
  PlanEntry,
  StatusBlock,
  TextBlock,
  ThinkingBlock,
  ToolCard,
  ToolDiff,
  ToolLocation,
  TranscriptBlock,
} from "../protocol/transcript";

/**
 * What a session keeps, so that no answer, however long, can exhaust memory or a JavaScript string (512 MiB).
 * Beyond a limit, characters are counted and dropped: the block's `truncatedChars` says how many.
 * The README's "Limits and guarantees" states these numbers.
 */
export const TRANSCRIPT_LIMITS = {
  /** Characters one text or thinking block keeps. */
  blockChars: 4 * 1024 * 1024,
  /** Characters of a tool call's parameters (as JSON) a card keeps; larger parameters are dropped whole. */
  parameterChars: 256 * 1024,
  /** Characters all text, thinking and tool parameters of one session keep together. */
  sessionChars: 16 * 1024 * 1024,
  /**
   * Blocks one session keeps, the last of them a note that counts the rest. Each block costs memory beyond its
   * characters, so a stream of millions of tiny blocks is bounded too.
   */
  blocks: 2_000,
  /**
   * Permission requests kept past `blocks`: a request always gets its block, since the agent waits until the user sees
   * it; once this many are kept there, one already answered gives its place to the next.
   */
  permissionsPastBlocks: 100,
  /** Characters of one status or error message, tool name or tool error (within the session's allowance). */
  fieldChars: 64 * 1024,
} as const;

/** What a tool card says beyond protocol 1's started/completed, until an agent that says more fills it in. */
function noToolDetails(): Pick<ToolCard, "toolKind" | "title" | "output" | "diffs" | "locations"> {
  return { toolKind: null, title: null, output: null, diffs: [], locations: [] };
}

export type TranscriptLimits = { readonly [K in keyof typeof TRANSCRIPT_LIMITS]: number };

/** `add`'s answer for a block the full transcript did not keep. */
const OMITTED = -1;
/** While blocks are being omitted, views hear the count again after this many more. */
const OMITTED_REPORT_STEP = 1000;
/** A status, message, tool name or error this short is kept whole without counting against the session's allowance. */
const FREE_FIELD_CHARS = 256;
/** Distinct tool names a session lists in its `done` (a CLI could make up a new one per call). */
const MAX_TOOL_NAMES = 1000;

function omittedMessage(omitted: number, limit: number): string {
  return `This transcript keeps ${limit.toLocaleString("en-US")} blocks; ${omitted.toLocaleString("en-US")} more ${omitted === 1 ? "was" : "were"} not kept.`;
}

/** While a block's text is being dropped, views hear the count again after this many more characters. */
const CUT_REPORT_STEP = 1024 * 1024;

export interface TranscriptBuilderOptions {
  /**
   * False: keep no blocks at all (`agent-stream run`, which streams what it gets and needs only the done). Changes
   * still describe every block and every delta, so a printer can follow; the snapshot stays empty.
   */
  keepBlocks?: boolean;
  /**
   * True: whoever listens holds the transcript, built from the changes (the panel's turn), so it is not held here a
   * second time: the limits hold as if it were, and the snapshot stays empty.
   */
  heldByListener?: boolean;
  limits?: Partial<TranscriptLimits>;
}

/** A card the transcript follows: while its call runs, and after it ended this turn (an agent may still update it). */
interface FollowedTool {
  readonly index: number;
  readonly card: ToolCard;
  readonly startedAt: number | null;
  /** Fingerprints of what the agent last said of these fields: saying it again changes and costs nothing. */
  readonly said: { output?: string; diffs?: string; error?: string };
  /** Characters of the card's output and diffs counted against the session's allowance: replaced when they change. */
  readonly counted: { output: number; diffs: number };
}

export interface ToolCompletion {
  tool: string;
  toolId: string | null;
  success: boolean;
  durationMs: number | null;
  error: string | null;
  /** The completing event's timestamp: used for a duration when the CLI gives none. */
  timestamp: number | null;
  output?: string;
  diffs?: ToolDiff[];
}

/** What an agent that says more about a tool call tells; absent fields leave the card as it was. */
export interface ToolDetails {
  toolKind?: string;
  title?: string;
  output?: string;
  diffs?: ToolDiff[];
  locations?: ToolLocation[];
}

/** A tool call changed: its details, and a final status when it ended. */
export interface ToolUpdate extends ToolDetails {
  toolId: string;
  tool?: string;
  status?: "pending" | "in_progress" | "completed" | "failed";
  timestamp: number | null;
}

export interface PermissionAnswer {
  decision: "allowed" | "rejected" | "cancelled";
  optionId: string | null;
  /** Undefined: not known (a replayed ACP log). */
  by: "user" | "setting" | "remembered" | "cancelled" | undefined;
}

export class TranscriptBuilder {
  private readonly blocks: TranscriptBlock[] = [];
  private blockCount = 0;
  /** Characters kept by all blocks so far, against `limits.sessionChars`. */
  private keptChars = 0;
  private readonly running: FollowedTool[] = [];
  /** This turn's cards by tool id, running or ended: an update or a completion goes to its call's card, never a new one. */
  private readonly toolsById = new Map<string, FollowedTool>();
  private readonly toolNames = new Set<string>();
  private readonly growing: GrowingText;
  /** Blocks not kept because the transcript was full, and the note that says how many (permission requests may follow it). */
  private omittedBlocks = 0;
  private reportedOmitted = 0;
  private omittedNote: { index: number; block: StatusBlock } | null = null;
  /** The kind of text whose deltas go to a block that was not kept. */
  private omittedText: "text" | "thinking" | null = null;
  /** Open permission blocks by request id, so an answer updates its request in place. */
  private readonly permissions = new Map<string, { index: number; block: PermissionBlock }>();
  /** Permission blocks kept past the block limit, oldest first. */
  private readonly permissionsPastLimit: { index: number; block: PermissionBlock }[] = [];
  /** This turn's plan block: each plan replaces it in place; the next turn starts its own. */
  private plan: { index: number; block: PlanBlock } | undefined;
  private readonly keepBlocks: boolean;
  /** Whether the blocks are held here (not when nobody keeps them, nor when the listener does). */
  private readonly holdsBlocks: boolean;
  private readonly limits: TranscriptLimits;

  constructor(
    private readonly listener?: (change: TranscriptChange) => void,
    options: TranscriptBuilderOptions = {},
  ) {
    this.keepBlocks = options.keepBlocks ?? true;
    this.holdsBlocks = this.keepBlocks && options.heldByListener !== true;
    this.growing = new GrowingText(this.holdsBlocks);
    this.limits = { ...TRANSCRIPT_LIMITS, ...options.limits };
  }

  get snapshot(): readonly TranscriptBlock[] {
    this.growing.settle();
    return this.blocks;
  }

  /** Distinct tool names in order of first use. */
  get toolsUsed(): string[] {
    return [...this.toolNames];
  }

  get runningTools(): readonly { tool: string; toolId: string | null }[] {
    return this.running.map((r) => r.card);
  }

  appendText(kind: "text" | "thinking", text: string): void {
    if (text.length === 0) return;
    const index = this.blockCount - 1;
    if (this.growing.continues(kind, index)) {
      this.growText(index, text);
      return;
    }
    // Deltas that keep growing a block the transcript had no room for are that one block, not new ones.
    if (this.omittedText === kind) return;
    const kept = this.keepBlocks ? keepable(text, this.textRoom(0)) : text;
    const block: TextBlock | ThinkingBlock = { kind, text: kept };
    const dropped = text.length - kept.length;
    if (dropped > 0) block.truncatedChars = dropped;
    if (this.add(block) === OMITTED) {
      this.omittedText = kind;
      return;
    }
    this.keptChars += kept.length;
    this.growing.follow(block, index + 1, kept.length, dropped);
  }

  /** A call started: its card, the one later news of its id goes to (a CLI may reuse an id for another call). */
  startTool(tool: string, toolId: string | null, parameters: Record<string, unknown> | null, timestamp: number | null, details?: ToolDetails): void {
    const name = this.keepField(tool);
    this.noteTool(name);
    const card: ToolCard = { kind: "tool", tool: name, toolId, parameters, status: "running", durationMs: null, error: null, ...noToolDetails() };
    if (this.keepBlocks) this.keepParameters(card);
    this.addTool(card, timestamp, details);
  }

  /**
   * Completes the matching card, or updates it when it had ended already. Returns false when the call was never
   * announced: a card is made anyway.
   */
  completeTool(completion: ToolCompletion): boolean {
    const followed = this.findTool(completion.tool, completion.toolId);
    const status = completion.success ? "succeeded" : "failed";
    if (followed === undefined) {
      // Past the block limit, a call may have started unfollowed: not the CLI's fault, so not reported as one.
      if (this.omittedBlocks > 0) return true;
      const name = this.keepField(completion.tool);
      this.noteTool(name);
      const error = completion.error === null ? null : this.keepField(completion.error);
      const card: ToolCard = { kind: "tool", tool: name, toolId: completion.toolId, parameters: null, status, durationMs: completion.durationMs, error, ...noToolDetails() };
      this.addTool(card, completion.timestamp, completion);
      return false;
    }
    this.end(followed, status, completion, this.applyDetails(followed, completion));
    return true;
  }

  /**
   * A call changed (ACP `tool_call_update`). A final status completes it; an update of a call that ended updates its
   * card. Returns false when no card was made for it: one is made from what the update says (an agent may update a
   * call it never announced).
   */
  updateTool(update: ToolUpdate): boolean {
    const followed = this.findTool(update.tool ?? "", update.toolId);
    const final = update.status === "completed" || update.status === "failed";
    if (followed === undefined) {
      const tool = update.tool ?? update.toolKind ?? "tool";
      this.startTool(tool, update.toolId, null, update.timestamp, update);
      if (final) this.completeTool({ tool, toolId: update.toolId, success: update.status === "completed", durationMs: null, error: null, timestamp: update.timestamp });
      return false;
    }
    const changed = this.applyDetails(followed, update);
    if (final) this.end(followed, update.status === "completed" ? "succeeded" : "failed", { durationMs: null, error: null, timestamp: update.timestamp }, changed);
    else if (changed) this.tellUpdated(followed);
    return true;
  }

  /** An agent asks before it acts: a block that waits for its answer, whatever the block limit. */
  addPermission(requestId: string, toolId: string | null, title: string, options: PermissionOption[], outsideWorkspace: string[] = []): void {
    const block: PermissionBlock = { kind: "permission", requestId, toolId, title, options, decision: null, optionId: null, answeredBy: null, outsideWorkspace };
    const index = this.keepBlocks && this.blockCount >= this.limits.blocks - 1 ? this.addPastTheLimit(block) : this.add(block);
    this.permissions.set(requestId, { index, block });
  }

  /** The answer, in place; false when no request of that id was seen. */
  answerPermission(requestId: string, answer: PermissionAnswer): boolean {
    const asked = this.permissions.get(requestId);
    if (asked === undefined) return false;
    this.permissions.delete(requestId);
    asked.block.decision = answer.decision;
    asked.block.optionId = answer.optionId;
    asked.block.answeredBy = answer.by === "cancelled" ? null : (answer.by ?? null);
    this.listener?.({ kind: "block-updated", index: asked.index, block: { ...asked.block } });
    return true;
  }

  /** The whole plan: the turn's plan block is replaced in place, or added on the turn's first plan. */
  setPlan(entries: PlanEntry[]): void {
    if (this.plan === undefined) {
      const block: PlanBlock = { kind: "plan", entries };
      this.plan = { index: this.add(block), block };
      return;
    }
    this.plan.block.entries = entries;
    this.listener?.({ kind: "block-updated", index: this.plan.index, block: { ...this.plan.block } });
  }

  /** The session is over: tools still running never completed, and a cut block gets its final count. */
  finish(): void {
    this.plan = undefined;
    this.toolsById.clear();
    for (const running of this.running.splice(0)) {
      running.card.status = "abandoned";
      this.tellUpdated(running);
    }
    this.reportCut();
    this.reportOmitted();
    // A next turn's text starts a block of its own, kept or not.
    this.growing.detach();
    this.omittedText = null;
  }

  addStatus(status: string, message: string | null): void {
    this.add({ kind: "status", status: this.keepField(status), message: message === null ? null : this.keepField(message) });
  }

  /** A message the user sent into the running turn: kept whatever the limits, as the prompt is. */
  addSteer(text: string): void {
    this.add({ kind: "steer", text }, { pastTheLimit: true });
  }

  addError(error: ProtocolError): void {
    const cause = error.cause === undefined ? {} : { cause: error.cause };
    this.add({ kind: "error", code: error.code, message: this.keepField(error.message), recoverable: error.recoverable, ...cause });
  }

  /**
   * The block's index, or OMITTED when the transcript is full (a note then counts what it did not keep). `pastTheLimit`:
   * kept however full the transcript is.
   */
  private add(block: TranscriptBlock, { pastTheLimit = false } = {}): number {
    this.reportCut();
    this.growing.settle();
    if (this.keepBlocks && !pastTheLimit && this.blockCount >= this.limits.blocks - 1) return this.omit();
    this.omittedText = null;
    const index = this.blockCount++;
    if (this.holdsBlocks) this.blocks.push(block);
    // Listeners get a copy: the stored block keeps growing, what they were told must not.
    this.listener?.({ kind: "block-added", index, block: { ...block } });
    return index;
  }

  private growText(index: number, text: string): void {
    if (!this.keepBlocks) {
      this.listener?.({ kind: "text-appended", index, text });
      return;
    }
    const growing = this.growing;
    if (growing.droppedChars > 0) {
      growing.droppedChars += text.length;
      if (growing.droppedChars - growing.reportedDroppedChars >= CUT_REPORT_STEP) this.reportCut();
      return;
    }
    const kept = keepable(text, this.textRoom(growing.keptChars));
    if (kept.length > 0) {
      growing.append(kept);
      this.keptChars += kept.length;
      this.listener?.({ kind: "text-appended", index, text: kept });
    }
    if (kept.length === text.length) return;
    growing.droppedChars = text.length - kept.length;
    this.reportCut();
  }

  /** Tells listeners how much of the growing block was dropped, when that changed since they last heard. */
  private reportCut(): void {
    const growing = this.growing;
    if (growing.droppedChars === growing.reportedDroppedChars) return;
    growing.reportedDroppedChars = growing.droppedChars;
    this.listener?.({ kind: "text-truncated", index: growing.index, truncatedChars: growing.droppedChars });
  }

  /**
   * A permission request in a full transcript: the agent waits until the user sees it, so it is kept. Past
   * `permissionsPastBlocks` of them, one already answered gives its place (told as a block added there) and is counted
   * as not kept; the permission desk bounds how many can wait at once.
   */
  private addPastTheLimit(block: PermissionBlock): number {
    const kept = this.permissionsPastLimit;
    const answered = kept.length < this.limits.permissionsPastBlocks ? -1 : kept.findIndex((p) => p.block.decision !== null);
    if (answered === -1) {
      const index = this.add(block, { pastTheLimit: true });
      kept.push({ index, block });
      return index;
    }
    const [{ index }] = kept.splice(answered, 1);
    this.omit();
    if (this.holdsBlocks) this.blocks[index] = block;
    kept.push({ index, block });
    this.listener?.({ kind: "block-added", index, block: { ...block } });
    return index;
  }

  /** The transcript is full: the first omitted block adds the note that counts them, later ones update it now and then. */
  private omit(): number {
    this.omittedBlocks++;
    this.omittedText = null;
    if (this.omittedNote === null) {
      const block: StatusBlock = { kind: "status", status: "transcript full", message: omittedMessage(this.omittedBlocks, this.limits.blocks) };
      this.omittedNote = { index: this.blockCount++, block };
      if (this.holdsBlocks) this.blocks.push(block);
      this.listener?.({ kind: "block-added", index: this.omittedNote.index, block: { ...block } });
      this.reportedOmitted = this.omittedBlocks;
    } else if (this.omittedBlocks - this.reportedOmitted >= OMITTED_REPORT_STEP) {
      this.reportOmitted();
    }
    return OMITTED;
  }

  private reportOmitted(): void {
    const note = this.omittedNote;
    if (note === null || this.reportedOmitted === this.omittedBlocks) return;
    this.reportedOmitted = this.omittedBlocks;
    note.block.message = omittedMessage(this.omittedBlocks, this.limits.blocks);
    this.listener?.({ kind: "block-updated", index: note.index, block: { ...note.block } });
  }

  /** A status or error message, tool name or error: at most `fieldChars`, within the session's allowance. */
  private keepField(text: string): string {
    // Short fields cost nothing against the allowance: with the block limit, they are bounded anyway.
    if (!this.keepBlocks || text.length <= FREE_FIELD_CHARS) return text;
    const room = Math.max(0, Math.min(this.limits.fieldChars, this.limits.sessionChars - this.keptChars));
    const kept = keepable(text, room);
    this.keptChars += kept.length;
    const cut = text.length - kept.length;
    return cut === 0 ? text : `${kept}… (${cut.toLocaleString("en-US")} more ${cut === 1 ? "character" : "characters"} not kept)`;
  }

  /** Characters a text block holding `blockChars` may still take. */
  private textRoom(blockChars: number): number {
    return Math.max(0, Math.min(this.limits.blockChars - blockChars, this.limits.sessionChars - this.keptChars));
  }

  /** Parameters too large to keep are dropped whole: half an object would say something the CLI did not. */
  private keepParameters(card: ToolCard): void {
    if (card.parameters === null) return;
    const size = JSON.stringify(card.parameters).length;
    if (size <= Math.min(this.limits.parameterChars, this.limits.sessionChars - this.keptChars)) {
      this.keptChars += size;
      return;
    }
    card.parameters = null;
    card.truncatedChars = size;
  }

  /**
   * Adds a card and follows it: while it runs, and by its id this turn. A call the transcript had no room for is not
   * followed; nor are more calls than it keeps blocks.
   */
  private addTool(card: ToolCard, startedAt: number | null, details: ToolDetails | undefined): void {
    const unplaced: FollowedTool = { index: OMITTED, card, startedAt, said: {}, counted: { output: 0, diffs: 0 } };
    if (details !== undefined) this.applyDetails(unplaced, details);
    const index = this.add(card);
    if (index === OMITTED) return;
    const followed = { ...unplaced, index };
    if (card.status === "running" && this.running.length < this.limits.blocks) this.running.push(followed);
    if (card.toolId !== null && (this.toolsById.has(card.toolId) || this.toolsById.size < this.limits.blocks)) this.toolsById.set(card.toolId, followed);
    this.forgetDetails(followed);
  }

  /** A final status: a running card ends; one that had ended says what is new, if anything. */
  private end(followed: FollowedTool, status: "succeeded" | "failed", how: Pick<ToolCompletion, "durationMs" | "error" | "timestamp">, changed: boolean): void {
    const card = followed.card;
    const running = card.status === "running";
    const erred = this.applyError(followed, how.error);
    if (!running && !changed && !erred && card.status === status) return;
    if (running) {
      card.durationMs = how.durationMs ?? elapsed(followed.startedAt, how.timestamp);
      const at = this.running.indexOf(followed);
      if (at !== -1) this.running.splice(at, 1);
    }
    card.status = status;
    this.tellUpdated(followed);
  }

  private tellUpdated(followed: FollowedTool): void {
    this.listener?.({ kind: "block-updated", index: followed.index, block: { ...followed.card } });
    this.forgetDetails(followed);
  }

  /**
   * Keeping no blocks, a card that ended keeps none of its output, diffs and parameters: views were told them, and the
   * fingerprints tell a repeat.
   */
  private forgetDetails(followed: FollowedTool): void {
    if (this.keepBlocks || followed.card.status === "running") return;
    followed.card.output = null;
    followed.card.diffs = [];
    followed.card.parameters = null;
  }

  /** Present fields replace the card's; true when the card changed. Output and diffs count against the session's limits. */
  private applyDetails(followed: FollowedTool, details: ToolDetails): boolean {
    const card = followed.card;
    let changed = false;
    if (details.toolKind !== undefined && details.toolKind !== card.toolKind) {
      card.toolKind = details.toolKind;
      changed = true;
    }
    if (details.title !== undefined && details.title !== card.title) {
      card.title = details.title;
      changed = true;
    }
    if (details.locations !== undefined && !sameLocations(details.locations, card.locations)) {
      card.locations = details.locations;
      changed = true;
    }
    if (details.output !== undefined && saysNew(followed, "output", [details.output])) {
      card.output = this.keepOutput(followed, details.output);
      changed = true;
    }
    if (details.diffs !== undefined && saysNew(followed, "diffs", details.diffs.flatMap((d) => [d.path, d.oldText, d.newText]))) {
      card.diffs = this.keepDiffs(followed, details.diffs);
      changed = true;
    }
    return changed;
  }

  /** A completion's error, when it says one that is news; true when the card changed. */
  private applyError(followed: FollowedTool, error: string | null): boolean {
    if (error === null || !saysNew(followed, "error", [error])) return false;
    followed.card.error = this.keepField(error);
    return true;
  }

  /**
   * A tool's output is kept like a text block: up to the limits, then cut with a note of how much was dropped. It
   * replaces what the card showed, so only its growth counts against the session's allowance.
   */
  private keepOutput(followed: FollowedTool, output: string): string {
    if (!this.keepBlocks) return output;
    this.keptChars -= followed.counted.output;
    const kept = keepable(output, this.textRoom(0));
    followed.counted.output = kept.length;
    this.keptChars += kept.length;
    const dropped = output.length - kept.length;
    return dropped === 0 ? kept : `${kept}\n… ${dropped.toLocaleString("en-US")} more characters not kept`;
  }

  /**
   * Diffs too large to keep are dropped whole: half a file change would say something the agent did not. They replace
   * the card's, so only what is new counts against the session's allowance.
   */
  private keepDiffs(followed: FollowedTool, diffs: ToolDiff[]): ToolDiff[] {
    if (!this.keepBlocks) return diffs;
    this.keptChars -= followed.counted.diffs;
    followed.counted.diffs = 0;
    return diffs.filter((diff) => {
      const size = diff.path.length + (diff.oldText?.length ?? 0) + diff.newText.length;
      if (size > this.textRoom(0)) return false;
      this.keptChars += size;
      followed.counted.diffs += size;
      return true;
    });
  }

  private noteTool(tool: string): void {
    if (this.toolNames.size < MAX_TOOL_NAMES) this.toolNames.add(tool);
  }

  /**
   * By toolId when the event has one: the oldest running call of that id, else this turn's latest card of it that
   * ended. Without an id, the oldest running call of that name without one.
   */
  private findTool(tool: string, toolId: string | null): FollowedTool | undefined {
    if (toolId !== null) return this.running.find((r) => r.card.toolId === toolId) ?? this.toolsById.get(toolId);
    return this.running.find((r) => r.card.toolId === null && r.card.tool === tool);
  }
}

/**
 * Whether `parts` differ from what the agent last said of `field`, noting them if so. A fingerprint, not the text: a
 * card keeps only what fits, and an agent resends a call's whole output and diffs with each update.
 */
function saysNew(followed: FollowedTool, field: keyof FollowedTool["said"], parts: readonly (string | null)[]): boolean {
  const hash = createHash("sha1");
  // Each part's length first, so that no two different lists of parts run together into the same text.
  for (const part of parts) hash.update(part === null ? "-;" : `${part.length};`).update(part ?? "");
  const fingerprint = hash.digest("base64");
  if (followed.said[field] === fingerprint) return false;
  followed.said[field] = fingerprint;
  return true;
}

function sameLocations(a: readonly ToolLocation[], b: readonly ToolLocation[]): boolean {
  return a.length === b.length && a.every((place, i) => place.path === b[i]!.path && place.line === b[i]!.line);
}

function elapsed(from: number | null, to: number | null): number | null {
  if (from === null || to === null || to < from) return null;
  return to - from;
}

/** At most `room` characters of `text`, never ending between the two halves of a surrogate pair. */
function keepable(text: string, room: number): string {
  if (text.length <= room) return text;
  const last = text.charCodeAt(room - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? room - 1 : room);
}

const PIECES_PER_JOIN = 256;

/**
 * The text of the block that is still growing. A fast model sends many small deltas; `+=` would keep each
 * one alive as a rope node, which the garbage collector then copies again and again. Joining them in
 * batches lets the pieces die young and keeps a few flat strings instead.
 */
class GrowingText {
  private block: TextBlock | ThinkingBlock | undefined;
  index = -1;
  /** Characters of the block kept, and dropped past the limits (as last told to listeners). */
  keptChars = 0;
  droppedChars = 0;
  reportedDroppedChars = 0;
  private joined: string[] = [];
  private pieces: string[] = [];

  /** `holdsText` false: only counts what the block keeps (its listener holds the text). */
  constructor(private readonly holdsText: boolean) {}

  continues(kind: "text" | "thinking", index: number): boolean {
    return this.block !== undefined && this.block.kind === kind && this.index === index;
  }

  follow(block: TextBlock | ThinkingBlock, index: number, keptChars: number, droppedChars: number): void {
    this.block = block;
    this.index = index;
    this.keptChars = keptChars;
    this.droppedChars = droppedChars;
    this.reportedDroppedChars = droppedChars;
    this.joined = [block.text];
    this.pieces = [];
  }

  append(text: string): void {
    this.keptChars += text.length;
    if (!this.holdsText) return;
    this.pieces.push(text);
    if (this.pieces.length < PIECES_PER_JOIN) return;
    this.joined.push(this.pieces.join(""));
    this.pieces = [];
  }

  /** The block is whole: written out, and no later text continues it. */
  detach(): void {
    this.settle();
    this.block = undefined;
  }

  /** Writes the text gathered so far into the block, so readers see all of it. */
  settle(): void {
    if (this.block === undefined) return;
    if (this.droppedChars > 0) this.block.truncatedChars = this.droppedChars;
    if (this.pieces.length === 0 && this.joined.length === 1) return;
    this.block.text = this.joined.join("") + this.pieces.join("");
    this.joined = [this.block.text];
    this.pieces = [];
  }
}
