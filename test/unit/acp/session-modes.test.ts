// Which mode a session runs in, decided on the sessions real agents opened (their recorded `session/new` answers):
// the one that asks first, whatever mode the agent starts in, unless the user chose another.
import * as assert from "node:assert/strict";
import { modeChoiceOf, modelChoiceOf, readSessionSettings } from "../../../src/dialects/acp/session-settings";
import { approvesItself, modelStep, modeStep, shownSettings } from "../../../src/acp/session-modes";
import { NO_MODE_RULE } from "../../../src/acp/session-setup";
import { acpTransportOf } from "../../../src/profiles/cli-profile";
import { resolveProfile, type ProfileSetting } from "../../../src/profiles/profile-registry";
import type { SessionModeRule } from "../../../src/profiles/cli-profile";
import { RECORDED_OPENINGS, recordedOpening, type RecordedOpening } from "../../helpers/acp-openings";

function ruleOf(agent: RecordedOpening): SessionModeRule {
  const profile = agent.split("/")[0] as ProfileSetting;
  return acpTransportOf(resolveProfile(profile, null))?.modes ?? assert.fail(`${profile} is not an ACP profile`);
}

const choiceOf = (agent: RecordedOpening) => modeChoiceOf(readSessionSettings(recordedOpening(agent)));

/** Measured (docs/acp-agents.md): the mode each agent starts its sessions in, and the one it should run in. */
const STARTS: Record<RecordedOpening, { starts: string; runs: string; via: "mode" | "set_mode" }> = {
  "qwen/0.15.10": { starts: "default", runs: "default", via: "mode" },
  "qwen/0.24.4": { starts: "auto", runs: "default", via: "mode" },
  "gemini/0.61.0": { starts: "default", runs: "default", via: "set_mode" },
  "opencode/1.18.33": { starts: "build", runs: "build", via: "mode" },
  "codex/0.16.0": { starts: "read-only", runs: "read-only", via: "mode" },
  "codex/2.6.0": { starts: "agent", runs: "read-only", via: "mode" },
  "claude-acp/0.23.1": { starts: "default", runs: "default", via: "mode" },
  "claude-acp/0.101.0": { starts: "auto", runs: "default", via: "mode" },
};

/** The modes in which each agent approves its own actions, by what it says they do. */
const APPROVING_ITSELF: Record<RecordedOpening, string[]> = {
  "qwen/0.15.10": ["auto-edit", "yolo"],
  "qwen/0.24.4": ["auto-edit", "auto", "yolo"],
  "gemini/0.61.0": ["autoEdit", "yolo"],
  "opencode/1.18.33": [],
  "codex/0.16.0": ["auto", "full-access"],
  "codex/2.6.0": ["workspace-write", "agent", "agent-full-access"],
  "claude-acp/0.23.1": ["acceptEdits"],
  "claude-acp/0.101.0": ["acceptEdits", "auto"],
};

