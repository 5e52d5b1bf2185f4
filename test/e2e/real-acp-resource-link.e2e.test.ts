// A file picked with @ in the chat of a real VS Code goes to real Qwen Code over ACP as a `resource_link`, read off
// the wire: the agent runs behind test/fake-clis/acp-tee.js, which passes every JSON-RPC line on byte for byte and logs
// it. The session/prompt carries the link to the workspace's README.md and not the file's text, and Qwen Code reads the
// file from the link: its model (our mock) gets the text. (prompt-parts.e2e.test.ts checks the model's side alone.)
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { fakeCli } from "../helpers/repo";
import { QWEN } from "./real-acp-agents";
import { useRealAgentInPanel } from "./real-agent-in-panel";
import { mentionFile, openChat, turnOf } from "./workbench";

interface ContentBlock {
  type: string;
  uri?: string;
  name?: string;
  text?: string;
  resource?: { uri: string; text?: string };
}

/** The prompts the client sent the agent, as the tee logged them. */
function promptsSent(log: string): ContentBlock[][] {
  if (!fs.existsSync(log)) return [];
  return fs
    .readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { method?: string; params?: { prompt?: ContentBlock[] } })
    .filter((message) => message.method === "session/prompt")
    .map((message) => message.params?.prompt ?? []);
}

describe(`real ${QWEN.title} ${QWEN.version} over ACP in a real VS Code, its wire read: a file picked with @`, function () {
  this.timeout(300_000);
  const places = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-e2e-resource-link-"));
  const wire = path.join(places, "acp.ndjson");
  const settings: Record<string, unknown> = { "agentStream.cli.profile": QWEN.profile };
  const real = useRealAgentInPanel({
    name: `${QWEN.profile}-resource-link`,
    install: () => {
      // The extension runs the tee (node), which runs Qwen Code with its usual arguments.
      settings["agentStream.cli.args"] = [fakeCli("acp-tee.js"), ensureInstalled(QWEN.agent, QWEN.version), ...QWEN.args];
      return process.execPath;
    },
    prepareHome: (home) => QWEN.prepareHome(home),
    env: (home) => ({ ...QWEN.agent.env(home), ACP_TEE_LOG: wire }),
    settings,
  });
  after(() => fs.rmSync(places, { recursive: true, force: true }));

  it("goes to the agent as a resource_link to the workspace file, without its text, and the agent's model gets the text", async () => {
    const page = real.workbench.page;
    const dumps = path.join(places, "requests");
    real.mock.dumpRequestsTo(dumps);
    real.mock.script([], QWEN.api.answer(["Read it."]), QWEN.sideRequests);
    const chat = await openChat(page);
    const composer = await mentionFile(chat, "Explain @readm", "README.md");
    await composer.pressSequentially("briefly");
    await composer.press("Enter");
    const turn = turnOf(chat, "Explain briefly");
    await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });

    const readme = path.join(real.workbench.workspace, "README.md");
    const text = fs.readFileSync(readme, "utf8").trim();
    const [prompt] = promptsSent(wire);
    assert.ok(prompt !== undefined, "the tee logged the session/prompt");
    const links = prompt.filter((block) => block.type === "resource_link");
    assert.deepEqual(
      links.map((block) => [block.name, block.uri]),
      [["README.md", pathToFileURL(fs.realpathSync(readme)).href]],
    );
    assert.ok(!JSON.stringify(prompt).includes(text), "the prompt carried no text of the file");
    assert.ok(prompt.some((block) => block.type === "text" && (block.text ?? "").includes("Explain briefly")));
    // Qwen Code read the file from the link: its model got the text.
    const requests = fs.existsSync(dumps) ? fs.readdirSync(dumps).map((name) => fs.readFileSync(path.join(dumps, name), "utf8")) : [];
    assert.ok(requests.some((body) => body.includes(text)), "the model got README.md's text");
  });
});
