// Markdown that may still be growing. Finished segments are rendered once into their own element and never
// touched again while the text grows; only the open tail is rendered again, at most once per frame, so the cost
// of a delta does not grow with the length of the answer. A fenced code block still open in the tail is rendered
// once; after that its new lines are only added to its <code>, so a long file streams at a flat cost per frame.
// Text the view is created with (a reopened session) is rendered in slices, from its end back to its start: the end
// is what the chat shows first, and half a megabyte of markdown is no single task.
import { element } from "./element";
import { referencesOf, renderMarkdown, type MarkdownEnvironment } from "./markdown";
import { codeText, MarkdownSegmenter, type OpenFence } from "./markdown-segments";
import { OpenCodeBlock } from "./open-code-block";
import { slicedWork } from "./sliced-work";
import { truncationNote } from "../common/transcript-markdown";

const SEGMENTS_PER_CHUNK = 32;

/** A line that may define a link reference ("[1]: https://…"); only a hint that `settle` has work to do. */
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;

interface Segment {
  element: HTMLElement;
  source: string;
  /** The link references defined before this segment: what it renders with, whenever its turn in the slices comes. */
  environment: MarkdownEnvironment;
  rendered: boolean;
}

/** The tail's open fence, shown up to `shownUpTo` (an offset in the tail). */
interface StreamingCode {
  codeStart: number;
  shownUpTo: number;
  block: OpenCodeBlock;
}

export class MarkdownView {
  readonly element: HTMLElement;
  private readonly tailElement: HTMLElement;
  private chunk: HTMLElement | undefined;
  private readonly segmenter = new MarkdownSegmenter();
  private readonly segments: Segment[] = [];
  /** Shared by the finished segments, in order: a link reference defined above resolves below at once. */
  private readonly environment: MarkdownEnvironment = {};
  /** A copy of `environment` that segments share until a segment defines a reference (each renders with a copy). */
  private referencesSoFar: MarkdownEnvironment | null = null;
  private pending: string[] = [];
  private definesReferences = false;
  private settled = false;
  private streamingCode: StreamingCode | null = null;
  private cutNote: HTMLElement | undefined;
  /** The first paint renders the text the view was created with: in a job of its own, then a job per segment. */
  private sliceNextPaint: boolean;
  /** The first paint waits for its job: text that arrives meanwhile is gathered, and painted with it. */
  private firstPaintQueued = false;

  constructor(className: string, text = "") {
    this.tailElement = element("div", { className: "markdown-segment markdown-tail" });
    this.element = element("div", { className: `markdown ${className}` }, this.tailElement);
    this.append(text);
    this.sliceNextPaint = text.length > 0;
  }

  /** Cheap: text is only gathered here; `paint` renders it. */
  append(text: string): void {
    if (text.length > 0) this.pending.push(text);
  }

  paint(): void {
    if (this.firstPaintQueued || this.pending.length === 0) return;
    if (this.sliceNextPaint) {
      // Even splitting half a megabyte into segments is work enough to wait for its turn. Ahead of the work queued
      // before it: blocks are placed in order, so the last block's text is painted first.
      this.firstPaintQueued = true;
      slicedWork.addFirst(() => {
        this.firstPaintQueued = false;
        this.paintPending();
      });
      return;
    }
    this.paintPending();
  }

  private paintPending(): void {
    const finished = this.segmenter.push(this.pending.join(""));
    this.pending = [];
    // A cut moves the tail's offsets; it never falls inside an open fence, so any fence open now is a new one.
    if (finished.length > 0) this.streamingCode = null;
    const added: Segment[] = [];
    for (const source of finished) {
      if (source.trim() === "") continue;
      added.push(this.placeSegment(source));
    }
    if (this.sliceNextPaint) {
      // A job per segment, ahead of the rest: from the end (what the chat shows first) back to the start.
      for (const segment of added) slicedWork.addFirst(() => this.renderSegment(segment));
    } else {
      for (const segment of added) this.renderSegment(segment);
    }
    this.sliceNextPaint = false;
    const fence = this.settled ? null : this.segmenter.openFence;
    if (fence !== null && this.streamingCode?.codeStart === fence.codeStart) {
      this.streamMoreCode(this.streamingCode, fence);
      return;
    }
    // The tail renders against a copy: its own (possibly half-written) definitions must not stick.
    this.renderTail(copyEnvironment(this.environment));
    if (fence !== null) this.streamingCode = this.streamCodeFrom(fence);
  }

  /** The session kept only the start of this text: says at its end how much more there was (0: none). */
  showCut(droppedChars: number): void {
    if (droppedChars <= 0) {
      this.cutNote?.remove();
      this.cutNote = undefined;
      return;
    }
    this.cutNote ??= this.element.appendChild(element("div", { className: "truncated-note" }));
    this.cutNote.textContent = truncationNote(droppedChars);
  }

