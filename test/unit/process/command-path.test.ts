// A bare command name never runs a file of the workspace, whatever PATH holds; a relative path is refused.
// Real executables in a real temporary workspace, run through CliProcess as every runner does.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CliProcess, type CliExit } from "../../../src/process/cli-process";
import { resolveCommandPath } from "../../../src/process/command-path";

/** An executable that leaves `<itself>.ran` behind, so a test can tell which file ran. */
function plantProgram(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!${process.execPath}\nrequire("fs").writeFileSync(__filename + ".ran", "ran");\n`, { mode: 0o755 });
  return file;
}

const ran = (file: string): boolean => fs.existsSync(file + ".ran");

function run(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<CliExit> {
  return new Promise((resolve) => CliProcess.start({ command, args: [], cwd, env }, { onStdout: () => {}, onExit: resolve }));
}

describe("which file a command runs", function () {
  let workspace: string;
  let installed: string;
  /** The workspace's own `locus` in every relative PATH entry: the folder itself, `bin`, `node_modules/.bin`. */
  let planted: string[];

  beforeEach(function () {
    if (process.platform === "win32") this.skip();
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-ws-"));
    installed = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-bin-"));
    planted = ["locus", "bin/locus", "node_modules/.bin/locus", "bin/claude"].map((name) => plantProgram(path.join(workspace, name)));
    plantProgram(path.join(installed, "locus"));
  });

  afterEach(() => {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(installed, { recursive: true, force: true });
  });

  const relativeEntries = ["", ".", "bin", "node_modules/.bin"];

  it("runs the PATH folder's program, never the workspace's, when PATH has empty, '.' and relative entries", async () => {
    const exit = await run("locus", workspace, { ...process.env, PATH: [...relativeEntries, installed].join(":") });
    assert.equal(exit.reason, "exited");
    assert.deepEqual(planted.filter(ran), [], "a program of the workspace ran");
    assert.equal(ran(path.join(installed, "locus")), true);
  });

  it("reports a name found only in relative PATH entries as not found, and says why", async () => {
    const exit = await run("locus", workspace, { ...process.env, PATH: relativeEntries.join(":") });
    assert.equal(exit.reason, "spawn-failed");
    assert.equal(exit.spawnError?.errno, "ENOENT");
    assert.match(exit.spawnError?.message ?? "", /'locus'.*not found on PATH.*relative entries such as '\.' are skipped.*full path/);
    assert.deepEqual(planted.filter(ran), []);
  });

  it("refuses a relative path such as cli.path 'bin/claude' and says it must be absolute", async () => {
    const exit = await run("bin/claude", workspace, process.env);
    assert.equal(exit.reason, "spawn-failed");
    assert.match(exit.spawnError?.message ?? "", /agentStream\.cli\.path must be absolute or a bare command name on PATH: 'bin\/claude'/);
    assert.deepEqual(planted.filter(ran), []);
  });

  it("runs an absolute path as it is", async () => {
    const exit = await run(path.join(workspace, "bin", "claude"), os.tmpdir(), process.env);
    assert.equal(exit.reason, "exited");
    assert.equal(ran(path.join(workspace, "bin", "claude")), true);
  });

  it("resolves a bare name to the absolute file of the first absolute PATH folder that has it", () => {
    const second = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-bin2-"));
    try {
      plantProgram(path.join(second, "locus"));
      const resolved = resolveCommandPath("locus", { PATH: ["bin", installed, second].join(":") });
      assert.deepEqual(resolved, { ok: true, file: path.join(installed, "locus") });
    } finally {
      fs.rmSync(second, { recursive: true, force: true });
    }
  });

  it("skips a file on PATH that is not executable, and a folder of that name", () => {
    const first = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-bin0-"));
    try {
      fs.writeFileSync(path.join(first, "locus"), "not a program\n", { mode: 0o644 });
      fs.mkdirSync(path.join(first, "claude"));
      assert.deepEqual(resolveCommandPath("locus", { PATH: [first, installed].join(":") }), { ok: true, file: path.join(installed, "locus") });
      assert.equal(resolveCommandPath("claude", { PATH: first }).ok, false);
    } finally {
      fs.rmSync(first, { recursive: true, force: true });
    }
  });

  it("refuses relative Windows paths, with either separator or a drive without a folder", () => {
    for (const command of ["bin\\claude.exe", "bin/claude", ".\\claude.cmd", "C:claude.exe"]) {
      const resolved = resolveCommandPath(command, {}, "win32");
      assert.equal(resolved.ok, false, command);
    }
    assert.deepEqual(resolveCommandPath("C:\\tools\\claude.exe", {}, "win32"), { ok: true, file: "C:\\tools\\claude.exe" });
  });
});
