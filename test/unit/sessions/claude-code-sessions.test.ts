import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SessionSummarySchema } from "../../../src/protocol/sessions";
import type { ToolCard } from "../../../src/protocol/transcript";
import { listClaudeSessions, readClaudeSession } from "../../../src/sessions/claude-code-sessions";
import { claudeProjectFolderName } from "../../../src/sessions/claude-project-folder";
import { repoRoot } from "../../helpers/repo";

const RECORDED = path.join(repoRoot, "test", "fixtures", "claude-recorded", "2.1.330", "sessions");
/** The paths the recorded runs were made in, as the recording's listing names them. */
const RECORDED_PATHS = Object.fromEntries(
  fs
    .readFileSync(path.join(RECORDED, "store-listing.txt"), "utf8")
    .split("\n")
    .flatMap((line) => {
      const match = /^<([a-z ]+)> = (.+)$/.exec(line);
      return match ? [[match[1]!, match[2]!]] : [];
    }),
);
const WORKSPACE = RECORDED_PATHS.workspace!;
const LONG_WORKSPACE = RECORDED_PATHS["long workspace"]!;
const TOOL_SESSION = "e49e866e-c60a-460a-9428-ae270cfd5dee";
/** Written by the Claude Code SDK 2.1.83 inside claude-agent-acp 0.23.1: its /model command's lines come first. */
const SDK_RECORDED = path.join(repoRoot, "test", "fixtures", "claude-recorded", "2.1.83", "sessions");
const SDK_WORKSPACE = "/tmp/agent-stream-sessions-claude-acp-zOPyWz/workspace";
const SDK_SESSION = "0a12ee09-e9c2-45f2-92dd-0b5d60675574";
const HAIKU_SESSION = "428492a8-a782-4556-a47d-50f3abf51844";

/** A throwaway home whose Claude store holds the recorded session files. */
function homeWithRecordedStore(): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "claude-store-"));
  const projects = path.join(home, ".claude", "projects");
  fs.mkdirSync(projects, { recursive: true });
  for (const recorded of [RECORDED, SDK_RECORDED]) {
    for (const entry of fs.readdirSync(recorded, { withFileTypes: true })) {
      if (entry.isDirectory()) fs.cpSync(path.join(recorded, entry.name), path.join(projects, entry.name), { recursive: true });
    }
  }
  return home;
}

function projectFolder(home: string, cwd: string): string {
  return path.join(home, ".claude", "projects", claudeProjectFolderName(cwd));
}

