// A prompt's parts through the one launcher, as the panel and `agent-stream ask` send them: what a real (fake) ACP
// agent receives, what is refused before anything is sent, and that only workspace files go.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { NodeWorkspaceFiles } from "../../../src/acp/workspace-files";
import { AgentLauncher, type AgentLaunch, type LaunchAgent } from "../../../src/launch/agent-launcher";
import type { PromptImage, PromptPart } from "../../../src/protocol/prompt-parts";
import { fakeCli } from "../../helpers/repo";

const image: PromptImage = { kind: "image", mimeType: "image/png", data: "iVBORw0KGgo=", name: "shot.png" };

describe("the parts of a prompt through the agent launcher", () => {
  let workspace: string;
  let record: string;
  let launcher: AgentLauncher;
  const logged: string[] = [];

  beforeEach(() => {
    workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "launcher-parts-")));
    record = path.join(workspace, ".record.jsonl");
    fs.mkdirSync(path.join(workspace, "src"));
    fs.writeFileSync(path.join(workspace, "src", "a.ts"), "export const a = 1;\n");
    logged.length = 0;
    launcher = new AgentLauncher({
      files: (roots) => new NodeWorkspaceFiles(roots),
      log: { info: () => {}, warn: (m) => logged.push(m), trace: () => {}, tracing: () => false },
    });
  });

  afterEach(() => {
    launcher.dispose();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  function acpAgent(capabilities?: object): LaunchAgent {
    const env: Record<string, string> = { FAKE_ACP_RECORD: record };
    if (capabilities !== undefined) env.FAKE_ACP_PROMPT_CAPABILITIES = JSON.stringify(capabilities);
    return { kind: "cli", choice: { cliPath: process.execPath, cliArgs: [fakeCli("fake-acp-agent.mjs"), "turns"], cliProfile: "acp", dialect: "auto" }, env };
  }

  function launch(agent: LaunchAgent, parts: PromptPart[], turn = 0): AgentLaunch {
    return {
      sessionId: "s",
      agent,
      prompt: "Explain",
      parts,
      conversation: { id: "conversation-s", continues: turn > 0, stateDir: workspace },
      cwd: workspace,
      workspaceRoots: [workspace],
      autoAnswer: {},
    };
  }

  /** The content blocks of each prompt the agent received, in order. */
  function promptsReceived(): unknown[][] {
    if (!fs.existsSync(record)) return [];
    const facts = fs.readFileSync(record, "utf8").trim().split("\n").map((line) => JSON.parse(line) as { prompt?: unknown[] });
    return facts.flatMap((fact) => (fact.prompt === undefined ? [] : [fact.prompt]));
  }

  it("sends a picked file to an ACP agent as a resource_link to the file", async () => {
    const transcript = await launcher.start(launch(acpAgent(), [{ kind: "file", path: "src/a.ts" }])).finished;
    assert.equal(transcript.status, "completed");
    assert.deepEqual(promptsReceived(), [
      [
        { type: "text", text: "Explain" },
        { type: "resource_link", uri: pathToFileURL(path.join(workspace, "src", "a.ts")).href, name: "src/a.ts" },
      ],
    ]);
  });

  it("sends an image to an ACP agent that says it takes images", async () => {
    const transcript = await launcher.start(launch(acpAgent({ image: true }), [image])).finished;
    assert.equal(transcript.status, "completed");
    assert.deepEqual(promptsReceived()[0]?.[1], { type: "image", mimeType: "image/png", data: image.data });
  });

  it("fails the turn with the reason, sending nothing, when the ACP agent takes no images; and knows it before the next", async () => {
    const agent = acpAgent({ embeddedContext: true });
    assert.equal(launcher.imagesRefusal(launch(agent, [image])), null, "not known before the agent has said");
    const transcript = await launcher.start(launch(agent, [image])).finished;
    assert.equal(transcript.status, "failed");
    const error = transcript.blocks.find((block) => block.kind === "error");
    assert.ok(error?.kind === "error");
    assert.match(error.message, /does not take images/);
    assert.deepEqual(promptsReceived(), [], "the agent got no prompt");
    assert.match(launcher.imagesRefusal(launch(agent, [image], 1)) ?? "", /^ACP agent does not take images/);
    assert.equal(launcher.imagesRefusal(launch(agent, [{ kind: "file", path: "src/a.ts" }], 1)), null);
  });

  /** The agent processes started, as the fake agent records each. */
  function agentsStarted(): number {
    if (!fs.existsSync(record)) return 0;
    return fs.readFileSync(record, "utf8").trim().split("\n").filter((line) => "agentStarted" in (JSON.parse(line) as object)).length;
  }

  it("learns before the first turn that an ACP agent takes no images, sending it nothing, and its next turn uses the agent it started", async () => {
    const agent = acpAgent({ embeddedContext: true });
    assert.match((await launcher.imagesRefusalOnceKnown(launch(agent, [image]))) ?? "", /^ACP agent does not take images/);
    assert.deepEqual(promptsReceived(), [], "the agent got no prompt");
    const transcript = await launcher.start(launch(agent, [{ kind: "file", path: "src/a.ts" }])).finished;
    assert.equal(transcript.status, "completed");
    assert.equal(promptsReceived().length, 1);
    assert.equal(agentsStarted(), 1, "the turn went to the agent started to ask");
  });

  it("learns before the first turn that an ACP agent takes images, and that turn sends them to the agent it started", async () => {
    const agent = acpAgent({ image: true });
    assert.equal(await launcher.imagesRefusalOnceKnown(launch(agent, [image])), null);
    const transcript = await launcher.start(launch(agent, [image])).finished;
    assert.equal(transcript.status, "completed");
    assert.deepEqual(promptsReceived()[0]?.[1], { type: "image", mimeType: "image/png", data: image.data });
    assert.equal(agentsStarted(), 1);
  });

  it("sends a first turn that comes while the agent is still starting to ask, to that same agent once it has its session", async () => {
    const agent = acpAgent({ image: true });
    const asked = launcher.imagesRefusalOnceKnown(launch(agent, [image]));
    const transcript = await launcher.start(launch(agent, [image])).finished;
    assert.equal(await asked, null);
    assert.equal(transcript.status, "completed");
    assert.equal(promptsReceived().length, 1);
    assert.equal(agentsStarted(), 1);
  });

  it("passes no file outside the workspace, nor one that does not exist, and says so in the log", async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "outside-"));
    try {
      fs.writeFileSync(path.join(outside, "secret.txt"), "secret");
      fs.symlinkSync(path.join(outside, "secret.txt"), path.join(workspace, "link.txt"));
      const parts: PromptPart[] = [
        { kind: "file", path: path.join(outside, "secret.txt") },
        { kind: "file", path: "../secret.txt" },
        { kind: "file", path: "link.txt" },
        { kind: "file", path: "missing.ts" },
        { kind: "file", path: "src/a.ts" },
      ];
      await launcher.start(launch(acpAgent(), parts)).finished;
      const links = promptsReceived()[0]?.filter((block) => (block as { type: string }).type === "resource_link");
      assert.deepEqual(links?.map((block) => (block as { name: string }).name), ["src/a.ts"]);
      assert.equal(logged.filter((line) => line.includes("is not a file or folder inside the workspace")).length, 4);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it("sends a selection from an untitled buffer as text, never as a link, while one from a workspace file is embedded", async () => {
    const untitled: PromptPart = { kind: "selection", path: "Untitled-1", lines: { start: 1, end: 1 }, text: "draft idea", language: "plaintext" };
    const inFile: PromptPart = { kind: "selection", path: "src/a.ts", lines: { start: 1, end: 1 }, text: "export const a = 1;", language: "typescript" };
    const transcript = await launcher.start(launch(acpAgent({ embeddedContext: true }), [untitled, inFile])).finished;
    assert.equal(transcript.status, "completed");
    assert.deepEqual(promptsReceived()[0]?.slice(1), [
      { type: "text", text: "Selected text (Untitled-1:1):\n```plaintext\ndraft idea\n```" },
      { type: "resource", resource: { uri: `${pathToFileURL(path.join(workspace, "src", "a.ts")).href}#L1-1`, text: "export const a = 1;", mimeType: "text/plain" } },
    ]);
  });

  it("refuses images for a stream CLI that takes none and for the built-in agent, and not for Claude Code or pi", () => {
    const cli = (cliProfile: "codex-stream" | "indusagi" | "claude" | "pi"): LaunchAgent => ({ kind: "cli", choice: { cliPath: null, cliArgs: null, cliProfile, dialect: "auto" }, env: {} });
    const builtin: LaunchAgent = { kind: "builtin", command: () => assert.fail("nothing runs") };
    const refusals = [cli("codex-stream"), cli("indusagi"), builtin, cli("claude"), cli("pi")].map((agent) => launcher.imagesRefusal(launch(agent, [image])));
    assert.deepEqual(
      refusals.map((refusal) => refusal?.replace(/ does not take images.*/, "")),
      ["Codex", "indusagi", "The built-in agent", undefined, undefined],
    );
  });
});
