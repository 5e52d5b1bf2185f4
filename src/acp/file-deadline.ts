// Every file request an agent makes ends by a deadline: a file on a hung network mount, or an editor that never
// answers, must not hold the agent's request open. What was running is abandoned: told through its signal to stop at
// its next step, and left to end by itself (a call the system is still in cannot be taken back).
import { formatDuration } from "../common/duration";

/**
 * A minute: a save in the editor may first wait for format-on-save and other save participants, while a read of the
 * most one read returns takes well under a second.
 */
export const DEFAULT_FILE_DEADLINE_MS = 60_000;

/** `run`'s result, or a rejection that says `what` took too long once `deadlineMs` has passed (`run`'s signal aborts then). */
export async function withinDeadline<T>(what: string, deadlineMs: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const abandon = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abandon.abort();
      reject(new Error(`${what} took longer than ${formatDuration(deadlineMs)} and was abandoned`));
    }, deadlineMs);
    // The deadline alone never keeps a process (agent-stream ask) alive.
    timer.unref();
  });
  try {
    return await Promise.race([run(abandon.signal), expired]);
  } finally {
    clearTimeout(timer);
  }
}
