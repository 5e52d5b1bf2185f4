// Markdown that may still be growing. Finished segments are rendered once into their own element and never
// touched again while the text grows; only the open tail is rendered again, at most once per frame, so the cost
// of a delta does not grow with the length of the answer.
import { element } from "./element";
import { referencesOf, renderMarkdown, type MarkdownEnvironment } from "./markdown";
import { MarkdownSegmenter } from "./markdown-segments";

const SEGMENTS_PER_CHUNK = 32;

/** A line that may define a link reference ("[1]: https://…"); only a hint that `settle` has work to do. */
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;

interface Segment {
  element: HTMLElement;
  source: string;
}

export class MarkdownView {
  readonly element: HTMLElement;
  private readonly tailElement: HTMLElement;
  private chunk: HTMLElement | undefined;
  private readonly segmenter = new MarkdownSegmenter();
  private readonly segments: Segment[] = [];
  /** Shared by the finished segments, in order: a link reference defined above resolves below at once. */
  private readonly environment: MarkdownEnvironment = {};
  private pending: string[] = [];
  private definesReferences = false;
  private settled = false;

  constructor(className: string, text = "") {
    this.tailElement = element("div", { className: "markdown-segment markdown-tail" });
    this.element = element("div", { className: `markdown ${className}` }, this.tailElement);
    this.append(text);
  }

  /** Cheap: text is only gathered here; `paint` renders it. */
  append(text: string): void {
    if (text.length > 0) this.pending.push(text);
  }

  paint(): void {
    if (this.pending.length === 0) return;
    const finished = this.segmenter.push(this.pending.join(""));
    this.pending = [];
    for (const source of finished) {
      if (source.trim() === "") continue;
      this.definesReferences ||= REFERENCE_DEFINITION.test(source);
      const rendered = element("div", { className: "markdown-segment" }, renderMarkdown(source, this.environment));
      this.chunkFor(this.segments.length).append(rendered);
      this.segments.push({ element: rendered, source });
    }
    // The tail renders against a copy: its own (possibly half-written) definitions must not stick.
    this.renderTail(copyEnvironment(this.environment));
  }

  /**
   * The text is complete. Answers often define their link references at the end ("[1]: https://…"); only now can
   * the links above them resolve, so a text that defines any is rendered once more, whole. Done once, never per delta.
   */
  settle(): void {
    this.paint();
    if (this.settled) return;
    this.settled = true;
    if (!this.definesReferences && !REFERENCE_DEFINITION.test(this.segmenter.tail)) return;
    const references = referencesOf(this.segments.map((segment) => segment.source).join("") + this.segmenter.tail);
    for (const segment of this.segments) segment.element.replaceChildren(renderMarkdown(segment.source, references));
    this.renderTail(references);
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
    const tail = this.segmenter.tail;
    if (tail.trim() === "") this.tailElement.replaceChildren();
    else this.tailElement.replaceChildren(renderMarkdown(tail, environment));
  }
}

function copyEnvironment(environment: MarkdownEnvironment): MarkdownEnvironment {
  const references = environment["references"];
  return typeof references === "object" && references !== null ? { references: { ...references } } : {};
}
