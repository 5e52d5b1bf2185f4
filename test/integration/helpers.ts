// What integration tests share.

/**
 * Polls `condition` until it returns something other than `undefined` or `false`, and returns that. For states the
 * editor reaches without an event a test can await; `what` names the state in the timeout error.
 */
export async function waitFor<T>(what: string, condition: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== false) return value;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