describe("the mode an ACP session runs in, on the sessions real agents opened", () => {
  for (const agent of RECORDED_OPENINGS) {
    const { starts, runs, via } = STARTS[agent];
    describe(agent, () => {
      it(`starts in ${starts} and runs in ${runs}, which asks first (or does not approve by itself)`, () => {
        const choice = choiceOf(agent);
        assert.equal(choice?.current, starts);
        const step = modeStep(choice, ruleOf(agent));
        if (starts === runs) assert.deepEqual(step, { kind: "keep" });
        else assert.deepEqual(step.kind === "switch" && [step.to.id, step.configId, step.reason], [runs, via === "mode" ? "mode" : null, "asks"]);
      });

      it("is put in the same mode by the rule for agents without a profile (the generic acp profile)", () => {
        const step = modeStep(choiceOf(agent), NO_MODE_RULE);
        assert.equal(step.kind === "switch" ? step.to.id : step.kind === "keep" ? starts : step.message, runs);
      });

      it(`marks ${APPROVING_ITSELF[agent].join(", ") || "none of its modes"} as approving by itself, by its profile and by the generic rule alike`, () => {
        const offered = choiceOf(agent)?.offered ?? [];
        assert.deepEqual(offered.filter((mode) => approvesItself(mode, ruleOf(agent))).map((mode) => mode.id), APPROVING_ITSELF[agent]);
        assert.deepEqual(offered.filter((mode) => approvesItself(mode, NO_MODE_RULE)).map((mode) => mode.id), APPROVING_ITSELF[agent]);
      });
    });
  }

  describe("a mode the user chose", () => {
    it("is switched to, even one that approves by itself, and shown as approving by itself", () => {
      const settings = readSessionSettings(recordedOpening("qwen/0.24.4"));
      const step = modeStep(modeChoiceOf(settings), ruleOf("qwen/0.24.4"), "yolo");
      assert.deepEqual(step.kind === "switch" && [step.to.id, step.reason], ["yolo", "chosen"]);
      const shown = shownSettings(settings, ruleOf("qwen/0.24.4"));
      assert.deepEqual(shown.mode?.offered.map((mode) => [mode.id, mode.approvesItself]), [
        ["plan", false],
        ["default", false],
        ["auto-edit", true],
        ["auto", true],
        ["yolo", true],
      ]);
    });

    it("is kept when the session is already in it: nothing is sent", () => {
      assert.deepEqual(modeStep(choiceOf("codex/2.6.0"), ruleOf("codex/2.6.0"), "agent"), { kind: "keep" });
    });

    it("is refused when the agent does not offer it, listing the modes it offers and which approve by themselves", () => {
      const step = modeStep(choiceOf("claude-acp/0.101.0"), ruleOf("claude-acp/0.101.0"), "yolo");
      assert.deepEqual(step, {
        kind: "refuse",
        message:
          'The agent has no mode yolo. It offers: default ("Manual"), acceptEdits ("Accept edits", approves its own actions), ' +
          'plan ("Plan"), auto ("Auto", approves its own actions).',
      });
    });

    it("is refused when the agent offers no modes at all", () => {
      const step = modeStep(null, NO_MODE_RULE, "default");
      assert.equal(step.kind, "refuse");
    });
  });

  describe("an agent whose only modes approve by themselves", () => {
    const onlyApproving = {
      current: "auto",
      offered: [
        { id: "auto", name: "Auto", description: null },
        { id: "yolo", name: "YOLO", description: "Automatically approve all tools" },
      ],
      configId: null,
    };

    it("is refused the prompt, saying why and how to run it anyway", () => {
      const step = modeStep(onlyApproving, NO_MODE_RULE);
      assert.equal(step.kind, "refuse");
      assert.match(step.kind === "refuse" ? step.message : "", /mode Auto \(auto\), in which it approves edits or commands by itself, and it offers no mode that asks first; so the prompt was not sent\..*--mode ID/);
    });

    it("runs in the mode the user chose from them", () => {
      assert.deepEqual(modeStep(onlyApproving, NO_MODE_RULE, "auto"), { kind: "keep" });
    });
  });

  it("keeps a mode that neither asks nor approves by itself when no profile names the asking one (opencode's agents)", () => {
    const plan = { current: "plan", offered: [{ id: "build", name: "build", description: null }, { id: "plan", name: "plan", description: null }], configId: "mode" };
    assert.deepEqual(modeStep(plan, NO_MODE_RULE), { kind: "keep" });
  });

  describe("a model the user chose", () => {
    it("is set through the agent's model config option", () => {
      const step = modelStep(modelChoiceOf(readSessionSettings(recordedOpening("codex/2.6.0"))), "gpt-6-astra");
      assert.deepEqual(step.kind === "switch" && [step.to.id, step.configId], ["gpt-6-astra", "model"]);
    });

    it("is refused when the agent does not offer it, listing the ones it does", () => {
      const step = modelStep(modelChoiceOf(readSessionSettings(recordedOpening("claude-acp/0.23.1"))), "opus");
      assert.deepEqual(step, {
        kind: "refuse",
        message: 'The agent has no model opus. It offers: default ("Default (recommended)"), sonnet[1m] ("Sonnet (1M context)"), opus[1m] ("Opus (1M context)"), haiku ("Haiku").',
      });
    });

    it("is refused when the agent lists models but offers no config option to set one (Gemini CLI 0.61.0)", () => {
      const choice = modelChoiceOf(readSessionSettings(recordedOpening("gemini/0.61.0")));
      const other = choice?.offered.find((model) => model.id !== choice.current)?.id ?? assert.fail("Gemini CLI lists more than one model");
      const step = modelStep(choice, other);
      assert.match(step.kind === "refuse" ? step.message : "", /offers no config option to choose a model/);
    });

    it("is left alone when none was chosen", () => {
      assert.deepEqual(modelStep(modelChoiceOf(readSessionSettings(recordedOpening("codex/2.6.0")))), { kind: "keep" });
    });
  });
});
