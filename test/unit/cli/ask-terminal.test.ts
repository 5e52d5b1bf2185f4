// `agent-stream ask --approve ask` at a real terminal: run under a pseudo-terminal (test/helpers/pty-run.py, python3's
// pty module), the user reads the request on the screen and types a number, a wrong one, or Ctrl-D.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { AGENT_STREAM_CLI } from "../../helpers/agent-stream-cli";
import { fakeCli, repoRoot } from "../../helpers/repo";

const PTY_RUN = path.join(repoRoot, "test", "helpers", "pty-run.py");

type Step = { expect: string } | { send: string } | { eof: true };

interface TerminalRun {
  output: string;
  code: number;
  timedOut: boolean;
}

/** `ask --approve ask` on the fake ACP agent in `scenario`, at a terminal, typing as the steps say. */
function atTerminal(scenario: string, steps: Step[], options: { cwd?: string; env?: NodeJS.ProcessEnv; prompts?: string[] } = {}): Promise<TerminalRun> {
  const command = [process.execPath, AGENT_STREAM_CLI, "ask", "--profile", "acp", "--cli", process.execPath, `--arg=${fakeCli("fake-acp-agent.mjs")}`];
  command.push(`--arg=${scenario}`, "--approve", "ask", ...(options.cwd === undefined ? [] : ["--cwd", options.cwd]), "--", ...(options.prompts ?? ["go"]));
  return new Promise((resolve, reject) => {
    execFile("python3", [PTY_RUN, JSON.stringify(command), JSON.stringify(steps)], { env: { ...process.env, NO_COLOR: "1", ...options.env }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error !== null) reject(error);
      else resolve(JSON.parse(stdout) as TerminalRun);
    });
  });
}

function workspaceWithNotes(): string {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "ask-terminal-"));
  fs.writeFileSync(path.join(cwd, "notes.txt"), "old line\n");
  return cwd;
}

const CHOICE = "Choice: ";

describe("agent-stream ask --approve ask at a terminal", function () {
  this.timeout(60_000);

  it("shows the tool, its diff and the agent's options numbered, and writes the file when an allow number is typed", async () => {
    const cwd = workspaceWithNotes();
    const notes = path.join(cwd, "notes.txt");
    const run = await atTerminal("permission-edit", [{ expect: CHOICE }, { send: "2\n" }], { cwd, env: { FAKE_ACP_EDIT: notes } });
    assert.equal(run.timedOut, false, run.output);
    assert.equal(run.code, 0, run.output);
    const question = run.output.slice(run.output.indexOf("? The agent asks"), run.output.indexOf(CHOICE));
    assert.deepEqual(question.trimEnd().split(/\r?\n/), [
      `? The agent asks to edit: Edit ${notes}`,
      `  --- ${notes}`,
      "  + new line",
      "  + added line",
      "  + ",
      "  1) Always allow (allow_always)",
      "  2) Allow once (allow_once)",
      "  3) Reject (reject_once)",
    ]);
    assert.equal(fs.readFileSync(path.join(cwd, "notes.txt"), "utf8"), "new line\nadded line\n");
  });

  it("leaves the file as it was when a reject number is typed", async () => {
    const cwd = workspaceWithNotes();
    const run = await atTerminal("permission-edit", [{ expect: CHOICE }, { send: "3\n" }], { cwd, env: { FAKE_ACP_EDIT: path.join(cwd, "notes.txt") } });
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /left it alone/);
    assert.equal(fs.readFileSync(path.join(cwd, "notes.txt"), "utf8"), "old line\n");
  });

  it("asks again after an entry that is no option's number, and takes the next one", async () => {
    const run = await atTerminal("permission", [{ expect: CHOICE }, { send: "9\n" }, { expect: "Type a number from 1 to 3: " }, { send: "yes\n" }, { expect: "Type a number from 1 to 3: " }, { send: "3\n" }]);
    assert.equal(run.timedOut, false, run.output);
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /ran it/);
  });

  it("answers cancelled on Ctrl-D, and so every later question, and the run still ends", async () => {
    const run = await atTerminal("permission", [{ expect: CHOICE }, { eof: true }], { prompts: ["one", "two"] });
    assert.equal(run.timedOut, false, run.output);
    // The fake agent ends a turn whose permission was cancelled with stopReason cancelled.
    assert.equal(run.code, 130, run.output);
    assert.equal(run.output.split("? The agent asks").length - 1, 2, "both turns asked");
    assert.equal((run.output.match(/→ cancelled/g) ?? []).length, 2, run.output);
    assert.doesNotMatch(run.output, /ran it/);
  });

  it("shows a title with terminal escapes escaped, never as escapes", async () => {
    const hostile = "Run \u001b]52;c;ZXZpbA==\u0007 \u001b[2J now";
    const run = await atTerminal("permission", [{ expect: CHOICE }, { send: "2\n" }], { env: { FAKE_ACP_TITLE: hostile } });
    assert.equal(run.code, 0, run.output);
    assert.ok(run.output.includes("? The agent asks to execute: Run \\x1b]52;c;ZXZpbA==\\x07 \\x1b[2J now"), run.output);
    assert.ok(!run.output.includes("\u001b]52") && !run.output.includes("\u001b[2J"), JSON.stringify(run.output));
    assert.match(run.output, /did not run it/);
  });
});
