// The protocol version on its own, so code that only writes events (the built-in agent) does not bundle zod.
export const PROTOCOL_VERSION = 1;
