// Every agentStream.* value VS Code hands over is checked: a wrong type is the default and a warning, numbers keep
// the run's limits (a timeout too long to time is off; the line limit stays a limit).
import * as assert from "node:assert/strict";
import { MAX_LINE_BYTES } from "../../../src/session/run-limits";
import { DEFAULT_MAX_LINE_BYTES } from "../../../src/stream/line-reader";
import { settingsFrom, type AgentSettings } from "../../../src/vscode/settings-values";

const MIB = 1024 * 1024;

/** The settings for these raw values (anything not given is unset), and what was logged. */
function read(values: Record<string, unknown>): { settings: AgentSettings; warnings: string[] } {
  const warnings: string[] = [];
  const settings = settingsFrom((key) => values[key], (message) => warnings.push(message));
  return { settings, warnings };
}

describe("settings values", () => {
  it("uses the defaults without a word when nothing is set", () => {
    const { settings, warnings } = read({});
    assert.deepEqual(settings, {
      useBuiltinAgent: false,
      cliPath: null,
      cliArgs: null,
      cliExtraArgs: [],
      cliProfile: "auto",
      cliEnv: {},
      dialect: "auto",
      inactivityTimeoutMs: 120_000,
      maxLineBytes: DEFAULT_MAX_LINE_BYTES,
      context: { workspaceFolder: true, activeFile: true, selection: true },
      autoApprove: {},
      acpIdleStopMs: 10 * 60_000,
      maxRunningSessions: 4,
      maxStorageBytes: 200 * 1024 * 1024,
    });
    assert.deepEqual(warnings, []);
  });

  it("takes the sessions' limits as whole numbers in their range, and says so when one is not", () => {
    const given = read({ "sessions.maxRunning": 2, "sessions.maxStorageMB": 50 });
    assert.deepEqual([given.settings.maxRunningSessions, given.settings.maxStorageBytes, given.warnings], [2, 50 * 1024 * 1024, []]);
    const wrong = read({ "sessions.maxRunning": 0, "sessions.maxStorageMB": 1.5 });
    assert.deepEqual([wrong.settings.maxRunningSessions, wrong.settings.maxStorageBytes], [4, 200 * 1024 * 1024]);
    assert.deepEqual(wrong.warnings, [
      "agentStream.sessions.maxRunning: 0 is not a whole number from 1 to 32; the default 4 is used.",
      "agentStream.sessions.maxStorageMB: 1.5 is not a whole number from 1 to 10000; the default 200 is used.",
    ]);
  });

  it("keeps every well-formed value as given", () => {
    const { settings, warnings } = read({
      useBuiltinAgent: true,
      "cli.path": " /opt/claude ",
      "cli.args": ["-p"],
      "cli.profile": "claude",
      "cli.env": { A: "1" },
      dialect: "pi",
      inactivityTimeoutSeconds: 0,
      maxLineSizeMB: 64,
      "context.selection": false,
    });
    assert.deepEqual(warnings, []);
    assert.equal(settings.useBuiltinAgent, true);
    assert.equal(settings.cliPath, "/opt/claude");
    assert.deepEqual(settings.cliArgs, ["-p"]);
    assert.equal(settings.cliProfile, "claude");
    assert.deepEqual(settings.cliEnv, { A: "1" });
    assert.equal(settings.dialect, "pi");
    assert.equal(settings.inactivityTimeoutMs, 0);
    assert.equal(settings.maxLineBytes, 64 * MIB);
    assert.equal(settings.context.selection, false);
  });

  it("falls back to the default line limit, with a warning, for maxLineSizeMB \"x\" (which left every prompt without a done)", () => {
    const { settings, warnings } = read({ maxLineSizeMB: "x" });
    assert.equal(settings.maxLineBytes, DEFAULT_MAX_LINE_BYTES);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /agentStream\.maxLineSizeMB: "x" is not a number; the default 16 is used/);
  });

  it("keeps a line limit when maxLineSizeMB is 1e308: at most 256 MB", () => {
    const { settings, warnings } = read({ maxLineSizeMB: 1e308 });
    assert.equal(settings.maxLineBytes, MAX_LINE_BYTES);
    assert.equal(MAX_LINE_BYTES, 256 * MIB);
    assert.match(warnings.join("\n"), /maxLineSizeMB: 1e\+308 is more than the 256 MB/);
  });

  it("uses the default line limit for a maxLineSizeMB below 1", () => {
    for (const mb of [0, 0.5, -3]) assert.equal(read({ maxLineSizeMB: mb }).settings.maxLineBytes, DEFAULT_MAX_LINE_BYTES, String(mb));
  });

  it("turns the timeout off, with a warning, when inactivityTimeoutSeconds is longer than a timer can wait", () => {
    for (const seconds of [2_147_484, 1e308]) {
      const { settings, warnings } = read({ inactivityTimeoutSeconds: seconds });
      assert.equal(settings.inactivityTimeoutMs, 0, String(seconds));
      assert.match(warnings.join("\n"), /the timeout is off/);
    }
    assert.equal(read({ inactivityTimeoutSeconds: 2_147_483 }).settings.inactivityTimeoutMs, 2_147_483_000);
  });

  it("uses the default timeout for a negative or non-number inactivityTimeoutSeconds", () => {
    for (const seconds of [-1, "60", null, true]) {
      const { settings, warnings } = read({ inactivityTimeoutSeconds: seconds });
      assert.equal(settings.inactivityTimeoutMs, 120_000, String(seconds));
      assert.equal(warnings.length, 1, String(seconds));
    }
  });

  it("falls back to the default, with a warning naming the setting, for every value of the wrong type", () => {
    const { settings, warnings } = read({
      useBuiltinAgent: "yes",
      "cli.path": 5,
      "cli.args": "-p --verbose",
      "cli.profile": "klaude",
      "cli.env": ["A=1"],
      dialect: 3,
      "context.workspaceFolder": 0,
      "context.activeFile": "false",
      "context.selection": null,
      autoApprove: "allow",
    });
    assert.deepEqual(settings, read({}).settings);
    const named = warnings.map((w) => w.slice(0, w.indexOf(":")));
    assert.deepEqual(named.sort(), [
      "agentStream.autoApprove",
      "agentStream.cli.args",
      "agentStream.cli.env",
      "agentStream.cli.path",
      "agentStream.cli.profile",
      "agentStream.context.activeFile",
      "agentStream.context.selection",
      "agentStream.context.workspaceFolder",
      "agentStream.dialect",
      "agentStream.useBuiltinAgent",
    ]);
  });

  it("reads the arguments added to the profile's own, none when unset, and none with a warning for a list with a non-string", () => {
    assert.deepEqual(read({ "cli.extraArgs": ["--model", "opus"] }).settings.cliExtraArgs, ["--model", "opus"]);
    assert.deepEqual(read({}).settings.cliExtraArgs, []);
    const wrong = read({ "cli.extraArgs": ["--model", 4] });
    assert.deepEqual([wrong.settings.cliExtraArgs, wrong.warnings.length], [[], 1]);
  });

  it("does not run a list of arguments with a non-string in it: the profile's own arguments, and a warning", () => {
    const { settings, warnings } = read({ "cli.args": ["--model", 4] });
    assert.equal(settings.cliArgs, null);
    assert.equal(warnings.length, 1);
  });

  it("sets the environment variables that are strings and says which were left out", () => {
    const { settings, warnings } = read({ "cli.env": { GOOD: "1", BAD: 2 } });
    assert.deepEqual(settings.cliEnv, { GOOD: "1" });
    assert.deepEqual(warnings, ["agentStream.cli.env: BAD is 2, not a string; it is not set."]);
  });

  it("keeps the auto-approve rules by tool kind, and asks, with a warning, for an unknown kind or answer", () => {
    const { settings, warnings } = read({ autoApprove: { read: "allow", search: "allow", execute: "reject", edit: "always", everything: "allow", think: "ask" } });
    assert.deepEqual(settings.autoApprove, { read: "allow", search: "allow", execute: "reject", think: "ask" });
    assert.equal(warnings.length, 2);
    assert.match(warnings[0] ?? "", /^agentStream\.autoApprove: edit is "always", not "allow", "reject" or "ask"; it is asked\.$/);
    assert.match(warnings[1] ?? "", /^agentStream\.autoApprove: "everything" is not a tool kind/);
  });

  it("still reads the old agentStream.acp.autoApprove when agentStream.autoApprove is not set", () => {
    assert.deepEqual(read({ "acp.autoApprove": { edit: "allow" } }).settings.autoApprove, { edit: "allow" });
  });

  it("reads agentStream.autoApprove over the old name when both are set, even an empty one", () => {
    assert.deepEqual(read({ autoApprove: { read: "allow" }, "acp.autoApprove": { edit: "allow" } }).settings.autoApprove, { read: "allow" });
    assert.deepEqual(read({ autoApprove: {}, "acp.autoApprove": { edit: "allow" } }).settings.autoApprove, {});
  });

  it("stops a warm ACP agent after acp.idleStopMinutes, keeps it with 0, and says so for a value it cannot use", () => {
    assert.equal(read({ "acp.idleStopMinutes": 2.5 }).settings.acpIdleStopMs, 150_000);
    assert.equal(read({ "acp.idleStopMinutes": 0 }).settings.acpIdleStopMs, 0);
    const negative = read({ "acp.idleStopMinutes": -1 });
    assert.equal(negative.settings.acpIdleStopMs, 10 * 60_000);
    assert.match(negative.warnings[0] ?? "", /^agentStream\.acp\.idleStopMinutes: -1 is not 0 or more; the default 10 is used\.$/);
    // Longer than a timer can wait would fire at once (Node clamps it to 1 ms): kept instead, with a warning.
    const huge = read({ "acp.idleStopMinutes": 1e9 });
    assert.equal(huge.settings.acpIdleStopMs, 0);
    assert.match(huge.warnings[0] ?? "", /longer than a timer can wait/);
  });
});
