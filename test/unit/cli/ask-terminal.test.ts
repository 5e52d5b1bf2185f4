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
function atTerminal(scenario: string, steps: Step[], options: { cwd?: string; env?: NodeJS.ProcessEnv; prompts?: string[]; json?: boolean } = {}): Promise<TerminalRun> {
  const command = [process.execPath, AGENT_STREAM_CLI, "ask", "--profile", "acp", "--cli", process.execPath, `--arg=${fakeCli("fake-acp-agent.mjs")}`];
  command.push(`--arg=${scenario}`, "--approve", "ask", ...(options.cwd === undefined ? [] : ["--cwd", options.cwd]), ...(options.json === true ? ["--json"] : []));
  command.push("--", ...(options.prompts ?? ["go"]));
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

/** A file for the fake agent's record, and what it recorded of the permission answers it got, by tool call. */
function answersRecord(): { env: NodeJS.ProcessEnv; answers(): Record<string, unknown> } {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ask-terminal-record-")), "record.ndjson");
  const answers = () => {
    const facts = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) : [];
    return Object.fromEntries(facts.flatMap((fact) => ("permission" in fact ? [[fact.call as string, fact.permission]] : [])));
  };
  return { env: { FAKE_ACP_RECORD: file }, answers };
}

/** The question as the terminal shows it: from its first line to its "Choice: ", one entry a line. */
function questionIn(output: string, from = 0): string[] {
  const start = output.indexOf("? The agent asks", from);
  return output.slice(start, output.indexOf(CHOICE, start)).trimEnd().split(/\r?\n/);
}

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

  describe("two requests open at once", () => {
    it("asks about each in turn, each with its own options, and gives each its own answer", async () => {
      const record = answersRecord();
      const run = await atTerminal("permission-pair", [
        { expect: "? The agent asks to execute: Run step one" },
        { expect: CHOICE },
        { send: "3\n" },
        { expect: "? The agent asks to execute: Run step two" },
        { expect: CHOICE },
        { send: "3\n" },
        { expect: "Type a number from 1 to 2: " },
        { send: "2\n" },
      ], { env: record.env });
      assert.equal(run.timedOut, false, run.output);
      assert.equal(run.code, 0, run.output);
      assert.deepEqual(questionIn(run.output, run.output.indexOf("? The agent asks to execute: Run step two")).slice(-2), ["  1) Allow (allow_once)", "  2) Reject (reject_once)"]);
      assert.deepEqual(record.answers(), {
        "pair-1": { outcome: "selected", optionId: "proceed" },
        "pair-2": { outcome: "selected", optionId: "nope" },
      });
    });

    it("answers both cancelled on Ctrl-D, and the run still ends", async () => {
      const record = answersRecord();
      const run = await atTerminal("permission-pair", [{ expect: CHOICE }, { eof: true }], { env: record.env });
      assert.equal(run.timedOut, false, run.output);
      assert.equal(run.code, 130, run.output);
      assert.deepEqual(record.answers(), { "pair-1": { outcome: "cancelled" }, "pair-2": { outcome: "cancelled" } });
    });
  });

  it("asks on the terminal with --json too, and warns there, escaped, of a file outside the workspace", async () => {
    const cwd = workspaceWithNotes();
    const outside = "../out\u001b[2Jside.txt";
    const run = await atTerminal("permission-edit", [{ expect: CHOICE }, { send: "3\n" }], { cwd, json: true, env: { FAKE_ACP_EDIT: outside } });
    assert.equal(run.code, 0, run.output);
    assert.deepEqual(questionIn(run.output).slice(0, 2), ["? The agent asks to edit: Edit ../out\\x1b[2Jside.txt", "  ⚠ outside the workspace: ../out\\x1b[2Jside.txt"]);
    assert.ok(!run.output.includes("\u001b[2J"), JSON.stringify(run.output));
    assert.match(run.output, /"type":"permission_answered"/, "stdout is still the NDJSON");
  });

  it("shows an option's name on one line whatever it holds, so it cannot pass for another option", async () => {
    const options = [
      { optionId: "nope", name: "Reject\n  2) Allow once (allow_once)\n  3) Reject", kind: "reject_once" },
      { optionId: "proceed", name: "Allow once", kind: "allow_once" },
    ];
    const run = await atTerminal("permission", [{ expect: CHOICE }, { send: "1\n" }], { env: { FAKE_ACP_OPTIONS: JSON.stringify(options) } });
    assert.equal(run.code, 0, run.output);
    assert.deepEqual(questionIn(run.output).slice(-2), ["  1) Reject\\n  2) Allow once (allow_once)\\n  3) Reject (reject_once)", "  2) Allow once (allow_once)"]);
    assert.match(run.output, /did not run it/);
  });
});
