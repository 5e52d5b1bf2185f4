// The real CLIs' own streams (recorded by `npm run record-fixtures` against our mock model server), read with
// `--dialect auto` as `agent-stream transcript` reads them: the right dialect, text, tool cards, errors and status.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { createAdapter } from "../../../src/dialects/registry";
import type { ProtocolErrorCode } from "../../../src/protocol/events";
import type { Transcript } from "../../../src/protocol/transcript";
import { replayStream } from "../../../src/session/replay";
import { chunksOf } from "../../helpers/stream-builder";
import { repoRoot } from "../../helpers/repo";

interface Expected {
  status: Transcript["status"];
  error?: ProtocolErrorCode;
  /** Tool cards as "name:status", case-insensitive. */
  tools?: string[];
  /** At least this many characters of answer text. */
  minText?: number;
  /** Exactly these text blocks, in order. */
  texts?: string[];
  thinking?: boolean;
}

const EXPECTED: Record<string, Expected> = {
  "plain-answer": { status: "completed", minText: 200 },
  thinking: { status: "completed", thinking: true, minText: 10 },
  "tool-use": { status: "completed", tools: ["read:succeeded", "bash:succeeded"], minText: 50 },
  "tool-error": { status: "completed", tools: ["read:failed"] },
  // Its only tool call was refused: the turn did not do what it was asked.
  "tool-permission-denied": { status: "failed", tools: ["bash:failed"] },
  "permission-prompt": {
    status: "completed",
    tools: ["write:succeeded", "read:succeeded", "edit:failed", "bash:succeeded", "bash:succeeded", "bash:succeeded", "bash:failed", "read:succeeded"],
  },
  "permission-interrupt": { status: "failed", tools: ["bash:failed"] },
  "permission-plan": { status: "failed", tools: ["exitplanmode:failed"] },
  "auth-error": { status: "failed", error: "AUTH_EXPIRED" },
  "server-error-retry": { status: "completed", minText: 5 },
  "server-error-give-up": { status: "failed", error: "NETWORK_TIMEOUT" },
  overloaded: { status: "failed", error: "NETWORK_TIMEOUT" },
  "rate-limited": { status: "completed", minText: 5 },
  "long-answer": { status: "completed", minText: 8000 },
  // Cut short: whatever was said stays, and the session does not claim success.
  sigint: { status: "failed" },
  sigterm: { status: "failed" },
  interrupt: { status: "failed" },
  // Nothing on stdout at all (the CLI wrote its complaint to stderr and exited 1).
  "startup-error": { status: "failed" },
  // Stream-json input, two messages in one stream: both answers, each its own block, in one session.
  "two-messages": { status: "completed", texts: ["Nice to meet you, Ada!", "Your name is Ada."] },
  "two-messages-queued": { status: "completed", texts: ["Nice to meet you, Ada!", "Your name is Ada."] },
  // A second message written while the first one's turn runs: answered in the same run, after the first answer.
  "steer-mid-tool": { status: "completed", tools: ["read:succeeded"], texts: ["Let me read the notes first.", "The notes say the build is green; en français : le build est vert."] },
  "steer-mid-answer": { status: "completed", tools: [], texts: ["Let me read the notes first.", "The notes say the build is green; en français : le build est vert."] },
  // An edit and a new file (every CLI was recorded with one; Claude Code's also edits a notebook and reads an image).
  "tool-edit": { status: "completed", minText: 10 },
  // Claude's control protocol asked `initialize` (before the prompt, with it, mid-turn): the turn is as without it.
  initialize: { status: "completed", texts: ["Hi there!"] },
  "initialize-with-message": { status: "completed", texts: ["Hi there!"] },
  "initialize-after-message": { status: "completed", minText: 100 },
};

