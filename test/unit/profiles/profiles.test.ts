// How each CLI is started, given its prompt, asked to stop and continued: what the process manager is told to run.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ConversationKey } from "../../../src/profiles/cli-profile";
import { agentCommand, resolveProfile, type CliChoice } from "../../../src/profiles/profile-registry";
import { repoRoot } from "../../helpers/repo";

const ID = "0a9c8f3f-bf1a-4ea1-85fd-4f843415a23e";
const fresh: ConversationKey = { id: ID, continues: false, stateDir: "/state" };
const followUp: ConversationKey = { ...fresh, continues: true };
const choice = (overrides: Partial<CliChoice>): CliChoice => ({ cliPath: null, cliArgs: null, cliProfile: "auto", dialect: "auto", ...overrides });
const PROMPT = '-rf "$HOME" `whoami` \n second line';

/** The recorded pi rpc run that was aborted: its lines in order. */
function recordedLines(file: string): unknown[] {
  return fs
    .readFileSync(path.join(repoRoot, "test", "fixtures", file), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as unknown);
}

/** The text of a recorded user message (Claude's replay, pi's message_start). */
function wordsOf(value: unknown): string {
  const content = (value as { message: { content: { text?: string }[] } }).message.content;
  return content.map((block) => block.text ?? "").join("");
}

