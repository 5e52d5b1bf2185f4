// `agent-stream run` in a folder that has programs of its own, and with options too large to honour: the built
// command (dist/cli.js) as a real process.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { agentStream } from "../../helpers/agent-stream-cli";
import { fakeCli, repoRoot } from "../../helpers/repo";

/** An executable that leaves `<itself>.ran` behind and ends a Locus stream, so a test can tell which file ran. */
function plantProgram(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const done = JSON.stringify({ protocol: 1, type: "done", sessionId: "s", timestamp: 1, payload: { exitCode: 0, duration: 1, success: true } });
  fs.writeFileSync(file, `#!${process.execPath}\nrequire("fs").writeFileSync(__filename + ".ran", "ran");\nconsole.log(${JSON.stringify(done)});\n`, { mode: 0o755 });
  return file;
}

const ran = (file: string): boolean => fs.existsSync(file + ".ran");

describe("agent-stream run: what runs and its limits", function () {
  let folder: string;
  let installed: string;

  beforeEach(function () {
    if (process.platform === "win32") this.skip();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-cwd-"));
    installed = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-bin-"));
  });

  afterEach(() => {
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(installed, { recursive: true, force: true });
  });

  it("runs a bare name from PATH's absolute folders, never the current folder's file of that name", async () => {
    const planted = ["locus", "bin/locus", "node_modules/.bin/locus"].map((name) => plantProgram(path.join(folder, name)));
    plantProgram(path.join(installed, "locus"));
    const result = await agentStream(["run", "--json", "--", "locus"], { cwd: folder, env: { ...process.env, PATH: ["", ".", "bin", "node_modules/.bin", installed].join(":") } });
    assert.deepEqual(planted.filter(ran), [], "a program of the current folder ran");
    assert.equal(ran(path.join(installed, "locus")), true);
    assert.equal(result.code, 0, result.stderr);
  });

  it("runs ./name, typed on its command line, from the current folder", async () => {
    const own = plantProgram(path.join(folder, "locus"));
    const result = await agentStream(["run", "--json", "--", "./locus"], { cwd: folder, env: { ...process.env, PATH: installed } });
    assert.equal(ran(own), true);
    assert.equal(result.code, 0, result.stderr);
  });

  it("treats a --timeout-ms too long for a timer as off: no 1 ms timer loop, the run ends as the CLI does", async () => {
    const stream = path.join(repoRoot, "test", "fixtures", "locus", "documented-session.ndjson");
    assert.ok(fs.existsSync(stream), stream);
    for (const timeout of ["4294967296", "1e308"]) {
      const result = await agentStream(["run", "--json", "--timeout-ms", timeout, "--", process.execPath, fakeCli("print-and-exit.js"), stream, "0"]);
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(result.stderr, /TimeoutOverflowWarning/);
      assert.equal(JSON.parse(result.stdout.trimEnd().split("\n").at(-1) ?? "null").type, "done");
    }
  });

  it("refuses a negative or fractional --timeout-ms and --max-line-bytes with a usage error", async () => {
    for (const option of ["--timeout-ms=-1", "--timeout-ms=1.5", "--max-line-bytes=0", "--max-line-bytes=-5"]) {
      const result = await agentStream(["run", option, "--", "locus"]);
      assert.equal(result.code, 2, option);
      assert.match(result.stderr, new RegExp(`${option.split("=")[0]} must be`));
    }
  });
});