/** Where a CLI differs: its own tool names (Claude Code's and pi's are `read`, `bash`), what its stream cannot show. */
const BY_CLI: Record<string, Record<string, Partial<Expected>>> = {
  gemini: {
    "tool-use": { tools: ["read_file:succeeded", "run_shell_command:succeeded"] },
    "tool-edit": { tools: ["replace:succeeded", "write_file:succeeded"] },
    "tool-error": { tools: ["read_file:failed"] },
    // Gemini CLI's stream-json drops the model's thoughts.
    thinking: { thinking: false },
  },
  codex: {
    "tool-use": { tools: ["shell:succeeded", "shell:succeeded"] },
    "tool-edit": { tools: ["apply_patch:succeeded"] },
    "tool-error": { tools: ["shell:failed"] },
    // Cut short while its command ran: the card never finished.
    sigint: { tools: ["shell:abandoned"] },
    sigterm: { tools: ["shell:abandoned"] },
  },
  opencode: { "tool-edit": { tools: ["edit:succeeded", "write:succeeded"] } },
  claude: { "tool-edit": { tools: ["read:succeeded", "edit:succeeded", "write:succeeded", "read:succeeded", "notebookedit:succeeded", "bash:succeeded", "read:succeeded"] } },
  pi: { "tool-edit": { tools: ["edit:succeeded", "write:succeeded", "bash:succeeded"] } },
  qwen: {
    "tool-use": { tools: ["read_file:succeeded", "run_shell_command:succeeded"] },
    "tool-edit": { tools: ["read_file:succeeded", "edit:succeeded", "write_file:succeeded"] },
    "tool-error": { tools: ["read_file:failed"] },
  },
};

for (const cli of ["claude", "pi", "gemini", "codex", "opencode", "qwen"]) {
  const root = path.join(repoRoot, "test", "fixtures", `${cli}-recorded`);
  for (const version of fs.readdirSync(root).filter((name) => fs.statSync(path.join(root, name)).isDirectory())) {
    describe(`recorded ${cli} ${version}, read with --dialect auto`, () => {
      for (const file of fs.readdirSync(path.join(root, version)).filter((name) => /\.ndjson(\.gz)?$/.test(name))) {
        const scenario = file.replace(/\.ndjson(\.gz)?$/, "");
        const expected: Expected | undefined = EXPECTED[scenario] && { ...EXPECTED[scenario], ...BY_CLI[cli]?.[scenario] };
        const title = `${scenario}: ${expected ? expected.status : "?"}${expected?.error ? ` with ${expected.error}` : ""}`;
        it(title, async () => {
          assert.ok(expected, `no expectation for the recorded scenario ${scenario}`);
          const bytes = fs.readFileSync(path.join(root, version, file));
          const stream = file.endsWith(".gz") ? zlib.gunzipSync(bytes) : bytes;
          const transcript = (await replayStream(chunksOf([stream]), { adapter: createAdapter("auto") })).toTranscript();
          if (stream.length > 0) assert.equal(transcript.dialect, cli);
          assert.equal(transcript.status, expected.status);
          const errors = transcript.blocks.filter((b) => b.kind === "error" && !b.recoverable).map((b) => (b.kind === "error" ? b.code : ""));
          if (expected.error !== undefined) assert.deepEqual(errors, [expected.error]);
          const tools = transcript.blocks.flatMap((b) => (b.kind === "tool" ? [`${b.tool}:${b.status}`.toLowerCase()] : []));
          if (expected.tools !== undefined) assert.deepEqual(tools, expected.tools);
          const text = transcript.blocks.map((b) => (b.kind === "text" ? b.text : "")).join("");
          if (expected.texts !== undefined) assert.deepEqual(transcript.blocks.flatMap((b) => (b.kind === "text" ? [b.text] : [])), expected.texts);
          assert.ok(text.length >= (expected.minText ?? 0), `answer text is ${text.length} characters`);
          if (expected.status === "failed" && expected.error !== undefined) assert.equal(text, "", "a made-up error message is not an answer");
          if (expected.thinking) assert.ok(transcript.blocks.some((b) => b.kind === "thinking" && b.text.length > 0));
          if (expected.status === "completed") assert.deepEqual(transcript.problems, []);
        });
      }
    });
  }
}
