#!/usr/bin/env node
// A Locus-dialect CLI whose model tries to drive the reader's terminal: every text it controls (answer, thinking,
// tool names, parameters and errors, status, error messages, event type, a malformed line, stderr) carries
// terminal escape sequences, C1 controls and bidi overrides. `hostile-locus.js` takes no arguments.
"use strict";

// C1 CSI (red), a right-to-left override, a line separator, OSC 52 (write the clipboard), an OSC 8 hyperlink,
// clear screen, set the window title, an SGR colour, a carriage return that overwrites the line. (C1 and bidi
// first: a problem message quotes only the start of a malformed line.)
const HOSTILE =
  "[\u009b31mred|\u202eevil\u202c|\u2028|\x1b]52;c;cm0gLXJmIH4=\x07|\x1b]8;;https://evil.example/\x07link\x1b]8;;\x07|\x1b[2J|\x1b]0;pwned\x07|\x1b[1;31mbold red|\rforged]";

const sessionId = "hostile";
let timestamp = 0;
const emit = (type, payload) => process.stdout.write(JSON.stringify({ protocol: 1, type, sessionId, timestamp: ++timestamp, payload }) + "\n");

emit("start", { command: "exec" });
emit("status", { status: `streaming ${HOSTILE}`, message: `status message ${HOSTILE}` });
emit("thinking", { content: `thinking ${HOSTILE}` });
emit("tool_started", { tool: `Read${HOSTILE}`, toolId: "t1", parameters: { file_path: `file ${HOSTILE}` } });
emit("tool_completed", { tool: `Read${HOSTILE}`, toolId: "t1", success: false, duration: 5, error: `tool error ${HOSTILE}` });
emit("text_delta", { content: `answer ${HOSTILE}\n` });
emit("error", { error: { code: "UNKNOWN", message: `error message ${HOSTILE}`, recoverable: true } });
process.stdout.write(`not json ${HOSTILE}\n`);
emit(`type ${HOSTILE}`, {});
process.stdout.write(JSON.stringify({ protocol: 1, type: "text_delta", sessionId, timestamp: ++timestamp, payload: { [`key ${HOSTILE}`]: 1 } }) + "\n");
process.stderr.write(`stderr ${HOSTILE}\nsecond stderr line\n`);
emit("done", { exitCode: 0, duration: 10, toolsUsed: [`Read${HOSTILE}`], success: true });
