// Streams the answer as text deltas of a few words at a readable pace; an interruption stops it at once and
// leaves no timer behind.
import { setTimeout as sleep } from "node:timers/promises";
import type { ProtocolEmitter } from "./emitter";

export const DEFAULT_DELAY_MS = 15;
const WORDS_PER_DELTA = 3;

/** Pieces of a few words each that join back into exactly `text`. */
export function splitIntoDeltas(text: string, wordsPerDelta = WORDS_PER_DELTA): string[] {
  // A word with the blanks before it, tried from where a run of blanks starts: trailing blanks are not tried from each.
  const words = text.match(/(?<!\s)\s*\S+/g) ?? [];
  const deltas: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerDelta) deltas.push(words.slice(i, i + wordsPerDelta).join(""));
  const trailing = text.slice(deltas.join("").length);
  if (trailing !== "") {
    if (deltas.length === 0) deltas.push(trailing);
    else deltas[deltas.length - 1] += trailing;
  }
  return deltas;
}

export async function streamText(emitter: ProtocolEmitter, text: string, delayMs: number, signal: AbortSignal): Promise<void> {
  const deltas = splitIntoDeltas(text);
  for (const [i, delta] of deltas.entries()) {
    if (signal.aborted) return;
    await emitter.text(delta);
    if (delayMs > 0 && i < deltas.length - 1) {
      try {
        await sleep(delayMs, undefined, { signal });
      } catch (error) {
        if (signal.aborted) return; // The timer is already cleared.
        throw error;
      }
    }
  }
}
