// The process watchdog: a small separate process that ends one CLI's process tree when the process that started the
// CLI dies without saying it is done (kill -9 of `agent-stream`, a crashed extension host), which no signal handler
// of that process can do. Bundled on its own as dist/process-watchdog.js and started by startWatchdog.
//   process-watchdog.js <process group id> <run cookie>
// Its stdin is a pipe from its parent: the line "done" means the tree is ended (exit quietly); end of file without
// it means the parent died (end the tree, then exit).
// Nothing may import this file: in a bundle `require.main === module` holds for every module of the entry.
import { processGroupTree } from "./process-tree";
import { SignalEscalation } from "./signal-escalation";
import { WATCHDOG_DONE } from "./watchdog";

/** The parent is gone, so nobody waits for a graceful stop: a short chance to save state, then SIGKILL. */
const TERM_GRACE_MS = 1000;
const KILL_GRACE_MS = 2000;

function watch(groupId: number, cookie: string): void {
  let heard = "";
  let ending = false;
  const endTree = (): void => {
    if (ending) return;
    ending = true;
    const escalation = new SignalEscalation(
      processGroupTree(groupId, cookie),
      [
        { signal: "SIGTERM", graceMs: TERM_GRACE_MS },
        { signal: "SIGKILL", graceMs: KILL_GRACE_MS },
      ],
      () => process.exit(0),
    );
    escalation.start();
  };
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (text: string) => {
    heard += text;
    if (heard.includes(WATCHDOG_DONE)) process.exit(0);
  });
  process.stdin.on("end", endTree);
  process.stdin.on("error", endTree);
}

if (require.main === module) {
  const [group, cookie] = process.argv.slice(2);
  const groupId = Number(group);
  // Signals meant for a terminal's foreground job are not for the watchdog; only its parent's word or death counts.
  process.on("SIGINT", () => {});
  process.on("SIGHUP", () => {});
  if (Number.isInteger(groupId) && groupId > 1 && cookie !== undefined && cookie !== "") watch(groupId, cookie);
  else process.exitCode = 2;
}