  /**
   * The text is complete. Answers often define their link references at the end ("[1]: https://…"); only now can
   * the links above them resolve, so a text that defines any is rendered once more, in slices. Done once, never per
   * delta.
   * A fence left open at the end gets the renderer's own DOM in place of its streamed lines.
   */
  settle(): void {
    if (this.firstPaintQueued) {
      slicedWork.add(() => this.settle());
      return;
    }
    this.paint();
    if (this.settled) return;
    this.settled = true;
    if (!this.definesReferences && !REFERENCE_DEFINITION.test(this.segmenter.tail)) {
      if (this.streamingCode !== null) this.renderTail(copyEnvironment(this.environment));
      return;
    }
    // The segments' references are known already (placeSegment); only the tail's are new. Rendered again after
    // the segments' first renders, which may still be queued (jobs run in the order added), the end first.
    const references = copyEnvironment(this.environment);
    addMissing(references, referencesOf(this.segmenter.tail));
    this.renderTail(references);
    for (const segment of [...this.segments].reverse()) {
      const rendered = segment.rendered;
      segment.environment = references;
      // A segment whose first render is still queued renders with these references then.
      if (!rendered) continue;
      slicedWork.add(() => {
        segment.rendered = false;
        this.renderSegment(segment);
      });
    }
  }

  /**
   * An empty element in the segment's place, at once, so that segments rendered in any order land in order; and
   * the references it defines, which every later segment renders with (markdown-it keeps the first definition).
   */
  private placeSegment(source: string): Segment {
    this.referencesSoFar ??= copyEnvironment(this.environment);
    const segment: Segment = { element: element("div", { className: "markdown-segment" }), source, environment: this.referencesSoFar, rendered: false };
    this.chunkFor(this.segments.length).append(segment.element);
    this.segments.push(segment);
    if (REFERENCE_DEFINITION.test(source)) {
      this.definesReferences = true;
      addMissing(this.environment, referencesOf(source));
      this.referencesSoFar = null;
    }
    return segment;
  }

  private renderSegment(segment: Segment): void {
    if (segment.rendered) return;
    segment.rendered = true;
    // markdown-it adds the definitions it finds to the environment it is given: a copy, so none leaks elsewhere.
    segment.element.replaceChildren(renderMarkdown(segment.source, copyEnvironment(segment.environment)));
  }

  /**
   * Finished segments live in chunks of SEGMENTS_PER_CHUNK with `contain: layout`: otherwise Chromium revisits
   * every earlier segment each time the tail repaints, and a frame's cost grows with the answer
   * (bench/webview.bench.ts: 5.3 → 15.7 ms per frame over a 500 KB answer; 4.6 → 5.4 ms with chunks).
   */
  private chunkFor(segmentIndex: number): HTMLElement {
    if (this.chunk === undefined || segmentIndex % SEGMENTS_PER_CHUNK === 0) {
      this.chunk = element("div", { className: "markdown-chunk" });
      this.tailElement.before(this.chunk);
    }
    return this.chunk;
  }

  private renderTail(environment: MarkdownEnvironment): void {
    this.streamingCode = null;
    const tail = this.segmenter.tail;
    if (tail.trim() === "") this.tailElement.replaceChildren();
    else this.tailElement.replaceChildren(renderMarkdown(tail, environment));
  }

  /**
   * The tail was just rendered and ends in `fence`: its last block is that fence, holding the code so far
   * (markdown-segments.test.ts checks this against markdown-it), which from now on grows by its new lines.
   */
  private streamCodeFrom(fence: OpenFence): StreamingCode | null {
    const block = this.tailElement.lastElementChild;
    const code = block?.classList.contains("code-block") ? block.querySelector(":scope > pre > code") : null;
    if (code === null || code === undefined) return null;
    const wholeLines = codeText(this.segmenter.tail.slice(fence.codeStart, fence.wholeLinesEnd));
    return { codeStart: fence.codeStart, shownUpTo: fence.wholeLinesEnd, block: new OpenCodeBlock(code, wholeLines, fence.unfinishedLine) };
  }

  private streamMoreCode(code: StreamingCode, fence: OpenFence): void {
    if (fence.wholeLinesEnd > code.shownUpTo) {
      code.block.appendLines(codeText(this.segmenter.tail.slice(code.shownUpTo, fence.wholeLinesEnd)));
      code.shownUpTo = fence.wholeLinesEnd;
    }
    code.block.showUnfinishedLine(fence.unfinishedLine);
  }
}

function copyEnvironment(environment: MarkdownEnvironment): MarkdownEnvironment {
  const references = environment["references"];
  return typeof references === "object" && references !== null ? { references: { ...references } } : {};
}

/** Adds the references `from` defines that `to` does not have yet: the first definition of a label wins. */
function addMissing(to: MarkdownEnvironment, from: MarkdownEnvironment): void {
  const added = from["references"];
  if (typeof added !== "object" || added === null) return;
  const existing = to["references"];
  const references = (typeof existing === "object" && existing !== null ? existing : (to["references"] = {})) as Record<string, unknown>;
  for (const [label, reference] of Object.entries(added)) if (!Object.hasOwn(references, label)) references[label] = reference;
}
