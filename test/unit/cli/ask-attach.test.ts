// `agent-stream ask --attach PATH`: files, folders and images of the workspace sent with the first prompt, as each
// agent takes them, through the built command and a real (fake) ACP agent.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { agentStream } from "../../helpers/agent-stream-cli";
import { fakeCli } from "../../helpers/repo";

/** A 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

describe("agent-stream ask --attach", function () {
  this.timeout(60_000);
  let workspace: string;
  let record: string;

  beforeEach(() => {
    workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "ask-attach-")));
    record = path.join(os.tmpdir(), `ask-attach-${process.pid}-${Date.now()}.jsonl`);
    fs.mkdirSync(path.join(workspace, "src"));
    fs.writeFileSync(path.join(workspace, "src", "a.ts"), "export const a = 1;\n");
    // Named like a text file: its bytes make it an image.
    fs.writeFileSync(path.join(workspace, "shot.txt"), PNG);
  });

  afterEach(() => {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(record, { force: true });
  });

  async function ask(attach: string[], capabilities: object | null, prompts = ["Explain", "And?"]) {
    const args = ["ask", "--json", "--profile", "acp", "--cli", process.execPath, `--arg=${fakeCli("fake-acp-agent.mjs")}`, "--arg=turns", "--cwd", workspace];
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", FAKE_ACP_RECORD: record };
    if (capabilities !== null) env.FAKE_ACP_PROMPT_CAPABILITIES = JSON.stringify(capabilities);
    return agentStream([...args, ...attach.flatMap((each) => ["--attach", each]), "--", ...prompts], { env, cwd: workspace });
  }

  function promptsReceived(): unknown[][] {
    if (!fs.existsSync(record)) return [];
    return fs.readFileSync(record, "utf8").trim().split("\n").flatMap((line) => {
      const fact = JSON.parse(line) as { prompt?: unknown[] };
      return fact.prompt === undefined ? [] : [fact.prompt];
    });
  }

  it("sends a file as a resource_link, a folder too, and an image found by its bytes, with the first prompt only", async () => {
    const run = await ask(["src/a.ts", "src", "shot.txt"], { image: true });
    assert.equal(run.code, 0, run.stderr);
    const [first, second] = promptsReceived();
    assert.deepEqual(first, [
      { type: "text", text: "Explain" },
      { type: "resource_link", uri: pathToFileURL(path.join(workspace, "src", "a.ts")).href, name: "src/a.ts" },
      { type: "resource_link", uri: pathToFileURL(path.join(workspace, "src")).href, name: "src/" },
      { type: "image", mimeType: "image/png", data: PNG.toString("base64") },
    ]);
    assert.deepEqual(second, [{ type: "text", text: "And?" }]);
  });

  it("fails the turn with the reason, and sends the agent nothing, when the ACP agent takes no images", async () => {
    const run = await ask(["shot.txt"], null, ["Explain"]);
    assert.notEqual(run.code, 0);
    assert.match(run.stdout, /ACP agent does not take images: remove the image to send this prompt \(nothing was sent\)/);
    assert.deepEqual(promptsReceived(), []);
  });

  it("refuses an image for a stream CLI that takes none before anything runs", async () => {
    const run = await agentStream(["ask", "--profile", "codex-stream", "--cli", fakeCli("report-invocation.js"), "--cwd", workspace, "--attach", "shot.txt", "--", "hi"], { cwd: workspace });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--attach: Codex does not take images/);
    assert.equal(run.stdout, "");
  });

  it("takes a missing path, or one outside the workspace (a symlink out included), as a usage error", async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "ask-attach-outside-"));
    try {
      fs.writeFileSync(path.join(outside, "secret.txt"), "secret");
      fs.symlinkSync(path.join(outside, "secret.txt"), path.join(workspace, "link.txt"));
      const missing = await ask(["nope.ts"], null);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /--attach "nope.ts": no such file or folder/);
      for (const attach of [path.join(outside, "secret.txt"), "link.txt"]) {
        const run = await ask([attach], null);
        assert.equal(run.code, 2, attach);
        assert.match(run.stderr, /is outside the workspace .*only its files can be attached/);
      }
      assert.deepEqual(promptsReceived(), [], "no agent ran");
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
