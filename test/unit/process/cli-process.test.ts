import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { StringDecoder } from "node:string_decoder";
import { CliProcess, type CliExit, type CliProcessOptions } from "../../../src/process/cli-process";
import { escapeePids, escapeesPidFile, isGone, processGroupOf, processesMentioning, removeEscapeesDirs, STARTS_ESCAPEES, waitForEscapees, whenEmpty, type Escapees } from "../../helpers/escapees";
import { eventually } from "../../helpers/eventually";
import { fakeCli, repoRoot } from "../../helpers/repo";
import { VirtualScheduler } from "../../helpers/virtual-scheduler";

type StreamName = "stdout" | "stderr";

interface Hooks {
  /** Runs after the chunk was recorded, so `run.cli` is available. */
  onStdout?(chunk: Buffer, run: Run): void;
}

interface Run {
  readonly cli: CliProcess;
  readonly exit: Promise<CliExit>;
  text(stream: StreamName): string;
  exitCount(): number;
  /** Whether the inactivity timeout fired (it stops the CLI; the exit follows). */
  timedOut(): boolean;
  /** Resolves when the stream's text so far matches; rejects if the CLI exits first, so a test fails instead of hanging. */
  waitFor(stream: StreamName, pattern: RegExp): Promise<RegExpMatchArray>;
}

interface Waiter {
  stream: StreamName;
  pattern: RegExp;
  resolve(match: RegExpMatchArray): void;
  reject(error: Error): void;
}

const runs: Run[] = [];
/** Processes a test saw but the manager is not expected to end (or that a failing test left behind). */
const strayPids: number[] = [];

function start(options: Partial<CliProcessOptions> & { command: string }, hooks: Hooks = {}): Run {
  const texts: Record<StreamName, string> = { stdout: "", stderr: "" };
  const decoders = { stdout: new StringDecoder("utf8"), stderr: new StringDecoder("utf8") };
  let waiters: Waiter[] = [];
  let exits = 0;
  let timedOut = false;
  let settleExit: (exit: CliExit) => void = () => {};
  const exit = new Promise<CliExit>((resolve) => (settleExit = resolve));

  const record = (stream: StreamName, chunk: Buffer): void => {
    texts[stream] += decoders[stream].write(chunk);
    waiters = waiters.filter((waiter) => {
      const match = waiter.stream === stream ? texts[stream].match(waiter.pattern) : null;
      if (match !== null) waiter.resolve(match);
      return match === null;
    });
  };

  const run: Run = {
    cli: CliProcess.start(
      { args: [], cwd: repoRoot, ...options },
      {
        onStdout: (chunk) => {
          record("stdout", chunk);
          hooks.onStdout?.(chunk, run);
        },
        onStderr: (chunk) => record("stderr", chunk),
        onInactivityTimeout: () => (timedOut = true),
        onExit: (result) => {
          exits++;
          for (const waiter of waiters) {
            waiter.reject(new Error(`exited before ${waiter.stream} matched ${waiter.pattern}: ${JSON.stringify(texts)}`));
          }
          waiters = [];
          settleExit(result);
        },
      },
    ),
    exit,
    text: (stream) => texts[stream],
    exitCount: () => exits,
    timedOut: () => timedOut,
    waitFor: (stream, pattern) => {
      const match = texts[stream].match(pattern);
      if (match !== null) return Promise.resolve(match);
      return new Promise((resolve, reject) => waiters.push({ stream, pattern, resolve, reject }));
    },
  };
  runs.push(run);
  return run;
}

function startFake(name: string, args: string[] = [], options: Partial<CliProcessOptions> = {}, hooks?: Hooks): Run {
  return start({ command: fakeCli(name), args, ...options }, hooks);
}

function lines(text: string): string[] {
  return text.split("\n").filter((line) => line !== "");
}

async function grandchildPid(run: Run): Promise<number> {
  const [, pid] = await run.waitFor("stdout", /grandchild (\d+)\n/);
  strayPids.push(Number(pid));
  return Number(pid);
}

function makeTempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "cli-process-test-"));
}

const tempDirs: string[] = [];