/** A session file of the store's shape: a prompt run in `cwd`, and the lines given after it. */
function writeSession(folder: string, id: string, cwd: string, prompt: string, more: unknown[] = []): string {
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${id}.jsonl`);
  const lines = [
    { type: "user", message: { role: "user", content: prompt }, cwd, sessionId: id, isSidechain: false, timestamp: "2026-11-20T10:00:00.000Z", turnPosition: { promptIndex: 0, turnIndex: 1 } },
    ...more,
  ];
  fs.writeFileSync(file, lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n") + "\n");
  return file;
}

function answerLine(text: string, timestamp = "2026-11-20T10:00:01.000Z"): unknown {
  return { type: "assistant", message: { role: "assistant", model: "claude-mock", content: [{ type: "text", text }] }, isSidechain: false, timestamp };
}

/** Every file under `folder` with its bytes' hash and its times: what "unchanged" means. */
function fingerprint(folder: string): string[] {
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .map((entry) => {
      const full = path.join(entry.parentPath, entry.name);
      const stats = fs.lstatSync(full);
      const bytes = stats.isFile() ? createHash("sha256").update(fs.readFileSync(full)).digest("hex") : "";
      return `${path.relative(folder, full)} ${stats.mode} ${stats.size} ${stats.mtimeMs} ${bytes}`;
    })
    .sort();
}

describe("Claude Code's own sessions of a workspace folder", () => {
  let home: string;
  const skipped: string[] = [];
  const onSkipped = (file: string, why: string) => skipped.push(`${path.basename(file)}: ${why}`);

  beforeEach(() => {
    home = homeWithRecordedStore();
    skipped.length = 0;
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  describe("listing", () => {
    it("lists the folder's recorded sessions newest first, by Claude's own session id, titled by the first line of the first prompt", async () => {
      const sessions = await listClaudeSessions(WORKSPACE, home);
      assert.deepEqual(
        sessions.map((s) => [s.id, s.title, s.turnCount, s.source, s.agent.displayName]),
        [
          [HAIKU_SESSION, "Write a haiku", 1, "claude-code", "Claude Code"],
          [TOOL_SESSION, "When is the meeting? Then run echo hi.", 2, "claude-code", "Claude Code"],
        ],
      );
      assert.ok(sessions.every((s) => s.createdAt <= s.updatedAt && s.updatedAt > Date.parse("2026-01-01")));
      assert.ok(sessions.every((s) => SessionSummarySchema.safeParse(s).success), "each row fits the Sessions view's schema");
    });

    it("lists a file it does not read whole from its head and tail: the title from the first prompt, the turns from the last prompt's number", async () => {
      // The resumed prompt's line starts 4.3 KB before the end of the file, its first prompt 0.4 KB after the start.
      const [session] = (await listClaudeSessions(WORKSPACE, home, { limits: { headBytes: 4096, tailBytes: 8192 } })).filter((s) => s.id === TOOL_SESSION);
      assert.equal(session?.turnCount, 2);
      assert.equal(session?.title, "When is the meeting? Then run echo hi.");
    });

    it("lists only this folder's sessions: the long path's own session under its hashed folder name", async () => {
      const sessions = await listClaudeSessions(LONG_WORKSPACE, home);
      assert.deepEqual(
        sessions.map((s) => s.title),
        ["Say hello."],
      );
      assert.deepEqual(await listClaudeSessions(path.join(WORKSPACE, "sub"), home), []);
    });

    it("lists nothing, and fails nothing, where Claude Code was never run", async () => {
      const empty = fs.mkdtempSync(path.join(os.tmpdir(), "no-claude-"));
      try {
        assert.deepEqual(await listClaudeSessions(WORKSPACE, empty), []);
      } finally {
        fs.rmSync(empty, { recursive: true });
      }
    });

    it("finds the sessions of a workspace opened through a symlink, which Claude recorded under the real path", async () => {
      const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "claude-link-")));
      try {
        const real = path.join(root, "real");
        fs.mkdirSync(real);
        fs.symlinkSync(real, path.join(root, "link"));
        writeSession(projectFolder(home, real), "11111111-2222-4333-8444-555555555555", real, "Through a link");
        assert.deepEqual(
          (await listClaudeSessions(path.join(root, "link"), home)).map((s) => s.title),
          ["Through a link"],
        );
      } finally {
        fs.rmSync(root, { recursive: true });
      }
    });

    it("skips a session run in another folder whose store name is the same (/x/a.b and /x/a-b)", async () => {
      writeSession(projectFolder(home, "/x/a-b"), "11111111-2222-4333-8444-555555555555", "/x/a.b", "Not this folder's");
      assert.deepEqual(await listClaudeSessions("/x/a-b", home, { onSkipped }), []);
      assert.match(skipped.join("\n"), /run in another folder \(\/x\/a\.b\)/);
    });

    it("skips a session file that is a FIFO at once instead of waiting for a writer", async function () {
      if (process.platform === "win32") this.skip();
      execFileSync("mkfifo", [path.join(projectFolder(home, WORKSPACE), "99999999-2222-4333-8444-555555555555.jsonl")]);
      const sessions = await listClaudeSessions(WORKSPACE, home, { onSkipped });
      assert.equal(sessions.length, 2);
      assert.match(skipped.join("\n"), /99999999-2222-4333-8444-555555555555\.jsonl: it is not a regular file/);
      assert.equal(await readClaudeSession(WORKSPACE, home, "99999999-2222-4333-8444-555555555555", { onSkipped }), undefined);
      assert.match(skipped.join("\n"), /it is a FIFO, not a file/);
    });

    it("skips a symlinked project folder and a symlinked session file: Claude Code makes neither", async () => {
      const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "elsewhere-"));
      try {
        const target = writeSession(elsewhere, "11111111-2222-4333-8444-555555555555", "/y/linked", "Linked away");
        fs.symlinkSync(elsewhere, projectFolder(home, "/y/linked"));
        assert.deepEqual(await listClaudeSessions("/y/linked", home, { onSkipped }), []);
        assert.equal(await readClaudeSession("/y/linked", home, "11111111-2222-4333-8444-555555555555", { onSkipped }), undefined);
        fs.symlinkSync(target, path.join(projectFolder(home, WORKSPACE), "11111111-2222-4333-8444-555555555555.jsonl"));
        assert.equal((await listClaudeSessions(WORKSPACE, home, { onSkipped })).length, 2);
        assert.equal(await readClaudeSession(WORKSPACE, home, "11111111-2222-4333-8444-555555555555", { onSkipped }), undefined);
        assert.match(skipped.join("\n"), /symbolic link, which Claude Code never makes there/);
        assert.match(skipped.join("\n"), /555555555555\.jsonl: it is a symbolic link/);
      } finally {
        fs.rmSync(elsewhere, { recursive: true });
      }
    });

    it("lists no more session files than its limit, the most recently changed", async () => {
      const folder = projectFolder(home, "/z/many");
      for (let n = 0; n < 5; n++) {
        const file = writeSession(folder, `00000000-0000-4000-8000-00000000000${n}`, "/z/many", `Prompt ${n}`);
        fs.utimesSync(file, 1_700_000_000 + n, 1_700_000_000 + n);
      }
      const sessions = await listClaudeSessions("/z/many", home, { limits: { sessionFiles: 2 } });
      assert.deepEqual(
        sessions.map((s) => s.title).sort(),
        ["Prompt 3", "Prompt 4"],
      );
    });

    it("titles a session written through claude-agent-acp by the user's prompt, not by the /model command logged before it", async () => {
      const sessions = await listClaudeSessions(SDK_WORKSPACE, home);
      assert.deepEqual(
        sessions.map((s) => [s.id, s.title, s.turnCount]),
        [[SDK_SESSION, "Say hi, and remember the word kumquat.", 1]],
      );
    });

    it("titles a session by the first line of its prompt, one line, cut with an ellipsis", async () => {
      writeSession(projectFolder(home, "/t/titles"), "11111111-2222-4333-8444-555555555555", "/t/titles", `\n\n  Fix   the\tbuild ${"x".repeat(300)}\nsecond line`);
      const [session] = await listClaudeSessions("/t/titles", home);
      assert.equal(session?.title.length, 120);
      assert.match(session?.title ?? "", /^Fix the build x+…$/);
    });
  });

  describe("reading", () => {
    it("reads a session as turns: each prompt a turn, Claude's text and its tool calls with their results", async () => {
      const history = await readClaudeSession(WORKSPACE, home, TOOL_SESSION);
      assert.ok(history);
      assert.equal(history.claudeSessionId, TOOL_SESSION);
      assert.equal(history.complete, true);
      assert.deepEqual(
        history.turns.map((turn) => [turn.prompt, turn.status, turn.agent]),
        [
          ["When is the meeting? Then run echo hi.", "completed", "Claude Code"],
          ["What did I ask first?", "completed", "Claude Code"],
        ],
      );
      const [first, second] = history.turns;
      assert.deepEqual(
        first!.blocks.map((block) => block.kind),
        ["text", "tool", "tool", "text"],
      );
      const [read, bash] = first!.blocks.filter((block): block is ToolCard => block.kind === "tool");
      assert.deepEqual([read!.tool, read!.status, read!.output], ["Read", "succeeded", "1\tThe meeting is at 10:30.\n2\t"]);
      assert.deepEqual([bash!.tool, bash!.parameters, bash!.output], ["Bash", { command: "echo hi", description: "Print hi" }, "hi"]);
      assert.deepEqual(first!.blocks.at(-1), { kind: "text", text: "The meeting is at **10:30**, and the shell said hi." });
      assert.deepEqual(second!.blocks, [{ kind: "text", text: "You asked when the meeting is." }]);
      assert.deepEqual(first!.problems, []);
    });

    it("reads a plain -p session's thinking and answer", async () => {
      const history = await readClaudeSession(WORKSPACE, home, HAIKU_SESSION);
      assert.deepEqual(
        history?.turns.map((turn) => [turn.prompt, turn.blocks.map((block) => block.kind)]),
        [["Write a haiku\nabout autumn.", ["thinking", "text"]]],
      );
    });

    it("reads the local command lines Claude logs (/model and its output) as no turn of their own", async () => {
      const history = await readClaudeSession(SDK_WORKSPACE, home, SDK_SESSION);
      assert.deepEqual(
        history?.turns.map((turn) => [turn.prompt, turn.blocks]),
        [["Say hi, and remember the word kumquat.", [{ kind: "text", text: "Hi! I will keep that word in mind." }]]],
      );
    });

    it("finds nothing for an id that is not a session of this folder, or not a UUID at all", async () => {
      assert.equal(await readClaudeSession(LONG_WORKSPACE, home, TOOL_SESSION), undefined);
      assert.equal(await readClaudeSession(WORKSPACE, home, "11111111-2222-4333-8444-555555555555"), undefined);
      assert.equal(await readClaudeSession(WORKSPACE, home, `../${claudeProjectFolderName(WORKSPACE)}/${TOOL_SESSION}`), undefined);
    });

    it("skips a line too long, one nested too deep and one not JSON, saying so in their turn, and keeps the rest", async () => {
      const folder = projectFolder(home, "/h/hostile");
      writeSession(folder, "11111111-2222-4333-8444-555555555555", "/h/hostile", "Go", [
        answerLine("before"),
        `{"type":"assistant","message":{"content":[{"type":"text","text":"${"y".repeat(10_000)}"}]}}`,
        `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
        "not json {",
        answerLine(" after"),
      ]);
      const history = await readClaudeSession("/h/hostile", home, "11111111-2222-4333-8444-555555555555", { limits: { lineBytes: 4096 } });
      const [turn] = history?.turns ?? [];
      assert.deepEqual(
        turn?.blocks.filter((block) => block.kind === "text"),
        [{ kind: "text", text: "before after" }],
      );
      assert.deepEqual(
        turn?.problems.map((problem) => [problem.line, problem.code]),
        [
          [3, "MALFORMED_EVENT"],
          [4, "MALFORMED_EVENT"],
          [5, "MALFORMED_EVENT"],
        ],
      );
    });

    it("leaves out subagents' (sidechain) and meta lines, and shows a failed model call as an error", async () => {
      writeSession(projectFolder(home, "/s/side"), "11111111-2222-4333-8444-555555555555", "/s/side", "Go", [
        { type: "user", message: { role: "user", content: "a subagent's prompt" }, isSidechain: true },
        { ...(answerLine("a subagent's answer") as object), isSidechain: true },
        { type: "user", message: { role: "user", content: "Caveat: for the model only" }, isMeta: true },
        { type: "assistant", message: { model: "<synthetic>", content: [{ type: "text", text: "API Error: 500 Internal server error" }] } },
      ]);
      const history = await readClaudeSession("/s/side", home, "11111111-2222-4333-8444-555555555555");
      assert.equal(history?.turns.length, 1);
      const [turn] = history!.turns;
      assert.equal(turn!.status, "failed");
      assert.deepEqual(
        turn!.blocks.map((block) => (block.kind === "error" ? block.message : block.kind)),
        ["API Error: 500 Internal server error"],
      );
    });

    it("keeps the first part of a history longer than its limits and says it is not complete", async () => {
      const history = await readClaudeSession(WORKSPACE, home, TOOL_SESSION, { historyLimits: { turns: 1, chars: 1_000_000, blocks: 1_000 } });
      assert.deepEqual(
        history?.turns.map((turn) => turn.prompt),
        ["When is the meeting? Then run echo hi."],
      );
      assert.equal(history?.complete, false);
    });
  });

  it("writes, moves and deletes nothing in Claude's store: every file is byte for byte and time for time as it was", async () => {
    const store = path.join(home, ".claude");
    const before = fingerprint(store);
    await listClaudeSessions(WORKSPACE, home);
    await listClaudeSessions(LONG_WORKSPACE, home);
    await readClaudeSession(WORKSPACE, home, TOOL_SESSION);
    await readClaudeSession(WORKSPACE, home, HAIKU_SESSION);
    assert.deepEqual(fingerprint(store), before);
    assert.equal(before.filter((entry) => entry.includes(".jsonl")).length, 4);
  });
});
