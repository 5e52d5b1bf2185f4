// A command's output sent as Zed's terminal convention: pieces in `_meta.terminal_output_delta` ({data, terminal_id})
// on its tool call's updates, whose content names the terminal (`{type: "terminal", terminalId}`). codex-acp 2.6 sends
// its commands' output only so, even to a client that offers no terminals. Kept per terminal, bounded (the end of a
// long output, which is where a failing command says why), and shown as the terminal's output on the card.
import * as z from "zod/mini";
import type { AcpToolContent } from "./acp-events";

/** Characters of one terminal's output kept: the last ones, after a line that counts the rest. */
export const TERMINAL_OUTPUT_CHARS = 64 * 1024;
/** Terminals whose output is kept at once; the oldest is let go beyond this (its card keeps what it showed). */
export const KEPT_TERMINALS = 64;

const DeltaSchema = z.object({ terminal_output_delta: z.object({ data: z.string(), terminal_id: z.string() }) });

export interface TerminalDelta {
  terminalId: string;
  data: string;
}

/** The output piece an update's `_meta` carries, if it carries a readable one. */
export function terminalDeltaOf(meta: unknown): TerminalDelta | undefined {
  const result = DeltaSchema.safeParse(meta);
  return result.success ? { terminalId: result.data.terminal_output_delta.terminal_id, data: result.data.terminal_output_delta.data } : undefined;
}

interface Output {
  text: string;
  dropped: number;
}

export class TerminalOutputs {
  private readonly outputs = new Map<string, Output>();

  append({ terminalId, data }: TerminalDelta): void {
    const known = this.outputs.get(terminalId) ?? { text: "", dropped: 0 };
    const text = known.text + data;
    // Cut to the limit only once it is passed twice over: a long output in small pieces is not copied whole each time.
    const cut = text.length > 2 * TERMINAL_OUTPUT_CHARS ? text.length - TERMINAL_OUTPUT_CHARS : 0;
    this.outputs.delete(terminalId);
    this.outputs.set(terminalId, { text: text.slice(cut), dropped: known.dropped + cut });
    if (this.outputs.size > KEPT_TERMINALS) this.outputs.delete(this.outputs.keys().next().value as string);
  }

  /** The call's content with each terminal's output so far; `terminalId`'s terminal is added when the content lacks it. */
  show(content: readonly AcpToolContent[], terminalId?: string): AcpToolContent[] {
    const shown = content.map((item) => (item.type === "terminal" && this.outputs.has(item.terminalId) ? { ...item, output: this.outputOf(item.terminalId) } : item));
    const named = shown.some((item) => item.type === "terminal" && item.terminalId === terminalId);
    if (terminalId === undefined || named || !this.outputs.has(terminalId)) return shown;
    return [...shown, { type: "terminal", terminalId, output: this.outputOf(terminalId) }];
  }

  /** The command ended: its card has all of its output. */
  forget(content: readonly AcpToolContent[]): void {
    for (const item of content) if (item.type === "terminal") this.outputs.delete(item.terminalId);
  }

  private outputOf(terminalId: string): string {
    const output = this.outputs.get(terminalId) as Output;
    const over = Math.max(0, output.text.length - TERMINAL_OUTPUT_CHARS);
    const dropped = output.dropped + over;
    const kept = output.text.slice(over);
    return dropped === 0 ? kept : `[${dropped.toLocaleString("en-US")} earlier characters not kept]\n${kept}`;
  }
}
