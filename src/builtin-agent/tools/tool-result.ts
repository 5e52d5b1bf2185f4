// What a tool hands back: its value, or a sentence saying why it could not do its job.
export type ToolResult<T> = { ok: true; value: T } | { ok: false; error: string };

export function succeeded<T>(value: T): ToolResult<T> {
  return { ok: true, value };
}

export function failed<T>(error: string): ToolResult<T> {
  return { ok: false, error };
}
