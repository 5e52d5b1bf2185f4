// A session starts in the agent's mode that asks first, whatever mode the agent opens it in (issue 24): real fake
// agent processes (test/fake-clis/fake-acp-modes-agent.mjs) that open their sessions with the settings real agents
// sent, and write a file when prompted: at once in a mode that approves by itself, after asking in any other.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { AcpConversation } from "../../../src/acp/acp-conversation";
import { NodeWorkspaceFiles } from "../../../src/acp/workspace-files";
import type { SessionModeRule } from "../../../src/profiles/cli-profile";
import { acpTransportOf } from "../../../src/profiles/cli-profile";
import { resolveProfile, type ProfileSetting } from "../../../src/profiles/profile-registry";
import { cancellingDesk, disposeFakeAgents, prompt, startFakeAgent, type AcpHarness, type HarnessOptions } from "../../helpers/acp-harness";
import { openingSettings, type RecordedOpening } from "../../helpers/acp-openings";
import { fakeCli } from "../../helpers/repo";

const MODES_AGENT = fakeCli("fake-acp-modes-agent.mjs");

function ruleOf(profile: ProfileSetting): SessionModeRule {
  return acpTransportOf(resolveProfile(profile, null))?.modes ?? assert.fail(`${profile} is not an ACP profile`);
}

/** The fake agent opening its sessions as `agent` did, with `agent`'s profile's rule unless the options give another. */
function startModesAgent(agent: RecordedOpening, env: NodeJS.ProcessEnv = {}, options: HarnessOptions = {}): AcpHarness {
  const profile = agent.split("/")[0] as ProfileSetting;
  return startFakeAgent("modes", {
    args: [MODES_AGENT],
    env: { ...process.env, FAKE_ACP_OPENING: JSON.stringify(openingSettings(agent)), ...env },
    modeRule: ruleOf(profile),
    decide: async () => ({ optionId: "reject" }),
    ...options,
  });
}

const written = (harness: AcpHarness) => fs.existsSync(path.join(harness.workspace, "written.txt"));
const facts = (harness: AcpHarness, key: string) => harness.records().filter((record) => key in record);

