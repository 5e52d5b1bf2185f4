// Stands in for the extension host in tests of process cleanup: a separate Node process that runs one CLI through
// LiveSession, as EditorHost.startRun does, and keeps running until it is killed.
//   node out/test/helpers/live-session-host.js <command> [args...]
import * as os from "node:os";
import { createAdapter } from "../../src/dialects/registry";
import { LiveSession } from "../../src/session/live-session";

const [command, ...args] = process.argv.slice(2);
if (command === undefined) throw new Error("usage: live-session-host.js <command> [args...]");
LiveSession.start({
  adapter: createAdapter("auto"),
  process: { command, args, cwd: os.tmpdir(), env: process.env, inactivityTimeoutMs: 0 },
});
