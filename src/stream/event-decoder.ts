// One line's JSON value → the dialect adapter → canonical events, or problems that name the line.
import type { CliStreamEvent } from "../protocol/events";
import type { Problem } from "../protocol/transcript";
import type { AdapterOutput, DialectAdapter, StreamEnding } from "../dialects/dialect";
import { readJsonLine } from "./json-line-reader";

/** Where decoded events and problems go, in line order. */
export interface DecodedLineSink {
  /** `line` is null for what an adapter added at the end of the stream. */
  event(event: CliStreamEvent, line: number | null): void;
  problem(problem: Problem): void;
}

export class EventDecoder {
  private sink: DecodedLineSink | undefined;
  private line: number | null = 0;
  /** One output object for the decoder's life: the adapter's events go to the current line's sink. */
  private readonly output: AdapterOutput = {
    event: (event) => this.sink!.event(event, this.line),
    problem: (code, message) => this.sink!.problem({ line: this.line, code, message }),
  };

  constructor(private readonly adapter: DialectAdapter) {}

  get dialect(): string {
    return this.adapter.dialect;
  }

  /** A line as the reader reads it (json-line-reader.ts), then decoded. */
  decodeLine(text: string, line: number, sink: DecodedLineSink): void {
    const read = readJsonLine(text, line);
    if ("problem" in read) sink.problem(read.problem);
    else this.decodeValue(read.value, line, sink);
  }

  /** A value the line reader let through. */
  decodeValue(value: unknown, line: number, sink: DecodedLineSink): void {
    this.sink = sink;
    this.line = line;
    this.adapter.decode(value, this.output);
  }

  /** After the last line: the adapter may add what the end of the stream means (its events have no line). */
  end(sink: DecodedLineSink, ending: StreamEnding | null): void {
    if (this.adapter.end === undefined) return;
    this.sink = sink;
    this.line = null;
    this.adapter.end(this.output, ending);
  }
}