describe("the mode an ACP session starts in (real fake agent processes)", () => {
  afterEach(disposeFakeAgents);

  for (const agent of ["qwen/0.24.4", "codex/2.6.0", "claude-acp/0.101.0"] as const) {
    it(`puts a session ${agent} opens in a mode that approves by itself into the mode that asks, so the write is asked about`, async () => {
      const harness = startModesAgent(agent);
      const outcome = await harness.connection.prompt(prompt("write it"));
      assert.equal(outcome.status, "completed");
      const asking = agent.startsWith("codex") ? "read-only" : "default";
      assert.deepEqual(facts(harness, "set"), [{ set: "mode", value: asking, method: "session/set_config_option" }]);
      assert.deepEqual(facts(harness, "prompt").map((record) => record.mode), [asking]);
      assert.equal(harness.asked.length, 1);
      assert.equal(written(harness), false);
    });
  }

  it("puts a resumed session back in the mode that asks: the agent opens it in its own default again", async () => {
    const harness = startModesAgent("qwen/0.24.4", {}, { savedSessionId: "saved-1" });
    await harness.connection.prompt(prompt("write it"));
    assert.deepEqual(facts(harness, "resumeSession"), [{ resumeSession: "saved-1" }]);
    assert.deepEqual(facts(harness, "prompt").map((record) => record.mode), ["default"]);
    assert.equal(harness.asked.length, 1);
  });

  it("sends session/set_mode to an agent whose modes have no config option", async () => {
    const opening = openingSettings("gemini/0.61.0") as { modes: Record<string, unknown> };
    const harness = startModesAgent("gemini/0.61.0", { FAKE_ACP_OPENING: JSON.stringify({ modes: { ...opening.modes, currentModeId: "yolo" } }) });
    await harness.connection.prompt(prompt("write it"));
    assert.deepEqual(facts(harness, "set"), [{ set: "mode", value: "default", method: "session/set_mode" }]);
    assert.equal(harness.asked.length, 1);
  });

  it("sends nothing when the session opens in the mode that asks", async () => {
    const harness = startModesAgent("claude-acp/0.23.1");
    await harness.connection.prompt(prompt("write it"));
    assert.deepEqual(facts(harness, "set"), []);
    assert.equal(harness.asked.length, 1);
  });

  it("puts the session in the mode that asks by the ids and names alone, for an agent no profile knows", async () => {
    const harness = startModesAgent("codex/2.6.0", {}, { modeRule: undefined });
    await harness.connection.prompt(prompt("write it"));
    assert.deepEqual(facts(harness, "prompt").map((record) => record.mode), ["read-only"]);
    assert.equal(written(harness), false);
  });

  for (const [how, env, said] of [
    ["refuses the switch", { FAKE_ACP_SWITCH: "refused" }, /it answered Invalid params/],
    ["answers the switch but stays", { FAKE_ACP_SWITCH: "ignored" }, /it answered that it is in auto/],
    ["answers the switch without saying the mode", { FAKE_ACP_SWITCH: "unsaid" }, /its answer did not say it switched/],
  ] as const) {
    it(`does not send the prompt when the agent ${how}: the turn fails saying why, nothing is written`, async () => {
      const harness = startModesAgent("qwen/0.24.4", env);
      const outcome = await harness.connection.prompt(prompt("write it"));
      assert.equal(outcome.status, "failed");
      const message = outcome.status === "failed" ? outcome.error.message : "";
      assert.match(message, /in mode Auto \(auto\), in which it approves edits or commands by itself, and it could not be put in a mode that asks first/);
      assert.match(message, said);
      assert.deepEqual(facts(harness, "prompt"), []);
      assert.equal(written(harness), false);
    });
  }

  it("runs in the mode the user chose, even one that approves by itself, and the turn says so", async () => {
    const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-modes-")));
    const conversation = new AcpConversation({
      command: process.execPath,
      args: [MODES_AGENT],
      env: { ...process.env, FAKE_ACP_OPENING: JSON.stringify(openingSettings("qwen/0.24.4")) },
      workspaceRoots: [workspace],
      files: new NodeWorkspaceFiles([workspace]),
      permissions: cancellingDesk([workspace]),
      modeRule: ruleOf("qwen"),
      chosenSettings: { mode: "yolo" },
    });
    try {
      const transcript = await conversation.prompt(prompt("write it")).finished;
      assert.equal(transcript.status, "completed");
      const notes = transcript.blocks.flatMap((block) => (block.kind === "status" ? [block.message] : []));
      assert.deepEqual(notes, ["The agent is in mode YOLO (yolo), in which it approves edits or commands by itself, without asking you."]);
      assert.equal(fs.readFileSync(path.join(workspace, "written.txt"), "utf8"), "written\n");
    } finally {
      await conversation.dispose();
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });

  it("fails the turn for a mode the agent does not offer, listing the ones it does", async () => {
    const harness = startModesAgent("codex/2.6.0", {}, { chosenSettings: { mode: "full-access" } });
    const outcome = await harness.connection.prompt(prompt("write it"));
    assert.equal(outcome.status, "failed");
    assert.equal(
      outcome.status === "failed" && outcome.error.message,
      'The agent has no mode full-access. It offers: read-only ("Read-only"), workspace-write ("Workspace access", approves its own actions), ' +
        'agent ("Auto review", approves its own actions), agent-full-access ("Full access", approves its own actions).',
    );
    assert.deepEqual(facts(harness, "prompt"), []);
  });

  it("drops a remembered mode and model the agent no longer offers: the turn runs in the mode that asks, and the log says why", async () => {
    const harness = startModesAgent("codex/2.6.0", {}, { chosenSettings: { mode: "full-access", model: "gpt-1", remembered: true } });
    const outcome = await harness.connection.prompt(prompt("write it"));
    assert.equal(outcome.status, "completed");
    assert.deepEqual(facts(harness, "prompt").map((record) => record.mode), ["read-only"]);
    assert.ok(!written(harness), "the mode that asks was asked, and the answer was no");
    assert.match(harness.infos.join("\n"), /the remembered mode is dropped for this session: The agent has no mode full-access/);
    assert.match(harness.infos.join("\n"), /the remembered model is dropped for this session: The agent has no model gpt-1/);
  });

  it("still fails the turn for a mode the user picked for this session that the agent does not offer, where a remembered one was dropped", async () => {
    const harness = startModesAgent("qwen/0.24.4", {}, { chosenSettings: { mode: "full-access", remembered: true } });
    await harness.connection.prompt(prompt("first"));
    harness.connection.choose({ mode: "yolo!" });
    const outcome = await harness.connection.prompt(prompt("second"));
    assert.match(outcome.status === "failed" ? outcome.error.message : outcome.status, /The agent has no mode yolo!/);
    assert.deepEqual(facts(harness, "prompt").map((record) => record.mode), ["default"]);
  });

  it("switches the warm agent's session to a mode chosen between turns before the next prompt, and back to the mode that asks", async () => {
    const harness = startModesAgent("qwen/0.24.4");
    await harness.connection.prompt(prompt("first"));
    harness.connection.choose({ mode: "plan" });
    await harness.connection.prompt(prompt("second"));
    harness.connection.choose({});
    await harness.connection.prompt(prompt("third"));
    assert.deepEqual(facts(harness, "prompt").map((record) => record.mode), ["default", "plan", "default"]);
    assert.equal(facts(harness, "newSession").length, 1, "one warm agent session for the three turns");
  });

  it("fails each later turn while the mode chosen between turns is refused, rather than run in the mode before", async () => {
    const harness = startModesAgent("qwen/0.24.4");
    await harness.connection.prompt(prompt("first"));
    harness.connection.choose({ mode: "yolo!" });
    for (const text of ["second", "third"]) {
      const outcome = await harness.connection.prompt(prompt(text));
      assert.match(outcome.status === "failed" ? outcome.error.message : outcome.status, /The agent has no mode yolo!/);
    }
    assert.deepEqual(facts(harness, "prompt").map((record) => record.mode), ["default"]);
  });

  it("sets the model the user chose through the agent's model config option", async () => {
    const harness = startModesAgent("codex/2.6.0", {}, { chosenSettings: { model: "gpt-6-astra" } });
    await harness.connection.prompt(prompt("write it"));
    assert.deepEqual(facts(harness, "prompt").map((record) => [record.mode, record.model]), [["read-only", "gpt-6-astra"]]);
  });

  it("sets a boolean config option the user turned on as a boolean, and the turn runs with it on", async () => {
    const codex = openingSettings("codex/2.6.0");
    const fast = { id: "fast", name: "Fast", description: null, category: null, type: "boolean", currentValue: false };
    const opening = { ...codex, configOptions: [...((codex.configOptions as unknown[] | undefined) ?? []), fast] };
    const harness = startModesAgent("codex/2.6.0", { FAKE_ACP_OPENING: JSON.stringify(opening) }, { chosenSettings: { config: { fast: "true" } } });
    const outcome = await harness.connection.prompt(prompt("write it"));
    assert.equal(outcome.status, "completed");
    assert.deepEqual(facts(harness, "set").filter((record) => record.set === "fast"), [{ set: "fast", value: true, method: "session/set_config_option" }]);
    const [settings] = harness.eventsOf("session_settings").map((event) => event.settings);
    assert.deepEqual(settings?.configOptions.find((option) => option.id === "fast")?.currentValue, true);
  });

  it("keeps what the agent says of its settings, each mode marked when the agent approves by itself in it", async () => {
    const harness = startModesAgent("claude-acp/0.101.0");
    await harness.connection.prompt(prompt("write it"));
    const [settings] = harness.eventsOf("session_settings").map((event) => event.settings);
    assert.deepEqual(settings?.mode?.currentMode, { id: "default", name: "Manual", description: "Always ask before making changes", approvesItself: false });
    assert.deepEqual(settings?.mode?.offered.filter((mode) => mode.approvesItself).map((mode) => mode.id), ["acceptEdits", "auto"]);
    assert.deepEqual(settings?.model?.current, "default");
  });

  it("follows a mode the agent puts itself in, marked when the agent approves by itself in it", async () => {
    const harness = startModesAgent("qwen/0.24.4", { FAKE_ACP_TURN_MODE: "auto-edit" });
    await harness.connection.prompt(prompt("write it"));
    const modes = harness.eventsOf("session_settings").map((event) => [event.settings.mode?.current, event.settings.mode?.currentMode.approvesItself]);
    assert.deepEqual(modes, [
      ["default", false],
      ["auto-edit", true],
    ]);
  });
});
