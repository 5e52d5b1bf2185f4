// `npm start` (out/scripts/start.js, as the npm script runs it) when code-server cannot be had: it says why, and
// whatever ends it (a failed install, Ctrl-C, SIGTERM) it leaves no temporary folder and no process behind.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { isRunning } from "../../e2e/processes";
import { eventually } from "../../helpers/eventually";
import { repoRoot } from "../../helpers/repo";
import { entries, fakeMachine, finish, type FakeMachine } from "./fake-tools";

const START = path.join(repoRoot, "out", "scripts", "start.js");

function npmStart(machine: FakeMachine) {
  return spawn(process.execPath, [START], { cwd: repoRoot, env: machine.env(), stdio: ["ignore", "pipe", "pipe"] });
}

describe("npm start (scripts/start.ts) on a machine where the code-server install fails or is stopped", function () {
  this.timeout(60_000);
  let machine: FakeMachine;
  afterEach(() => machine.remove());

  it("says the install failed, exits 1, and leaves neither the workspace copy nor a partial install", async () => {
    machine = fakeMachine({ npmMode: "fail-half-way" });
    const result = await finish(npmStart(machine));
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /npm start failed: installing code-server failed/);
    assert.deepEqual(entries(machine.tmp), []);
    assert.deepEqual(entries(machine.cache).filter((name) => !name.endsWith(".lock")), []);
  });

  it("names the system package to install when one is missing, and changes nothing", async () => {
    machine = fakeMachine({ missingPackages: ["libsecret-1-dev"] });
    const result = await finish(npmStart(machine));
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^ {2}(sudo )?apt-get install libsecret-1-dev$/m);
    assert.match(result.stderr, /npm start failed: a system package is missing/);
    assert.deepEqual(machine.systemChanges(), []);
    assert.deepEqual(entries(machine.tmp), []);
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`stops the install on ${signal} and leaves no folder and no process behind`, async () => {
      machine = fakeMachine({ npmMode: "hang" });
      const child = npmStart(machine);
      const done = finish(child);
      await eventually("the code-server install started", () => machine.npmCalls().some((call) => call.argv.some((arg) => arg.startsWith("code-server@"))), 20_000);
      const npm = machine.npmCalls().at(-1)!;
      child.kill(signal);
      const result = await done;
      assert.equal(result.code, 130, `${result.signal ?? ""} ${result.stderr}`);
      assert.match(result.stderr, /stopped before VS Code was ready/);
      await eventually("the install's npm has exited", () => !isRunning(npm.pid), 20_000);
      assert.deepEqual(entries(machine.tmp), []);
      assert.deepEqual(entries(machine.cache).filter((name) => !name.endsWith(".lock")), []);
      assert.ok(!fs.existsSync(npm.cwd), "the unfinished install folder is still there");
    });
  }
});
