// Claude Code's can_use_tool requests, as 2.1.330 sent them (test/fixtures/claude-recorded/2.1.330/permission-*.ndjson),
// read into the desk's questions, and the desk's decisions written back as the control_response Claude waits for.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { ClaudeAdapter } from "../../../src/dialects/claude-adapter";
import { readClaudePermissionLine } from "../../../src/dialects/claude-permission-request";
import type { ChannelMessage } from "../../../src/permissions/permission-channel";
import { cancelledDecision, type PermissionDecision } from "../../../src/permissions/permission-request";
import { guideFor } from "../../../src/protocol/error-guides";
import type { Transcript } from "../../../src/protocol/transcript";
import { transcriptOf } from "../../helpers/dialect-harness";
import { repoRoot } from "../../helpers/repo";

const RECORDED = path.join(repoRoot, "test", "fixtures", "claude-recorded", "2.1.330");

function recordedLines(name: string): unknown[] {
  return fs
    .readFileSync(path.join(RECORDED, name), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as unknown);
}

type Request = Extract<ChannelMessage, { type: "request" }>;

function requestsIn(name: string): Request[] {
  return recordedLines(name).flatMap((line) => {
    const message = readClaudePermissionLine(line);
    return message?.type === "request" ? [message] : [];
  });
}

const chosen = (optionId: string, optionKind: "allow_once" | "allow_always" | "reject_once"): PermissionDecision => ({ outcome: "selected", optionId, optionKind, by: "user" });
const parsed = (line: string) => JSON.parse(line) as { type: string; response: { subtype: string; request_id: string; response: Record<string, unknown> } };

