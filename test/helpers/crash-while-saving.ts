// Run as its own process by the session store's tests: opens the store in a folder and saves the session in a JSON
// file, but dies (SIGKILL, as a crash or a killed extension host would) at the given rename: 1 is the session's file
// taking its name, 2 the index's. What the folder holds afterwards is what a crash at that moment leaves.
// Usage: node crash-while-saving.js <storage folder> <session.json> <rename to die at>
import * as fs from "node:fs";
import { summaryOf } from "../../src/sessions/session-summary";
import { SessionStore } from "../../src/sessions/session-store";

async function main(): Promise<void> {
  const [folder, sessionFile, dieAt] = process.argv.slice(2);
  let renames = 0;
  const rename = fs.promises.rename;
  fs.promises.rename = async (from, to) => {
    if (++renames === Number(dieAt)) process.kill(process.pid, "SIGKILL");
    return rename(from, to);
  };
  const store = await SessionStore.open(folder!, { maxBytes: Infinity, log: { warn: (message) => process.stderr.write(`${message}\n`) } });
  renames = 0;
  const session = JSON.parse(fs.readFileSync(sessionFile!, "utf8"));
  await store.save(session, summaryOf(session, "completed"));
  await store.flush();
}

void main();
