// A command line that cannot be run as written: printed with the usage, exit code 2.
export class UsageError extends Error {}