describe("CLI profiles", () => {
  describe("auto", () => {
    it("goes by the CLI's file name, and runs anything it does not know as Locus", () => {
      const names = ["/usr/local/bin/claude", "C:\\Tools\\claude.exe", "pi", "/opt/indusagi", "agent", "locus", "/home/me/my-wrapper.sh", null].map(
        (cliPath) => resolveProfile("auto", cliPath).name,
      );
      assert.deepEqual(names, ["claude", "claude", "pi", "indusagi", "agent-code", "locus", "locus", "locus"]);
    });

    it("lets a named profile win over the file name", () => {
      assert.equal(resolveProfile("claude", "/opt/bin/my-claude-wrapper").name, "claude");
    });

    it("uses the profile's dialect only while the dialect setting is auto, and keeps auto for Locus's two shapes", () => {
      assert.equal(agentCommand(choice({ cliPath: "claude" }), PROMPT, fresh).dialect, "claude");
      assert.equal(agentCommand(choice({ cliPath: "claude", dialect: "locus" }), PROMPT, fresh).dialect, "locus");
      assert.equal(agentCommand(choice({ cliPath: "locus" }), PROMPT, fresh).dialect, "auto");
    });
  });

  describe("locus", () => {
    it("runs `locus exec --json-stream -- <prompt>` with the prompt as one argument after --", () => {
      const command = agentCommand(choice({}), PROMPT, fresh);
      assert.equal(command.command, "locus");
      assert.deepEqual(command.args, ["exec", "--json-stream", "--", PROMPT]);
      assert.equal(command.input, undefined, "stdin stays closed");
    });

    it("puts the user's own arguments in place of its defaults", () => {
      assert.deepEqual(agentCommand(choice({ cliPath: "/bin/locus", cliArgs: ["exec", "--json-stream", "--model", "x"] }), "hi", fresh).args, [
        "exec",
        "--json-stream",
        "--model",
        "x",
        "--",
        "hi",
      ]);
    });
  });

  describe("claude", () => {
    const claude = (conversation: ConversationKey, cliArgs: string[] | null = null) => agentCommand(choice({ cliPath: "claude", cliArgs }), PROMPT, conversation);

    it("writes the prompt on stdin as one stream-json user message, and never as an argument", () => {
      const command = claude(fresh);
      assert.ok(!command.args.includes(PROMPT));
      assert.deepEqual(command.args.slice(0, 7), ["-p", "--verbose", "--output-format", "stream-json", "--include-partial-messages", "--input-format", "stream-json"]);
      const initial = command.input?.initial ?? "";
      assert.ok(initial.endsWith("\n") && !initial.slice(0, -1).includes("\n"), "one line");
      assert.deepEqual(JSON.parse(initial), { type: "user", message: { role: "user", content: [{ type: "text", text: PROMPT }] } });
    });

    it("names a new Claude session for the first prompt and resumes it for a follow-up", () => {
      assert.deepEqual(claude(fresh).args.slice(-4, -2), ["--session-id", ID]);
      assert.deepEqual(claude(followUp).args.slice(-4, -2), ["--resume", ID]);
    });

    it("starts every run in the mode that asks when no mode was chosen, whatever Claude's own settings say", () => {
      assert.deepEqual(claude(fresh).args.slice(-2), ["--permission-mode", "default"]);
      assert.deepEqual(claude(followUp).args.slice(-2), ["--permission-mode", "default"]);
    });

    it("starts each turn in the mode and model chosen for the session, a follow-up as the first", () => {
      const chosen = { mode: "plan", model: "sonnet" };
      for (const conversation of [fresh, followUp]) {
        const args = agentCommand(choice({ cliPath: "claude" }), PROMPT, conversation, chosen).args;
        assert.deepEqual(args.slice(-4), ["--permission-mode", "plan", "--model", "sonnet"]);
      }
    });

    it("leaves the mode to the user's own arguments when they name one, unless a mode was chosen for the session", () => {
      const own = ["-p", "--verbose", "--output-format", "stream-json", "--permission-mode", "acceptEdits"];
      assert.equal(claude(fresh, own).args.filter((arg) => arg === "--permission-mode").length, 1);
      assert.ok(!claude(fresh, [...own.slice(0, 4), "--dangerously-skip-permissions"]).args.includes("--permission-mode"));
      assert.ok(!claude(fresh, [...own.slice(0, 4), "--permission-mode=plan"]).args.includes("--permission-mode"));
      const chosen = agentCommand(choice({ cliPath: "claude", cliArgs: own }), PROMPT, fresh, { mode: "plan" }).args;
      assert.deepEqual(chosen.slice(-2), ["--permission-mode", "plan"], "the later flag is the one Claude keeps");
    });

    it("adds no mode or model flags to a CLI that takes none", () => {
      const args = agentCommand(choice({ cliPath: "pi" }), PROMPT, fresh, { mode: "plan", model: "sonnet" }).args;
      assert.ok(!args.includes("--permission-mode") && !args.includes("--model"));
    });

    it("stops with Claude's in-band interrupt control request before any signal", () => {
      const interrupt = claude(fresh).input?.interrupt;
      assert.ok(interrupt !== undefined && interrupt.graceMs > 0);
      const request: unknown = JSON.parse(interrupt.line);
      assert.deepEqual((request as { request: unknown }).request, { subtype: "interrupt" });
      assert.equal((request as { type: unknown }).type, "control_request");
    });

    it("ends the run's input at the result line, and not before", () => {
      const isRunOver = claude(fresh).isRunOver;
      assert.ok(isRunOver);
      const over = recordedLines("claude-recorded/2.1.330/plain-answer.ndjson").map((value) => isRunOver(value));
      assert.deepEqual(over.slice(0, -1).filter(Boolean), []);
      assert.equal(over.at(-1), true, "the last line, the result");
    });

    it("delivers a message mid-turn as the prompt's own kind of user line, and counts it taken by Claude's replay of it", () => {
      const steer = claude(fresh).input?.steer;
      assert.ok(steer !== undefined);
      const line = steer.line(PROMPT);
      assert.ok(line.endsWith("\n") && !line.slice(0, -1).includes("\n"), "one line");
      assert.deepEqual(JSON.parse(line), JSON.parse(claude(fresh).input?.initial ?? ""));
      const lines = recordedLines("claude-recorded/2.1.330/steer-mid-tool.ndjson");
      const taken = lines.filter((value) => steer.isTaken(value));
      assert.deepEqual(taken.map(wordsOf), ["Read notes.txt and tell me what it says.", "Also say it in French."], "the tool's result is not a message taken");
    });

    it("adds the user's extra arguments after its own flags, and after the user's own arguments when they replace them", () => {
      const extra = agentCommand(choice({ cliPath: "claude", cliExtraArgs: ["--allowedTools", "Read"] }), PROMPT, fresh).args;
      assert.deepEqual(extra.slice(0, 7), ["-p", "--verbose", "--output-format", "stream-json", "--include-partial-messages", "--allowedTools", "Read"]);
      const replaced = agentCommand(choice({ cliPath: "claude", cliArgs: ["-p", "--output-format", "stream-json"], cliExtraArgs: ["--model", "opus"] }), PROMPT, fresh).args;
      assert.deepEqual(replaced.slice(0, 5), ["-p", "--output-format", "stream-json", "--model", "opus"]);
    });

    it("leaves the mode to a --permission-mode given in the extra arguments", () => {
      const args = agentCommand(choice({ cliPath: "claude", cliExtraArgs: ["--permission-mode", "acceptEdits"] }), PROMPT, fresh).args;
      assert.deepEqual(args.filter((_arg, index) => args[index - 1] === "--permission-mode"), ["acceptEdits"]);
    });

    it("keeps the user's own output flags and adds only what it needs", () => {
      const args = claude(fresh, ["-p", "--verbose", "--output-format", "stream-json", "--model", "opus"]);
      assert.deepEqual(args.args, [
        "-p",
        "--verbose",
        "--output-format",
        "stream-json",
        "--model",
        "opus",
        "--input-format",
        "stream-json",
        "--permission-prompt-tool",
        "stdio",
        "--replay-user-messages",
        "--session-id",
        ID,
        "--permission-mode",
        "default",
      ]);
    });

    it("asks Claude to send each permission request on its stdout, and reads them with its permission channel", () => {
      const command = claude(fresh);
      assert.deepEqual(command.args.slice(7, 9), ["--permission-prompt-tool", "stdio"]);
      const requests = recordedLines("claude-recorded/2.1.330/permission-prompt.ndjson").flatMap((value) => command.permissionChannel?.read(value) ?? []);
      assert.equal(requests.length, 5);
    });
  });

  describe("pi", () => {
    const pi = (cliArgs: string[] | null = null) => agentCommand(choice({ cliPath: "/usr/bin/pi", cliArgs }), PROMPT, fresh);

    it("runs rpc mode with the prompt as a prompt command on stdin and the conversation's session file", () => {
      const command = pi(["--provider", "mock", "--mode", "json"]);
      assert.deepEqual(command.args, ["--provider", "mock", "--mode", "rpc", "--session", path.join("/state", `${ID}.jsonl`)]);
      assert.deepEqual(JSON.parse(command.input?.initial ?? ""), { id: "agent-stream-prompt", type: "prompt", message: PROMPT });
      assert.equal(JSON.parse(command.input?.interrupt?.line ?? "{}").type, "abort");
    });

    it("names the same session file for a follow-up, so pi continues it", () => {
      const first = agentCommand(choice({ cliPath: "pi" }), "one", fresh).args;
      const second = agentCommand(choice({ cliPath: "pi" }), "two", followUp).args;
      assert.deepEqual(first, second);
    });

    it("ends the input at the agent_end of an aborted run (pi waits on stdin after it)", () => {
      const isRunOver = pi().isRunOver;
      assert.ok(isRunOver);
      const lines = recordedLines("pi-recorded/0.73.1/interrupt.ndjson");
      const over = lines.map((value) => isRunOver(value));
      const agentEnd = lines.findIndex((value) => (value as { type?: unknown }).type === "agent_end");
      assert.deepEqual(over.flatMap((isOver, index) => (isOver ? [index] : [])), [agentEnd]);
    });

    it("keeps the input open across an error pi retries, and ends it when pi gives up", () => {
      const isRunOver = pi().isRunOver;
      assert.ok(isRunOver);
      const failed = (errorMessage: string) => ({ type: "agent_end", messages: [{ role: "user" }, { role: "assistant", stopReason: "error", errorMessage }] });
      assert.equal(isRunOver(failed("500 The server had an error while processing your request.")), false, "a retry follows");
      assert.equal(isRunOver({ type: "auto_retry_start", attempt: 1 }), false);
      assert.equal(isRunOver({ type: "auto_retry_end", success: false, attempt: 3 }), true);
      assert.equal(isRunOver(failed("401 Incorrect API key provided")), true, "pi does not retry a login problem");
      assert.equal(isRunOver({ type: "agent_end", messages: [{ role: "assistant", stopReason: "stop" }] }), true);
    });

    it("delivers a message mid-turn as an rpc steer command, and counts it taken by its user message_start", () => {
      const steer = pi().input?.steer;
      assert.ok(steer !== undefined);
      assert.deepEqual(JSON.parse(steer.line(PROMPT)), { type: "steer", message: PROMPT });
      const taken = recordedLines("pi-recorded/0.73.1/steer-mid-tool.ndjson").filter((value) => steer.isTaken(value));
      assert.deepEqual(taken.map(wordsOf), ["Read notes.txt and tell me what it says.", "Also say it in French."], "the tool's result is not a message taken");
    });

    it("ends the input when pi refuses the prompt", () => {
      const isRunOver = pi().isRunOver;
      assert.equal(isRunOver?.({ type: "response", command: "prompt", success: false, error: "No model" }), true);
      assert.equal(isRunOver?.({ type: "response", command: "prompt", success: true }), false);
    });
  });

  describe("Log In", () => {
    it("runs each CLI's own login command, or opens a CLI that has none with a hint", () => {
      assert.deepEqual(resolveProfile("auto", "locus").login, { args: ["login"] });
      assert.deepEqual(resolveProfile("auto", "/usr/bin/claude").login, { args: ["auth", "login"], apiKeyVariables: ["ANTHROPIC_API_KEY"] });
      const pi = resolveProfile("auto", "pi").login;
      assert.deepEqual(pi.args, []);
      assert.match(pi.hint ?? "", /\/login/);
    });
  });

  describe("indusagi", () => {
    it("runs the json mode its document gives, the prompt last, kept a message even when it starts with - or @", () => {
      const command = agentCommand(choice({ cliPath: "indusagi", cliArgs: ["--mode", "rpc", "--model", "m"] }), PROMPT, fresh);
      assert.deepEqual(command.args, ["--model", "m", "--mode", "json", ` ${PROMPT}`]);
      assert.equal(command.input, undefined, "stdin stays closed");
      assert.equal(agentCommand(choice({ cliPath: "indusagi" }), "@notes.md says what?", fresh).args.at(-1), " @notes.md says what?");
      assert.equal(agentCommand(choice({ cliPath: "indusagi" }), "what is here?", fresh).args.at(-1), "what is here?");
      assert.equal(command.dialect, "indusagi");
    });
  });

  describe("the stream modes of Gemini CLI, Codex, opencode and Qwen Code", () => {
    it("are chosen by name only: auto never picks them by a file name", () => {
      for (const cliPath of ["gemini", "codex", "opencode", "qwen", "/usr/bin/gemini"]) assert.ok(!resolveProfile("auto", cliPath).name.endsWith("-stream"), cliPath);
    });

    it("runs gemini -p's stream-json with the prompt as one --prompt= value, stdin closed, read as gemini", () => {
      const command = agentCommand(choice({ cliProfile: "gemini-stream" }), PROMPT, fresh);
      assert.equal(command.command, "gemini");
      assert.deepEqual(command.args, ["--output-format", "stream-json", `--prompt=${PROMPT}`]);
      assert.equal(command.input, undefined, "stdin stays closed");
      assert.equal(command.dialect, "gemini");
      assert.deepEqual(command.profile.login.args, []);
      assert.match(command.profile.login.hint ?? "", /log in/);
    });

    it("runs codex exec --json with the prompt after --, stdin closed (Codex would read a prompt there), read as codex", () => {
      const command = agentCommand(choice({ cliProfile: "codex-stream" }), PROMPT, fresh);
      assert.equal(command.command, "codex");
      assert.deepEqual(command.args, ["exec", "--json", "--skip-git-repo-check", "--", PROMPT]);
      assert.equal(command.input, undefined, "stdin stays closed");
      assert.equal(command.dialect, "codex");
      assert.deepEqual(command.profile.login.args, ["login"]);
    });

    it("runs opencode run --format json with the prompt last, kept a message when it starts with -, read as opencode", () => {
      const command = agentCommand(choice({ cliProfile: "opencode-stream" }), PROMPT, fresh);
      assert.equal(command.command, "opencode");
      assert.deepEqual(command.args, ["run", "--format", "json", ` ${PROMPT}`]);
      assert.equal(agentCommand(choice({ cliProfile: "opencode-stream" }), "what is here?", fresh).args.at(-1), "what is here?");
      assert.equal(command.input, undefined, "stdin stays closed");
      assert.equal(command.dialect, "opencode");
      assert.deepEqual(command.profile.login.args, ["auth", "login"]);
    });

    it("runs qwen's stream-json with partial messages, the prompt last, read as qwen", () => {
      const command = agentCommand(choice({ cliProfile: "qwen-stream", cliPath: "/opt/qwen-0.15/bin/qwen" }), "hi", followUp);
      assert.equal(command.command, "/opt/qwen-0.15/bin/qwen");
      assert.deepEqual(command.args, ["--output-format", "stream-json", "--include-partial-messages", "hi"]);
      assert.equal(command.input, undefined, "stdin stays closed");
      assert.equal(command.dialect, "qwen");
      assert.match(command.profile.login.hint ?? "", /\/auth/);
    });
  });

  describe("agent-code", () => {
    it("passes the prompt as --prompt=… so a prompt that starts with a dash stays the prompt", () => {
      const command = agentCommand(choice({ cliPath: "agent" }), PROMPT, fresh);
      assert.deepEqual(command.args, ["--output-format", "json", `--prompt=${PROMPT}`]);
      assert.equal(command.dialect, "agent-code");
    });
  });
});