describe("Claude Code's can_use_tool requests in the permission desk's words", () => {
  const [write, edit, always, denied, outside] = requestsIn("permission-prompt.ndjson");

  it("reads the five requests of the recording, and no other line of it", () => {
    assert.equal(requestsIn("permission-prompt.ndjson").length, 5);
    const others = recordedLines("permission-prompt.ndjson").filter((line) => readClaudePermissionLine(line) === undefined);
    assert.equal(others.length, recordedLines("permission-prompt.ndjson").length - 5);
  });

  it("says what each call will do, by the tool's kind: the file for Write and Edit, the command for Bash", () => {
    const shown = [write, edit, always, denied, outside].map((request) => [request?.question.toolKind, request?.question.title.replace(/\/tmp\/[^/]+\//, "WS/")]);
    assert.deepEqual(shown, [
      ["edit", "Write WS/made-by-model.txt"],
      ["edit", "Edit WS/notes.txt"],
      ["execute", "touch always.txt"],
      ["execute", "touch denied.txt"],
      ["read", "Read /etc/hostname"],
    ]);
  });

  it("names a file inside the run's folder relative to it, and one outside it by its whole path", () => {
    const workspace = "/tmp/agent-stream-claude-workspace-VmXax1";
    const titles = recordedLines("permission-prompt.ndjson").flatMap((line) => {
      const message = readClaudePermissionLine(line, workspace);
      return message?.type === "request" ? [message.question.title] : [];
    });
    assert.deepEqual(titles, ["Write made-by-model.txt", "Edit notes.txt", "touch always.txt", "touch denied.txt", "Read /etc/hostname"]);
    const beside = readClaudePermissionLine(recordedLines("permission-prompt.ndjson").find((line) => readClaudePermissionLine(line)?.type === "request"), `${workspace}-other`);
    assert.equal(beside?.type === "request" && beside.question.title, `Write ${workspace}/made-by-model.txt`, "a sibling folder whose name starts the same is outside");
  });

  it("ties each question to its tool call, and names its files and the path Claude says it would touch", () => {
    assert.equal(edit?.question.toolCallId, "toolu_mock_edit_02");
    assert.match(edit?.question.files[0] ?? "", /\/notes\.txt$/);
    assert.match(denied?.question.files[0] ?? "", /\/denied\.txt$/, "Bash's blocked_path");
    assert.deepEqual(outside?.question.files, ["/etc/hostname"]);
  });

  it("offers Always allow only with a rule suggestion: Claude's setMode acceptEdits would allow every edit", () => {
    assert.deepEqual(write?.question.options.map((option) => option.kind), ["allow_once", "reject_once"]);
    assert.deepEqual(always?.question.options.map((option) => option.kind), ["allow_once", "allow_always", "reject_once"]);
  });

  it("gives the same request the same identity, and another command another", () => {
    const again = requestsIn("permission-prompt.ndjson")[2];
    assert.equal(always?.question.sameRequest, again?.question.sameRequest);
    assert.notEqual(always?.question.sameRequest, denied?.question.sameRequest);
  });

  it("answers Allow with the input as Claude sent it", () => {
    const line = parsed(write!.answer(chosen("allow", "allow_once")));
    assert.equal(line.type, "control_response");
    assert.equal(line.response.subtype, "success");
    assert.equal(line.response.request_id, write?.id);
    const asked = recordedLines("permission-prompt.ndjson").find((l) => (l as { request_id?: string }).request_id === write?.id) as { request: { input: unknown } };
    assert.deepEqual(line.response.response, { behavior: "allow", updatedInput: asked.request.input });
  });

  it("answers Always allow with Claude's own rule for this command, kept for the session only", () => {
    const answer = parsed(always!.answer(chosen("allow_always", "allow_always"))).response.response;
    assert.deepEqual(answer.updatedPermissions, [{ type: "addRules", rules: [{ toolName: "Bash", ruleContent: "touch always.txt" }], behavior: "allow", destination: "session" }]);
    assert.equal(answer.behavior, "allow");
  });

  it("gives the rule an Always allow hands back as --allowedTools takes it, and none for a request with no rule", () => {
    assert.deepEqual(always?.sessionRules, ["Bash(touch always.txt)"]);
    assert.deepEqual(write?.sessionRules, []);
  });

  it("leaves out a rule the flag's list could read as more than it says: parentheses, a comma, a backslash", () => {
    const request = (ruleContent: string) =>
      readClaudePermissionLine({
        type: "control_request",
        request_id: "r1",
        request: { subtype: "can_use_tool", tool_name: "Bash", input: { command: ruleContent }, permission_suggestions: [{ type: "addRules", behavior: "allow", destination: "localSettings", rules: [{ toolName: "Bash", ruleContent }] }] },
      });
    const rules = (ruleContent: string) => {
      const message = request(ruleContent);
      return message?.type === "request" ? message.sessionRules : undefined;
    };
    assert.deepEqual(rules("echo a) Bash(rm -rf x"), []);
    assert.deepEqual(rules("echo a, b"), []);
    assert.deepEqual(rules("echo a\\ b"), []);
    assert.deepEqual(rules("npm test"), ["Bash(npm test)"]);
  });

  it("answers Reject and a cancelled request with deny and a message for the model, never allow", () => {
    assert.deepEqual(parsed(edit!.answer(chosen("reject", "reject_once"))).response.response, { behavior: "deny", message: "The user rejected this tool call." });
    const cancelled = parsed(edit!.answer(cancelledDecision())).response.response;
    assert.equal(cancelled.behavior, "deny");
    assert.match(String(cancelled.message), /cancelled/);
  });

  it("reads control_cancel_request as the request withdrawn", () => {
    const lines = recordedLines("permission-interrupt.ndjson").map((line) => readClaudePermissionLine(line)).filter((message) => message !== undefined);
    assert.deepEqual(lines.map((message) => message.type), ["request", "withdrawn"]);
    assert.equal(lines[1]?.id, lines[0]?.id);
  });

  it("asks ExitPlanMode as a mode switch (its input is empty: the plan is only in the tool call)", () => {
    const [plan] = requestsIn("permission-plan.ndjson");
    assert.equal(plan?.question.toolKind, "switch_mode");
    assert.equal(plan?.question.title, "Leave plan mode and start working on the plan");
  });

  it("answers a request it cannot read with deny, and offers only Reject", () => {
    const message = readClaudePermissionLine({ type: "control_request", request_id: "r1", request: { subtype: "can_use_tool", tool_name: 42 } });
    assert.equal(message?.type, "request");
    if (message?.type !== "request") return;
    assert.deepEqual(message.question.options.map((option) => option.kind), ["reject_once"]);
    assert.equal(parsed(message.answer(chosen("allow", "allow_once"))).response.response.behavior, "deny");
  });
});

describe("a Claude Code turn whose tool calls were refused", () => {
  it("fails when the only calls that ran only looked around (a Read before the refused Edit): reads and searches do no work", async () => {
    const adapter = new ClaudeAdapter();
    const lines = recordedLines("permission-prompt.ndjson");
    // The recording up to the refused Edit, then its own result line, with only that denial.
    const editDenied = lines.findIndex((line) => JSON.stringify(line).includes('"tool_use_id":"toolu_mock_edit_02","type":"tool_result"') || JSON.stringify(line).includes('"is_error":true,"tool_use_id":"toolu_mock_edit_02"'));
    const withoutWrite = lines.slice(0, editDenied + 1).filter((line) => !JSON.stringify(line).includes("toolu_mock_write_01"));
    const result = { ...(lines.at(-1) as Record<string, unknown>), permission_denials: [{ tool_name: "Edit", tool_use_id: "toolu_mock_edit_02", tool_input: { file_path: "/w/notes.txt" } }] };
    const transcript = await transcriptOf([...withoutWrite, result].map((line) => JSON.stringify(line)).join("\n"), adapter);
    assert.equal(transcript.status, "failed");
  });

  const recorded = (name: string) => fs.readFileSync(path.join(RECORDED, name), "utf8");
  const statuses = (transcript: Transcript) => transcript.blocks.flatMap((block) => (block.kind === "status" && block.status === "refused" ? [block.message] : []));

  it("lists the calls Claude was refused (result.permission_denials) in the turn, as their cards said them", async () => {
    const transcript = await transcriptOf(recorded("permission-prompt.ndjson"), new ClaudeAdapter());
    assert.equal(statuses(transcript).length, 1);
    assert.equal(statuses(transcript)[0], "Not allowed, so not done: Edit notes.txt; touch denied.txt");
  });

  it("still completes when other calls of the turn did work (the Write, the commands)", async () => {
    const transcript = await transcriptOf(recorded("permission-prompt.ndjson"), new ClaudeAdapter());
    assert.equal(transcript.status, "completed");
  });

  it("does not read Completed when its only call was refused: it fails, and says nothing was done", async () => {
    const transcript = await transcriptOf(recorded("tool-permission-denied.ndjson"), new ClaudeAdapter());
    assert.equal(transcript.status, "failed");
    const [error] = transcript.blocks.filter((block) => block.kind === "error");
    assert.equal(error?.kind === "error" && error.message, "Refused: touch made-by-model.txt. Nothing else was changed or run.");
    assert.deepEqual(error?.kind === "error" && error.cause, { kind: "refused", calls: ["touch made-by-model.txt"] });
    assert.equal(error?.kind === "error" && guideFor(error).title, "Not allowed: nothing was done");
    assert.deepEqual(error?.kind === "error" && guideFor(error).actions, ["retry"], "Retry asks again; no Show Log");
  });
});
