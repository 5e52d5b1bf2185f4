// Reads the `code` ("ENOENT", "ESRCH", …) of a Node system error without trusting its type.

export function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}
