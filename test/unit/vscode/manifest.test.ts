// What a user reads about the extension: every setting and command in package.json is described there and in the
// README, with the exact names people script against.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { MAX_TIMER_DELAY_MS } from "../../../src/process/inactivity-timer";
import { MAX_LINE_BYTES } from "../../../src/session/run-limits";
import { repoRoot } from "../../helpers/repo";

interface Manifest {
  contributes: {
    commands: { command: string; title: string; category?: string; icon?: string }[];
    menus: Record<string, { command: string; when?: string; group?: string }[]>;
    configuration: { properties: Record<string, { markdownDescription?: string; description?: string; scope?: string; maximum?: number }> };
  };
  capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations?: string[] } };
}

const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as Manifest;
const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
const settings = Object.entries(manifest.contributes.configuration.properties);

describe("package.json and README", () => {
  it("puts each title-bar action of a view once, as an icon: New Session once in the sidebar (on Sessions; the chat has its own button), Open Chat in Editor with an icon", () => {
    const titleActions = manifest.contributes.menus["view/title"].filter((item) => item.group?.startsWith("navigation") === true);
    const inView = (view: string) => titleActions.filter((item) => item.when === `view == ${view}`).map((item) => item.command);
    assert.deepEqual(inView("agentStream.chat"), ["agentStream.openChatInEditor"]);
    assert.equal([...inView("agentStream.chat"), ...inView("agentStream.sessions")].filter((command) => command === "agentStream.newSession").length, 1);
    const iconless = titleActions.filter((item) => manifest.contributes.commands.find((command) => command.command === item.command)?.icon === undefined);
    assert.deepEqual(iconless, []);
  });

  it("describes every setting in package.json and lists it in the README", () => {
    assert.ok(settings.length >= 10);
    const undescribed = settings.filter(([, s]) => (s.markdownDescription ?? s.description ?? "").trim().length < 20).map(([key]) => key);
    assert.deepEqual(undescribed, []);
    const unlisted = settings.map(([key]) => key).filter((key) => !readme.includes(`\`${key}\``));
    assert.deepEqual(unlisted, []);
  });

  it("keeps what runs and what it may do unasked out of a workspace's reach: the CLI's path, arguments, environment and profile, and the auto-approvals, are machine settings", () => {
    for (const key of ["agentStream.cli.path", "agentStream.cli.args", "agentStream.cli.extraArgs", "agentStream.cli.env", "agentStream.cli.profile", "agentStream.autoApprove", "agentStream.acp.autoApprove"]) {
      assert.equal(manifest.contributes.configuration.properties[key]?.scope, "machine", key);
    }
  });

  it("keeps what runs and the safety limits out of an untrusted workspace's reach: restricted configurations that exist", () => {
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations ?? [];
    const whatRunsAndLimits = ["cli.path", "cli.args", "cli.extraArgs", "cli.env", "cli.profile", "autoApprove", "acp.autoApprove", "useBuiltinAgent", "inactivityTimeoutSeconds", "maxLineSizeMB"];
    assert.deepEqual([...restricted].sort(), whatRunsAndLimits.map((key) => `agentStream.${key}`).sort());
    const unknown = restricted.filter((key) => manifest.contributes.configuration.properties[key] === undefined);
    assert.deepEqual(unknown, []);
  });

  it("shows the same maximum for the timeout and the line size as the code clamps to", () => {
    const properties = manifest.contributes.configuration.properties;
    assert.equal(properties["agentStream.inactivityTimeoutSeconds"]?.maximum, Math.floor(MAX_TIMER_DELAY_MS / 1000));
    assert.equal(properties["agentStream.maxLineSizeMB"]?.maximum, MAX_LINE_BYTES / (1024 * 1024));
  });

  it("puts every command under Agent Stream: in the palette, with the titles the README uses", () => {
    const titles = manifest.contributes.commands.map((c) => `${c.category}: ${c.title}`);
    assert.ok(titles.includes("Agent Stream: Ask about Workspace"));
    assert.ok(titles.includes("Agent Stream: Replay Stream File…"));
    for (const command of manifest.contributes.commands) {
      assert.equal(command.category, "Agent Stream", command.command);
      assert.ok(readme.includes(command.title), `the README does not mention "${command.title}"`);
    }
  });
});
