// Claude Code's own session store, recorded: real `claude -p` runs against the mock model in a throwaway HOME, then
// every file Claude wrote under `$HOME/.claude/projects/` is copied into test/fixtures/claude-recorded/<version>/
// sessions/ with a listing of where it was. What the files showed: that folder's README.
// Usage: `tsc -p scripts/recording && node out/scripts/recording/record-claude-sessions.js [version]`.
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureInstalled } from "./agent-cli-cache";
import { anthropicStream, type AnthropicBlock } from "./anthropic-replies";
import { claudeCli, claudeSessionTitleRequest } from "./claude-cli";
import { CliRun } from "./cli-run";
import { MockModelServer } from "./mock-model-server";

const DEFAULT_VERSION = "2.1.330";
const RUN_TIMEOUT_MS = 120_000;
const PROFILE_ARGS = ["-p", "--verbose", "--output-format", "stream-json", "--include-partial-messages", "--input-format", "stream-json"];

const text = (...chunks: string[]): AnthropicBlock => ({ type: "text", chunks });
const answer = (...chunks: string[]) => anthropicStream({ blocks: [text(...chunks)], stopReason: "end_turn" });
const userMessage = (words: string) => ({ type: "user", message: { role: "user", content: [{ type: "text", text: words }] } });

interface Places {
  home: string;
  port: number;
  executable: string;
}

async function main(): Promise<void> {
  const version = process.argv[2] ?? DEFAULT_VERSION;
  const executable = ensureInstalled(claudeCli, version);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "claude-sessions-"));
  const home = path.join(root, "home");
  fs.mkdirSync(home);
  // A folder name with a dot, an underscore and a space, and one past Claude's folder-name length.
  const workspace = path.join(root, "my.project_dir v2");
  const longWorkspace = path.join(root, "a-very-long-folder-name-".repeat(10).slice(0, 230));
  for (const folder of [workspace, longWorkspace]) fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(workspace, "notes.txt"), "The meeting is at 10:30.\n");
  const server = await MockModelServer.start();
  const places: Places = { home, port: server.port, executable };
  const sides = [claudeSessionTitleRequest(answer('{"title": "Mock session title"}'))];
  try {
    // 1. As the `claude` profile runs it: a named session, a tool call, then a follow-up with --resume.
    const sessionId = randomUUID();
    server.script(
      [
        anthropicStream({
          blocks: [text("Let me read ", "the notes."), { type: "tool_use", id: "toolu_mock_read_01", name: "Read", input: { file_path: path.join(workspace, "notes.txt") } }],
          stopReason: "tool_use",
        }),
        anthropicStream({
          blocks: [{ type: "tool_use", id: "toolu_mock_bash_02", name: "Bash", input: { command: "echo hi", description: "Print hi" } }],
          stopReason: "tool_use",
        }),
        answer("The meeting is at **10:30**, ", "and the shell said hi."),
      ],
      answer("(unscripted)"),
      sides,
    );
    await run(places, workspace, [...PROFILE_ARGS, "--allowedTools", "Read,Bash(echo hi)", "--session-id", sessionId], userMessage("When is the meeting? Then run echo hi."));
    server.script([answer("You asked ", "when the meeting is.")], answer("(unscripted)"), sides);
    await run(places, workspace, [...PROFILE_ARGS, "--resume", sessionId], userMessage("What did I ask first?"));
    // 2. As a user types it: plain -p, text output, with thinking.
    server.script(
      [
        anthropicStream({
          blocks: [{ type: "thinking", chunks: ["The user wants ", "a haiku."], signature: "bW9jay1zaWduYXR1cmU=" }, text("Autumn moonlight—\n", "a worm digs silently\ninto the chestnut.")],
          stopReason: "end_turn",
        }),
      ],
      answer("(unscripted)"),
      sides,
    );
    await run(places, workspace, ["-p", "--", "Write a haiku\nabout autumn."], undefined, { MAX_THINKING_TOKENS: "2048" });
    // 3. A workspace path longer than Claude's folder names.
    server.script([answer("Hello from a long path.")], answer("(unscripted)"), sides);
    await run(places, longWorkspace, ["-p", "--", "Say hello."]);
  } finally {
    await server.stop();
  }
  const target = path.join("test", "fixtures", "claude-recorded", version, "sessions");
  copyStore(path.join(home, ".claude", "projects"), target, { [workspace]: "<workspace>", [longWorkspace]: "<long workspace>", [root]: "<root>" });
  console.log(`workspace: ${workspace}\nlong workspace: ${longWorkspace}\nhome: ${home}\ncopied into ${target}`);
}

async function run(places: Places, cwd: string, args: string[], input?: unknown, env: Record<string, string> = {}): Promise<void> {
  const cliRun = new CliRun({
    command: places.executable,
    args,
    cwd,
    env: { ...claudeCli.env({ home: places.home, port: places.port, workspace: cwd }), ...env },
    stdin: input === undefined ? "ignore" : "pipe",
    timeoutMs: RUN_TIMEOUT_MS,
  });
  if (input !== undefined) {
    cliRun.writeLine(input);
    await cliRun.waitForLine((line) => typeof line === "object" && line !== null && (line as { type?: unknown }).type === "result");
    cliRun.endInput();
  }
  const exit = await cliRun.exited;
  console.log(`claude ${args.join(" ")} → exit ${exit.exitCode}${exit.timedOut ? " (timed out)" : ""}`);
  if (exit.exitCode !== 0) console.log(cliRun.stderrTailText);
}

/** The store as Claude left it: each file copied, and a listing of the folders it made for each workspace path. */
function copyStore(projects: string, target: string, names: Record<string, string>): void {
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  const listing: string[] = [];
  for (const folder of fs.readdirSync(projects).sort()) {
    listing.push(`${folder}/ (${folder.length} characters)`);
    fs.mkdirSync(path.join(target, folder));
    for (const file of fs.readdirSync(path.join(projects, folder)).sort()) {
      const from = path.join(projects, folder, file);
      const stats = fs.statSync(from);
      listing.push(`  ${file}${stats.isDirectory() ? "/ (a folder)" : ` (${stats.size} bytes)`}`);
      if (stats.isFile()) fs.copyFileSync(from, path.join(target, folder, file));
    }
  }
  const paths = Object.entries(names).map(([real, name]) => `${name} = ${real}`);
  fs.writeFileSync(path.join(target, "store-listing.txt"), `${paths.join("\n")}\n\n${listing.join("\n")}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