afterEach(async function () {
  this.timeout(30_000);
  // Strays first: one outside the group may be holding a pipe that a run's exit is waiting for.
  for (const pid of strayPids.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  for (const run of runs.splice(0)) {
    if (run.cli.running) run.cli.kill();
    await run.exit;
  }
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  removeEscapeesDirs();
});

describe("CliProcess", function () {
  this.timeout(30_000);

  describe("starting", () => {
    it("passes a prompt full of shell syntax to the CLI as one unchanged argument", async () => {
      const prompt = `--help; rm -rf / $(whoami) "quoted" 'single' \`id\` | cat > out && echo * ~ $HOME \\ %PATH%`;
      const run = startFake("report-invocation.js", ["--print", prompt]);
      await run.exit;
      assert.deepEqual(JSON.parse(run.text("stdout")).args, ["--print", prompt]);
    });

    it("passes arguments that start with a dash, are empty, span lines or are not ASCII unchanged", async () => {
      const args = ["-rf", "--", "", "first line\nsecond line", "  padded  ", "ünïcødé 🚀", "tab\there"];
      const run = startFake("report-invocation.js", args);
      await run.exit;
      assert.deepEqual(JSON.parse(run.text("stdout")).args, args);
    });

    it("runs the CLI in the given folder", async () => {
      const folder = makeTempDir();
      tempDirs.push(folder);
      const run = startFake("report-invocation.js", [], { cwd: folder });
      await run.exit;
      assert.equal(JSON.parse(run.text("stdout")).cwd, fs.realpathSync(folder));
    });

    it("passes the given environment, without CLAUDECODE", async () => {
      const env = { PATH: process.env.PATH, AGENT_STREAM_PROBE: "given", CLAUDECODE: "1" };
      const run = startFake("report-invocation.js", [], { env });
      await run.exit;
      assert.deepEqual(JSON.parse(run.text("stdout")).env, { AGENT_STREAM_PROBE: "given", CLAUDECODE: null });
    });

    it("inherits the host's environment, without CLAUDECODE, when none is given", async () => {
      const saved = { probe: process.env.AGENT_STREAM_PROBE, claudeCode: process.env.CLAUDECODE };
      process.env.AGENT_STREAM_PROBE = "inherited";
      process.env.CLAUDECODE = "1";
      let run: Run;
      try {
        run = startFake("report-invocation.js");
      } finally {
        restoreEnv("AGENT_STREAM_PROBE", saved.probe);
        restoreEnv("CLAUDECODE", saved.claudeCode);
      }
      await run.exit;
      assert.deepEqual(JSON.parse(run.text("stdout")).env, { AGENT_STREAM_PROBE: "inherited", CLAUDECODE: null });
    });

    it("gives the CLI an empty, closed stdin so it never waits for input", async () => {
      const run = startFake("report-invocation.js");
      const exit = await run.exit;
      assert.equal(exit.exitCode, 0);
      assert.equal(JSON.parse(run.text("stdout")).stdinBytes, 0);
    });

    it("starts the CLI as the leader of its own process group", async function () {
      if (process.platform !== "linux") this.skip();
      const run = startFake("report-invocation.js");
      await run.exit;
      const report = JSON.parse(run.text("stdout"));
      assert.equal(report.pid, run.cli.pid);
      assert.equal(report.processGroupId, run.cli.pid);
    });

    it("describes the command line with shell quoting for logs", async () => {
      const run = startFake("report-invocation.js", ["--print", "it's a prompt", "", "a$b"]);
      await run.exit;
      assert.equal(run.cli.commandLine, `${fakeCli("report-invocation.js")} --print 'it'\\''s a prompt' '' 'a$b'`);
    });
  });

  describe("when the CLI cannot be started", () => {
    it("reports a command missing from PATH through onExit, later, instead of throwing", async () => {
      let returned = false;
      let reportedDuringStart = false;
      const exit = await new Promise<CliExit>((resolve) => {
        CliProcess.start(
          { command: "agent-stream-no-such-cli", args: [], cwd: repoRoot },
          {
            onStdout: () => {},
            onExit: (result) => {
              reportedDuringStart = !returned;
              resolve(result);
            },
          },
        );
        returned = true;
      });
      assert.equal(reportedDuringStart, false);
      assert.equal(exit.reason, "spawn-failed");
      assert.equal(exit.spawnError?.errno, "ENOENT");
      assert.match(exit.spawnError?.message ?? "", /'agent-stream-no-such-cli'.*not found on PATH.*full path/);
    });

    it("reports a command path that does not exist", async () => {
      const missing = path.join(repoRoot, "no-such-dir", "no-such-cli");
      const exit = await start({ command: missing }).exit;
      assert.equal(exit.reason, "spawn-failed");
      assert.equal(exit.spawnError?.errno, "ENOENT");
      assert.match(exit.spawnError?.message ?? "", new RegExp(`'${escapeRegExp(missing)}' does not exist`));
    });

    it("reports a file without execute permission and how to fix it", async () => {
      const folder = makeTempDir();
      tempDirs.push(folder);
      const script = path.join(folder, "not-executable.js");
      fs.writeFileSync(script, "#!/usr/bin/env node\n", { mode: 0o644 });
      const exit = await start({ command: script }).exit;
      assert.equal(exit.reason, "spawn-failed");
      assert.equal(exit.spawnError?.errno, "EACCES");
      assert.match(exit.spawnError?.message ?? "", new RegExp(`not executable.*chmod \\+x '${escapeRegExp(script)}'`));
    });

    it("reports a script whose interpreter is missing instead of the script itself", async () => {
      const folder = makeTempDir();
      tempDirs.push(folder);
      const script = path.join(folder, "bad-interpreter.js");
      fs.writeFileSync(script, "#!/no/such/interpreter\n", { mode: 0o755 });
      const exit = await start({ command: script }).exit;
      assert.equal(exit.reason, "spawn-failed");
      assert.equal(exit.spawnError?.errno, "ENOENT");
      assert.match(exit.spawnError?.message ?? "", /interpreter/);
    });

    it("reports a missing working folder by name rather than blaming the command", async () => {
      const folder = path.join(repoRoot, "no-such-folder");
      const exit = await startFake("report-invocation.js", [], { cwd: folder }).exit;
      assert.equal(exit.reason, "spawn-failed");
      assert.equal(exit.spawnError?.errno, "ENOENT");
      assert.match(exit.spawnError?.message ?? "", new RegExp(`working folder '${escapeRegExp(folder)}' does not exist`));
      assert.doesNotMatch(exit.spawnError?.message ?? "", /PATH/);
    });

    it("reports a working folder that is a file", async () => {
      const file = fakeCli("report-invocation.js");
      const exit = await startFake("report-invocation.js", [], { cwd: file }).exit;
      assert.equal(exit.reason, "spawn-failed");
      assert.match(exit.spawnError?.message ?? "", new RegExp(`working folder '${escapeRegExp(file)}' is a file`));
    });

    it("reports an argument too long for the operating system instead of throwing", async function () {
      if (process.platform !== "linux") this.skip();
      const exit = await startFake("report-invocation.js", ["x".repeat(200_000)]).exit;
      assert.equal(exit.reason, "spawn-failed");
      assert.equal(exit.spawnError?.errno, "E2BIG");
      assert.match(exit.spawnError?.message ?? "", /too long/);
    });

    it("settles stop() with the spawn failure", async () => {
      const run = start({ command: "agent-stream-no-such-cli" });
      const exit = await run.cli.stop();
      assert.equal(exit.reason, "spawn-failed");
      assert.equal(run.cli.pid, undefined);
      assert.equal(run.cli.running, false);
    });
  });

  describe("when the CLI exits by itself", () => {
    it("reports its exit code", async () => {
      const exit = await startFake("exit-with.js", ["3"]).exit;
      assert.deepEqual(exit, { reason: "exited", exitCode: 3, signal: null, stderrTail: "" });
    });

    it("reports the signal that ended it", async () => {
      const exit = await startFake("exit-with.js", ["SIGTERM"]).exit;
      assert.equal(exit.reason, "exited");
      assert.equal(exit.exitCode, null);
      assert.equal(exit.signal, "SIGTERM");
    });

    it("delivers every stdout byte, in order, before onExit", async () => {
      const total = 5 * 1024 * 1024;
      let received = 0;
      let misplaced = -1;
      const run = startFake("flood-stdout.js", [String(total)], {}, {
        onStdout: (chunk) => {
          for (let i = 0; i < chunk.length && misplaced < 0; i++) {
            if (chunk[i] !== (received + i) % 251) misplaced = received + i;
          }
          received += chunk.length;
        },
      });
      let receivedAtExit = -1;
      await run.exit.then(() => (receivedAtExit = received));
      assert.equal(misplaced, -1);
      assert.equal(receivedAtExit, total);
      assert.equal(run.exitCount(), 1);
    });

    it("is running until onExit and not after", async () => {
      const run = startFake("signals.js");
      await run.waitFor("stdout", /ready\n/);
      assert.equal(run.cli.running, true);
      run.cli.kill();
      await run.exit;
      assert.equal(run.cli.running, false);
    });

    it("ends a grandchild it left running, so the grandchild's open stdout does not hold up onExit", async () => {
      // A kill grace longer than the test's timeout: the exit must come as soon as the grandchild is gone.
      const run = startFake("spawns-grandchild.js", ["--grandchild-stdout=inherit", "--then=exit"], {
        killGraceMs: 60_000,
      });
      const grandchild = await grandchildPid(run);
      const exit = await run.exit;
      assert.equal(exit.reason, "exited");
      assert.equal(exit.exitCode, 0);
      assert.equal(isGone(grandchild), true);
    });

    it("kills a leftover grandchild that ignores SIGTERM", async () => {
      const run = startFake("spawns-grandchild.js", ["--grandchild-ignores=SIGINT,SIGTERM", "--then=exit"], {
        killGraceMs: 300,
      });
      const grandchild = await grandchildPid(run);
      const exit = await run.exit;
      assert.equal(exit.reason, "exited");
      assert.equal(isGone(grandchild), true);
    });

    it("reports the exit even when a process it cannot recognise keeps stdout open", async () => {
      // Outside the group and without the run's cookie in its environment: nothing marks it as the CLI's.
      const run = startFake(
        "spawns-grandchild.js",
        ["--grandchild-detached", "--grandchild-without-cookie", "--grandchild-stdout=inherit", "--then=exit"],
        { killGraceMs: 300 },
      );
      const escaped = await grandchildPid(run);
      const exit = await run.exit;
      assert.equal(exit.reason, "exited");
      assert.equal(isGone(escaped), false, "a process that shed the cookie is not found");
    });
  });

  describe("stop()", () => {
    it("stops a CLI that exits on SIGINT without escalating", async () => {
      // Grace periods longer than the test's timeout: any escalation would fail the test.
      const run = startFake("signals.js", ["--exit-on=SIGINT"], { stopGraceMs: 60_000, killGraceMs: 60_000 });
      await run.waitFor("stdout", /ready\n/);
      const exit = await run.cli.stop();
      assert.equal(exit.reason, "stopped");
      assert.equal(exit.exitCode, 130);
      assert.deepEqual(lines(run.text("stdout")), ["ready", "SIGINT"]);
    });

    it("sends SIGTERM after the stop grace when the CLI ignores SIGINT", async () => {
      const run = startFake("signals.js", ["--exit-on=SIGTERM"], { stopGraceMs: 300, killGraceMs: 60_000 });
      await run.waitFor("stdout", /ready\n/);
      const exit = await run.cli.stop();
      assert.equal(exit.reason, "stopped");
      assert.equal(exit.exitCode, 143);
      assert.deepEqual(lines(run.text("stdout")), ["ready", "SIGINT", "SIGTERM"]);
    });

    it("sends SIGKILL after the kill grace when the CLI ignores SIGINT and SIGTERM", async () => {
      const run = startFake("signals.js", ["--exit-on=none"], { stopGraceMs: 200, killGraceMs: 200 });
      await run.waitFor("stdout", /ready\n/);
      const exit = await run.cli.stop();
      assert.equal(exit.reason, "stopped");
      assert.equal(exit.signal, "SIGKILL");
      assert.deepEqual(lines(run.text("stdout")), ["ready", "SIGINT", "SIGTERM"]);
    });

    it("ends a grandchild that ignores SIGINT before it resolves", async () => {
      // A kill grace longer than the test's timeout: stop() must resolve as soon as SIGTERM has ended the grandchild.
      const run = startFake("spawns-grandchild.js", ["--grandchild-ignores=SIGINT", "--then=wait"], {
        stopGraceMs: 300,
        killGraceMs: 60_000,
      });
      const grandchild = await grandchildPid(run);
      const exit = await run.cli.stop();
      assert.equal(exit.reason, "stopped");
      assert.equal(exit.signal, "SIGINT");
      assert.equal(isGone(grandchild), true);
    });

    it("returns the same promise when called again", async () => {
      const run = startFake("signals.js");
      await run.waitFor("stdout", /ready\n/);
      const first = run.cli.stop();
      const second = run.cli.stop();
      assert.equal(second, first);
      await first;
      assert.equal(run.exitCount(), 1);
      assert.deepEqual(lines(run.text("stdout")), ["ready", "SIGINT"]);
    });

    it("reports exited when the CLI had already exited", async () => {
      const run = startFake("exit-with.js", ["0"]);
      const exit = await run.exit;
      assert.equal(await run.cli.stop(), exit);
      assert.equal(exit.reason, "exited");
    });
  });

  describe("input on stdin", () => {
    const prompt = `${JSON.stringify({ type: "user", message: "a prompt with \"quotes\" and ünïcødé" })}\n`;

    it("writes the initial input as soon as the CLI starts, and keeps stdin open until endInput", async () => {
      const run = startFake("stdin-agent.js", [], { input: { initial: prompt } });
      await run.waitFor("stdout", /got .*ünïcødé/);
      await run.waitFor("stdout", /tick 3/);
      assert.equal(run.cli.writeInput("second line\n"), true);
      await run.waitFor("stdout", /got second line/);
      run.cli.endInput();
      const exit = await run.exit;
      assert.deepEqual([exit.reason, exit.exitCode], ["exited", 0]);
      assert.ok(run.text("stdout").includes("stdin closed"));
      assert.equal(run.cli.writeInput("too late\n"), false, "nothing can be written once the input ended");
    });

    it("asks the CLI to stop on its stdin first, and sends no signal when it then exits", async () => {
      const interrupt = { line: `${JSON.stringify({ type: "control_request", request: { subtype: "interrupt" } })}\n`, graceMs: 10_000 };
      const run = startFake("stdin-agent.js", ["--exit-on-interrupt"], { input: { initial: prompt, interrupt } });
      await run.waitFor("stdout", /tick 2/);
      const exit = await run.cli.stop();
      assert.equal(exit.reason, "stopped");
      assert.equal(exit.exitCode, 0, "it exited by itself");
      assert.match(run.text("stdout"), /got .*interrupt.*\ninterrupted\n$/);
      assert.doesNotMatch(run.text("stdout"), /SIGINT|SIGTERM/);
    });

    it("falls back to signals when the CLI does not act on the in-band stop within its grace", async () => {
      const interrupt = { line: "interrupt\n", graceMs: 200 };
      const run = startFake("stdin-agent.js", ["--ignore-interrupt"], { input: { initial: prompt, interrupt }, stopGraceMs: 200, killGraceMs: 200 });
      await run.waitFor("stdout", /tick 2/);
      const exit = await run.cli.stop();
      assert.equal(exit.reason, "stopped");
      const text = run.text("stdout");
      assert.ok(text.indexOf("got interrupt") >= 0 && text.indexOf("got interrupt") < text.indexOf("SIGINT"), text);
      assert.equal(exit.signal, "SIGKILL", "it ignored SIGINT and SIGTERM too");
    });

    it("goes straight to SIGINT when stdin was already closed", async () => {
      const interrupt = { line: "interrupt\n", graceMs: 10_000 };
      const run = startFake("signals.js", ["--exit-on=SIGINT"], { input: { initial: "", interrupt } });
      await run.waitFor("stdout", /ready/);
      run.cli.endInput();
      const exit = await run.cli.stop();
      assert.deepEqual([exit.reason, exit.exitCode], ["stopped", 130]);
    });
  });

  describe("kill()", () => {
    it("ends the whole group at once with SIGKILL", async () => {
      const run = startFake("spawns-grandchild.js", ["--grandchild-ignores=SIGINT,SIGTERM", "--then=wait"], {
        stopGraceMs: 60_000,
        killGraceMs: 60_000,
      });
      const grandchild = await grandchildPid(run);
      run.cli.kill();
      const exit = await run.exit;
      assert.equal(exit.reason, "stopped");
      assert.equal(exit.signal, "SIGKILL");
      assert.equal(isGone(grandchild), true);
    });

    it("still exits when stdout was paused and nobody will resume it", async () => {
      let paused!: () => void;
      const pausedOnce = new Promise<void>((resolve) => (paused = resolve));
      // 50 MiB cannot fit in the pipe: the CLI blocks writing while we hold stdout paused.
      const run = startFake("flood-stdout.js", [String(50 * 1024 * 1024)], { stopGraceMs: 60_000, killGraceMs: 60_000 }, {
        onStdout: (_chunk, self) => {
          self.cli.pause();
          paused();
        },
      });
      await pausedOnce;
      run.cli.kill();
      const exit = await run.exit;
      assert.equal(exit.reason, "stopped");
      assert.equal(exit.signal, "SIGKILL");
    });
  });

  describe("processes that left the CLI's group (setsid, a double-forked daemon)", () => {
    before(function () {
      // Only Linux lets us find them: by the cookie in /proc/<pid>/environ.
      if (process.platform !== "linux") this.skip();
    });

    async function startEscapees(args: string[] = [], options: Partial<CliProcessOptions> = {}): Promise<{ run: Run; escapees: Escapees }> {
      const pidFile = escapeesPidFile();
      const run = start({ command: STARTS_ESCAPEES, args: [`--pid-file=${pidFile}`, ...args], ...options });
      const escapees = await waitForEscapees(pidFile, () => (run.exitCount() > 0 ? `the CLI exited: ${run.text("stderr")}` : undefined));
      strayPids.push(...escapeePids(escapees));
      return { run, escapees };
    }

    const alive = (escapees: Escapees): number[] => escapeePids(escapees).filter((pid) => !isGone(pid));

    it("ends them, and the CLI, before stop() resolves", async () => {
      const { run, escapees } = await startEscapees();
      const exit = await run.cli.stop();
      assert.equal(exit.reason, "stopped");
      assert.deepEqual(alive(escapees), []);
    });

    it("ends them, and the CLI, before reporting the exit of kill()", async () => {
      const { run, escapees } = await startEscapees([], { stopGraceMs: 60_000, killGraceMs: 60_000 });
      run.cli.kill();
      const exit = await run.exit;
      assert.equal(exit.signal, "SIGKILL");
      assert.deepEqual(alive(escapees), []);
    });

    it("ends them when the CLI exits by itself and left them running", async () => {
      const { run, escapees } = await startEscapees(["--then=exit"]);
      const exit = await run.exit;
      assert.equal(exit.reason, "exited");
      assert.equal(exit.exitCode, 0);
      assert.deepEqual(alive(escapees), []);
    });

    it("keeps one watchdog outside the CLI's group while the CLI runs, and none once it reported the exit", async () => {
      const { run, escapees } = await startEscapees();
      assert.ok(escapees.cookie, "the CLI was started with a cookie");
      const watchdogs = processesMentioning(escapees.cookie);
      assert.equal(watchdogs.length, 1);
      assert.notEqual(processGroupOf(watchdogs[0]), escapees.cli);
      await run.cli.stop();
      assert.deepEqual(await whenEmpty(() => processesMentioning(escapees.cookie ?? ""), 5000), []);
    });
  });

  describe("inactivity timeout", () => {
    // The timeout's clock is virtual: the test moves it, while the CLI runs in real time.
    let clock: VirtualScheduler;
    beforeEach(() => (clock = new VirtualScheduler()));

    it("stops a CLI that goes silent on stdout, with reason timeout, once the timeout has passed and not before", async () => {
      const run = startFake("ticker.js", ["--lines=1", "--then=hang"], { inactivityTimeoutMs: 300, scheduler: clock });
      await run.waitFor("stdout", /line 0\n/);
      clock.advance(299);
      assert.equal(run.timedOut(), false);
      clock.advance(1);
      assert.equal(run.timedOut(), true);
      const exit = await run.exit;
      assert.equal(exit.reason, "timeout");
      assert.equal(exit.signal, "SIGINT");
      assert.ok(run.cli.pid !== undefined);
      assert.equal(isGone(run.cli.pid), true);
    });

    it("does not time out a CLI that keeps printing", async () => {
      const run = startFake("ticker.js", ["--lines=1000", "--interval-ms=20"], { inactivityTimeoutMs: 400, scheduler: clock });
      // Five times over, 300 ms pass and then the CLI prints: the run goes on almost four timeouts long.
      for (let i = 0; i < 5; i++) {
        const printed = run.text("stdout").length;
        await eventually("the CLI's next line", () => run.text("stdout").length > printed);
        clock.advance(300);
        assert.equal(run.timedOut(), false, `timed out ${clock.now()} ms in`);
      }
      const exit = await run.cli.stop();
      assert.equal(exit.reason, "stopped");
    });

    it("never times out when inactivityTimeoutMs is 0", async () => {
      const run = startFake("ticker.js", ["--lines=2", "--interval-ms=50"], { inactivityTimeoutMs: 0, scheduler: clock }, {
        // A day of silence after each line.
        onStdout: () => clock.advance(24 * 60 * 60 * 1000),
      });
      const exit = await run.exit;
      assert.equal(exit.reason, "exited");
      assert.deepEqual(lines(run.text("stdout")), ["line 0", "line 1"]);
      assert.equal(run.timedOut(), false);
    });

    it("does not count time spent paused toward the timeout", async () => {
      const run = startFake("ticker.js", ["--lines=1", "--then=hang"], { inactivityTimeoutMs: 1000, scheduler: clock }, {
        onStdout: (_chunk, self) => self.cli.pause(),
      });
      await run.waitFor("stdout", /line 0\n/);
      clock.advance(5000);
      assert.equal(run.timedOut(), false, "five timeouts paused");
      run.cli.resume();
      clock.advance(999);
      assert.equal(run.timedOut(), false, "the timeout restarted its count at resume");
      clock.advance(1);
      const exit = await run.exit;
      assert.equal(exit.reason, "timeout");
    });
  });

  describe("pause() and resume()", () => {
    it("delivers no stdout while paused, then the rest in order", async () => {
      let textAtPause: string | undefined;
      const run = startFake("ticker.js", ["--lines=1000"], {}, {
        onStdout: (_chunk, self) => {
          if (textAtPause !== undefined) return;
          textAtPause = self.text("stdout");
          self.cli.pause();
        },
      });
      // By tick 9 the CLI has written line 10; none of it may arrive while paused.
      await run.waitFor("stderr", /tick 9\n/);
      assert.equal(run.text("stdout"), textAtPause);
      run.cli.resume();
      await run.waitFor("stdout", /line 12\n/);
      const received = lines(run.text("stdout")).slice(0, 13);
      assert.deepEqual(received, Array.from({ length: 13 }, (_, i) => `line ${i}`));
    });
  });

  describe("stderr", () => {
    it("keeps only the last 64 KiB of stderr, ending with the last bytes written", async () => {
      const marker = "END-OF-STDERR";
      const exit = await startFake("flood-stderr.js", [String(1024 * 1024), marker]).exit;
      const tailBytes = Buffer.byteLength(exit.stderrTail);
      assert.ok(tailBytes <= 64 * 1024, `tail is ${tailBytes} bytes`);
      assert.ok(tailBytes > 64 * 1024 - 3, `tail is only ${tailBytes} bytes`);
      assert.ok(exit.stderrTail.endsWith(marker));
      assert.ok(!exit.stderrTail.includes("\uFFFD"), "the tail starts at a character boundary");
    });

    it("keeps as much of stderr as stderrTailBytes says", async () => {
      const exit = await startFake("flood-stderr.js", ["3000", "END"], { stderrTailBytes: 100 }).exit;
      assert.equal(exit.stderrTail, "€".repeat(32) + "END");
    });

    it("forwards all of stderr live to onStderr", async () => {
      const run = startFake("flood-stderr.js", ["300000", "END"]);
      await run.exit;
      assert.equal(run.text("stderr"), "€".repeat(100_000) + "END");
    });
  });
});

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
