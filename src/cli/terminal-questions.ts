// `agent-stream ask --approve ask`: each permission request asked on the terminal and answered by the number of one of
// the agent's options. Questions go to stderr (stdout may be NDJSON), one at a time in the order they came: the agent
// may have several open at once, and each gets its own question and its own answer. End of input (Ctrl-D) answers
// every question, open or still to come, `cancelled`.
import * as readline from "node:readline";
import type { DecidePermission, PermissionChoice } from "../permissions/permission-desk";
import type { PermissionRequest } from "../permissions/permission-request";
import { escapeForLog } from "../protocol/visible-text";

export class TerminalQuestions {
  private readonly lines: TerminalLines;
  /** Settles once the question asked last has its answer: the next one waits for it. */
  private previous: Promise<unknown> = Promise.resolve();

  constructor(
    input: NodeJS.ReadableStream,
    private readonly err: { write(text: string): unknown },
    /** What is known of the request's tool call (command, path, diff lines), raw: shown escaped. */
    private readonly detailsOf: (toolCallId: string) => string[],
  ) {
    this.lines = new TerminalLines(input);
  }

  /** A `DecidePermission`: resolves with the option whose number was typed, or `cancelled`. */
  readonly decide: DecidePermission = (request, signal) => {
    const answer = this.previous.then(() => this.ask(request, signal));
    this.previous = answer.catch(() => {});
    return answer;
  };

  /** Reading the terminal holds the process open: once the run is over, so is the reading. */
  close(): void {
    this.lines.close();
  }

  private async ask(request: PermissionRequest, signal: AbortSignal): Promise<PermissionChoice> {
    // Answered otherwise (Stop) while it waited for its turn: nothing to ask.
    if (signal.aborted) return "cancelled";
    this.err.write(questionText(request, this.detailsOf(request.toolCallId)));
    for (;;) {
      const line = await this.lines.next(signal);
      // Ctrl-D (now or at an earlier question), or the request answered otherwise (Stop): never an allow.
      if (line === undefined) return "cancelled";
      const option = request.options[Number(line.trim()) - 1];
      if (option !== undefined && line.trim() !== "") return { optionId: option.id };
      this.err.write(`Type a number from 1 to ${request.options.length}: `);
    }
  }
}

/**
 * The question, a line for each thing: the tool and title, the files outside the workspace, what the call will do,
 * then the options numbered. Each of the agent's texts is escaped to one line, so none can pass for an option.
 */
export function questionText(request: PermissionRequest, details: readonly string[]): string {
  const lines = [`? The agent asks to ${request.toolKind}: ${request.title}`];
  if (request.outsideWorkspace.length > 0) lines.push(`  ⚠ outside the workspace: ${request.outsideWorkspace.join(", ")}`);
  lines.push(...details.map((detail) => `  ${detail}`));
  request.options.forEach((option, i) => lines.push(`  ${i + 1}) ${option.name} (${option.kind})`));
  return lines.map(escapeForLog).join("\n") + "\nChoice: ";
}

/**
 * The terminal's lines for the whole run, one reader for every question (a reader per question lost what was typed
 * between them and, once stdin had ended, waited for ever). One question reads at a time; after end of input every
 * question reads nothing.
 */
class TerminalLines {
  private reader: readline.Interface | undefined;
  private ended = false;
  private waiting: ((line: string | undefined) => void) | undefined;

  constructor(private readonly input: NodeJS.ReadableStream) {}

  /** The next line typed, or undefined at end of input or when `signal` aborts. */
  next(signal: AbortSignal): Promise<string | undefined> {
    if (this.waiting !== undefined) throw new Error("TerminalLines.next: another question is reading the terminal");
    if (this.ended || signal.aborted) return Promise.resolve(undefined);
    const reader = this.open();
    reader.resume();
    return new Promise((resolve) => {
      const settle = (line: string | undefined) => {
        this.waiting = undefined;
        signal.removeEventListener("abort", onAbort);
        // Between questions nothing reads the terminal: what is typed then waits in it for the next question.
        if (!this.ended) reader.pause();
        resolve(line);
      };
      const onAbort = () => settle(undefined);
      signal.addEventListener("abort", onAbort);
      this.waiting = settle;
    });
  }

  close(): void {
    this.ended = true;
    this.reader?.close();
  }

  private open(): readline.Interface {
    if (this.reader !== undefined) return this.reader;
    const reader = readline.createInterface({ input: this.input, terminal: false });
    reader.on("line", (line) => this.waiting?.(line));
    reader.on("close", () => {
      this.ended = true;
      this.waiting?.(undefined);
    });
    this.reader = reader;
    return reader;
  }
}
