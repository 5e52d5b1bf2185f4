// An image on an ACP agent's very first turn, from the composer to the agent: before the agent has started nobody
// knows whether it takes images, so it is started and asked first; then the prompt goes, or the view gets its draft
// back with the reason. The real launcher and the fake ACP agent, with what it says it takes.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NodeWorkspaceFiles } from "../../../src/acp/workspace-files";
import { AgentLauncher, type AgentLaunch } from "../../../src/launch/agent-launcher";
import { Conversation, type ConversationHost, type Run, type RunRequest } from "../../../src/panel/conversation";
import type { HostMessage, SessionHeader } from "../../../src/protocol/messages";
import type { PromptImage, PromptPart } from "../../../src/protocol/prompt-parts";
import { eventually } from "../../helpers/eventually";
import { fakeCli } from "../../helpers/repo";
import { TEST_HEADER, TEST_SESSION_ID } from "../../helpers/test-session";

const image: PromptImage = { kind: "image", mimeType: "image/png", data: "iVBORw0KGgo=", name: "shot.png" };

/** A chat whose agent is the fake ACP agent, run by the one launcher as the editor runs it. */
class AcpHost implements ConversationHost {
  readonly sessionId = TEST_SESSION_ID;
  readonly rejected: string[] = [];
  constructor(
    private readonly launcher: AgentLauncher,
    private readonly workspace: string,
    private readonly env: Record<string, string>,
  ) {}
  header(): SessionHeader {
    return TEST_HEADER;
  }
  private launchOf(conversation: RunRequest["conversation"], parts: readonly PromptPart[] | undefined): Omit<AgentLaunch, "prompt"> {
    return {
      sessionId: this.sessionId,
      agent: { kind: "cli", choice: { cliPath: process.execPath, cliArgs: [fakeCli("fake-acp-agent.mjs"), "turns"], cliProfile: "acp", dialect: "auto" }, env: this.env },
      parts,
      conversation: { ...conversation, stateDir: this.workspace },
      cwd: this.workspace,
      workspaceRoots: [this.workspace],
      autoAnswer: {},
    };
  }
  startRun(request: RunRequest): Run {
    return this.launcher.start({ ...this.launchOf(request.conversation, request.parts), prompt: request.prompt, onChange: request.onChange });
  }
  imagesRefusal(parts: readonly PromptPart[], conversation: RunRequest["conversation"]): Promise<string | null> {
    return this.launcher.imagesRefusalOnceKnown(this.launchOf(conversation, parts));
  }
  openExternal(): void {}
  writeClipboard(): void {}
  runEditorAction(): void {}
  logRejected(reason: string): void {
    this.rejected.push(reason);
  }
  restriction(): string | null {
    return null;
  }
  agentName(): string {
    return "ACP agent";
  }
  persist(): void {}
  persistRunning(): void {}
}

describe("an image on an ACP agent's first turn", () => {
  let workspace: string;
  let record: string;
  let launcher: AgentLauncher;

  beforeEach(() => {
    workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "first-images-")));
    record = path.join(workspace, ".record.jsonl");
    launcher = new AgentLauncher({
      files: (roots) => new NodeWorkspaceFiles(roots),
      log: { info: () => {}, warn: () => {}, trace: () => {}, tracing: () => false },
    });
  });

  afterEach(() => {
    launcher.dispose();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  function chatWith(capabilities: object): { conversation: Conversation; messages: HostMessage[] } {
    const host = new AcpHost(launcher, workspace, { FAKE_ACP_RECORD: record, FAKE_ACP_PROMPT_CAPABILITIES: JSON.stringify(capabilities) });
    const conversation = new Conversation(host);
    const messages: HostMessage[] = [];
    const view = { post: (message: HostMessage) => messages.push(message) };
    conversation.attach(view);
    conversation.handleIntent(view, { type: "send", prompt: "What is in this screenshot?", images: [image] });
    return { conversation, messages };
  }

  /** What the fake agent recorded, one fact a line. */
  function facts(): Record<string, unknown>[] {
    if (!fs.existsSync(record)) return [];
    return fs.readFileSync(record, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  it("gives the draft back with the reason, and starts no turn, when the agent says it takes no images", async () => {
    const { conversation, messages } = chatWith({ image: false });
    const refused = await eventually("the prompt refused", () => messages.find((message) => message.type === "promptRefused"));
    assert.deepEqual(refused, { type: "promptRefused", sessionId: TEST_SESSION_ID, reason: "ACP agent does not take images: remove the image to send this prompt (nothing was sent)." });
    assert.equal(conversation.turnCount, 0, "no turn shows a failure");
    assert.ok(!messages.some((message) => message.type === "turn-started"));
    assert.equal(facts().filter((fact) => "prompt" in fact).length, 0, "the agent got no prompt");
  });

  it("sends the image in the first turn, to the agent started to ask, when the agent says it takes images", async () => {
    const { conversation, messages } = chatWith({ image: true });
    await eventually("the turn's end", () => conversation.lastTurn?.status === "completed");
    assert.ok(!messages.some((message) => message.type === "promptRefused"));
    const prompts = facts().flatMap((fact) => ("prompt" in fact ? [fact.prompt] : []));
    assert.deepEqual(prompts, [[{ type: "text", text: "What is in this screenshot?" }, { type: "image", mimeType: "image/png", data: image.data }]]);
    assert.equal(facts().filter((fact) => "agentStarted" in fact).length, 1);
  });
});
