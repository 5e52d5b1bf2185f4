// What listing Claude Code's own sessions costs (the Sessions view asks on every refresh): a store of 300 session files
// of about 1 MB each in the workspace's folder, made of the recorded 2.1.330 session's lines repeated. Against a baseline
// in the same run: reading every file whole, line by line, as a list that counted each file's prompts would have to.
// Prints wall time and bytes read. A benchmark, not a test. Run: npx tsc -p . && node out/bench/claude-sessions.bench.js
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { claudeProjectFolderName } from "../src/sessions/claude-project-folder";
import { listClaudeSessions, readClaudeSession } from "../src/sessions/claude-code-sessions";

const SESSIONS = 300;
const FILE_BYTES = 1024 * 1024;
const RECORDED = path.join(__dirname, "..", "..", "test", "fixtures", "claude-recorded", "2.1.330", "sessions");
const RECORDED_FOLDER = "-tmp-claude-sessions-5S0NcQ-my-project-dir-v2";
const RECORDED_FILE = "e49e866e-c60a-460a-9428-ae270cfd5dee.jsonl";
const WORKSPACE = "/tmp/claude-sessions-5S0NcQ/my.project_dir v2";

function makeStore(home: string): string[] {
  const folder = path.join(home, ".claude", "projects", claudeProjectFolderName(WORKSPACE));
  fs.mkdirSync(folder, { recursive: true });
  const recorded = fs.readFileSync(path.join(RECORDED, RECORDED_FOLDER, RECORDED_FILE));
  const copies = Math.ceil(FILE_BYTES / recorded.length);
  const body = Buffer.concat(Array.from({ length: copies }, () => recorded));
  const ids: string[] = [];
  for (let n = 0; n < SESSIONS; n++) {
    const id = `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
    fs.writeFileSync(path.join(folder, `${id}.jsonl`), body);
    ids.push(id);
  }
  return ids;
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = process.hrtime.bigint();
  const value = await run();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, value };
}

async function main(): Promise<void> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "claude-sessions-bench-"));
  try {
    const ids = makeStore(home);
    const total = SESSIONS * fs.statSync(path.join(home, ".claude", "projects", claudeProjectFolderName(WORKSPACE), `${ids[0]}.jsonl`)).size;
    await listClaudeSessions(WORKSPACE, home); // warm the page cache for both
    const listing = await timed(() => listClaudeSessions(WORKSPACE, home));
    const whole = await timed(async () => {
      let turns = 0;
      for (const id of ids) turns += (await readClaudeSession(WORKSPACE, home, id))?.turns.length ?? 0;
      return turns;
    });
    console.log(`${SESSIONS} sessions of ${(total / SESSIONS / 1024 / 1024).toFixed(1)} MB (${(total / 1024 / 1024).toFixed(0)} MB in all)`);
    console.log(`listed (head and tail of each, ${(SESSIONS * 128) / 1024} MB read): ${listing.ms.toFixed(0)} ms, ${listing.value.length} sessions`);
    console.log(`baseline, every file read whole: ${whole.ms.toFixed(0)} ms, ${whole.value} turns`);
    console.log(`ratio: listing takes ${(listing.ms / whole.ms).toFixed(3)} of reading whole`);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

void main();
