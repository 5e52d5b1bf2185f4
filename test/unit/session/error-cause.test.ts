// The real CLIs' and ACP agents' recorded failures (test/fixtures/*-recorded), read as a live run reads them, with the
// environment the run gave the agent: a refused API key and a refusal to run as root are named, with their fix.
import * as assert from "node:assert/strict";
import { createAdapter } from "../../../src/dialects/registry";
import { guideFor } from "../../../src/protocol/error-guides";
import type { ErrorBlock } from "../../../src/protocol/transcript";
import { claudeAcpProfile, codexAcpProfile, geminiProfile, qwenProfile } from "../../../src/profiles/acp-profiles";
import { claudeProfile } from "../../../src/profiles/claude-profile";
import type { CliProfile } from "../../../src/profiles/cli-profile";
import { codexStreamProfile, geminiStreamProfile, qwenStreamProfile } from "../../../src/profiles/stream-mode-profiles";
import { withCause, type RunEnvironment } from "../../../src/session/error-cause";
import { replayStream } from "../../../src/session/replay";
import { errors, fixture } from "../../helpers/dialect-harness";
import { chunksOf } from "../../helpers/stream-builder";

const SECRET = "sk-this-value-is-never-shown";

/** The error that ended the recorded run, read with `environment` as a live run has it. */
async function failingErrorOf(folder: string, name: string, environment: RunEnvironment): Promise<ErrorBlock> {
  const dialect = folder.startsWith("acp-recorded") ? "acp" : "auto";
  const session = await replayStream(chunksOf([fixture(folder, name)]), { adapter: createAdapter(dialect), environment, severalTurns: true });
  const found = errors(session.toTranscript().blocks).filter((block) => !block.recoverable);
  assert.equal(found.length, 1, JSON.stringify(found));
  return found[0] as ErrorBlock;
}

function withKeyOf(profile: CliProfile, value = SECRET): RunEnvironment {
  const [variable] = profile.login.apiKeyVariables ?? [];
  assert.ok(variable !== undefined, `${profile.name} names its API key's variable`);
  return { env: { [variable]: value }, apiKeyVariables: profile.login.apiKeyVariables ?? [], runsAsRoot: false };
}

describe("an error's cause, from what the run gave the agent", () => {
  describe("a refused API key", () => {
    const recorded: [string, string, CliProfile, string][] = [
      ["claude-recorded/2.1.330", "Claude Code 2.1.330", claudeProfile, "ANTHROPIC_API_KEY"],
      ["gemini-recorded/0.61.0", "Gemini CLI 0.61.0", geminiStreamProfile, "GEMINI_API_KEY"],
      ["codex-recorded/0.169.0", "Codex 0.169.0", codexStreamProfile, "OPENAI_API_KEY"],
      ["qwen-recorded/0.24.4", "Qwen Code 0.24.4", qwenStreamProfile, "OPENAI_API_KEY"],
      ["acp-recorded/claude-acp/0.101.0", "claude-agent-acp 0.101.0", claudeAcpProfile, "ANTHROPIC_API_KEY"],
      ["acp-recorded/gemini/0.61.0", "Gemini CLI 0.61.0 over ACP", geminiProfile, "GEMINI_API_KEY"],
      ["acp-recorded/codex/2.6.0", "codex-acp 2.6.0", codexAcpProfile, "OPENAI_API_KEY"],
      ["acp-recorded/qwen/0.24.4", "Qwen Code 0.24.4 over ACP", qwenProfile, "OPENAI_API_KEY"],
    ];
    for (const [folder, title, profile, variable] of recorded) {
      it(`names ${variable} as the refused key of ${title}, offers Open Settings before Log In, and never shows the key`, async () => {
        const error = await failingErrorOf(folder, "auth-error.ndjson", withKeyOf(profile));
        assert.deepEqual(error.cause, { kind: "api-key-rejected", variable });
        assert.deepEqual(guideFor(error).actions, ["openCliEnv", "logIn"]);
        assert.equal(guideFor(error).title, "The API key was rejected");
        assert.match(error.message, new RegExp(`\\n.*the API key in ${variable} .*agentStream\\.cli\\.env`));
        assert.ok(!error.message.includes(SECRET));
      });
    }

    it("offers only Log In when the agent was given no key (an empty variable is none)", async () => {
      const error = await failingErrorOf("claude-recorded/2.1.330", "auth-error.ndjson", withKeyOf(claudeProfile, ""));
      assert.equal(error.cause, undefined);
      assert.deepEqual(guideFor(error).actions, ["logIn"]);
    });

    it("blames no key another agent reads: Claude's refusal with only OPENAI_API_KEY set offers Log In", async () => {
      const environment = { env: { OPENAI_API_KEY: SECRET }, apiKeyVariables: claudeProfile.login.apiKeyVariables ?? [], runsAsRoot: false };
      const error = await failingErrorOf("claude-recorded/2.1.330", "auth-error.ndjson", environment);
      assert.equal(error.cause, undefined);
    });

    it("is not read into an error that is not about logging in", () => {
      const error = withCause({ code: "NETWORK_TIMEOUT", message: "overloaded", recoverable: false }, withKeyOf(claudeProfile));
      assert.deepEqual(error, { code: "NETWORK_TIMEOUT", message: "overloaded", recoverable: false });
    });
  });

  describe("claude-agent-acp refusing to run as root", () => {
    const asRoot = (sandbox: string | undefined): RunEnvironment => ({ env: sandbox === undefined ? {} : { IS_SANDBOX: sandbox }, apiKeyVariables: [], runsAsRoot: true });

    it("names 0.101's bypass_root refusal with IS_SANDBOX=yes, and the fix, with Open Settings first", async () => {
      const error = await failingErrorOf("acp-recorded/claude-acp/0.101.0", "root-sandbox-yes.ndjson", asRoot("yes"));
      assert.deepEqual(error.cause, { kind: "root-refused", variable: "IS_SANDBOX" });
      assert.deepEqual(guideFor(error).actions, ["openCliEnv", "showLog"]);
      assert.match(error.message, /^Internal error: --dangerously-skip-permissions cannot be used with root\/sudo privileges/);
      assert.match(error.message, /\nClaude Code refuses to run as root .* set IS_SANDBOX to 1 in agentStream\.cli\.env .* or run the agent as a user other than root\.$/);
    });

    it("names 0.23.1's bare \"Query closed before response received\" when the run is root's and IS_SANDBOX is set but not 1", async () => {
      const error = await failingErrorOf("acp-recorded/claude-acp/0.23.1", "root-sandbox-yes.ndjson", asRoot("yes"));
      assert.equal(error.cause?.kind, "root-refused");
    });

    it("leaves that bare message unexplained when the run is not root's, or IS_SANDBOX is 1 or unset", async () => {
      for (const environment of [{ ...asRoot("yes"), runsAsRoot: false }, asRoot("1"), asRoot(undefined)]) {
        const error = await failingErrorOf("acp-recorded/claude-acp/0.23.1", "root-sandbox-yes.ndjson", environment);
        assert.equal(error.cause, undefined, JSON.stringify(environment));
        assert.equal(error.message, "Internal error: Query closed before response received");
      }
    });
  });
});
