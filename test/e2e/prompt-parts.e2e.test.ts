// A prompt's parts in a real VS Code, as each agent takes them: a file picked with @ reaches real Qwen Code over ACP
// as a resource_link that it reads (its model gets the file's text from our mock), a pasted image reaches it as an
// image block; an agent that takes no images (the fake Locus CLI) is sent nothing and the composer says why, keeping
// the draft. The paste is synthesised in the webview, as Chromium builds one from the OS clipboard.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { FrameLocator } from "playwright-core";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { fakeCli, repoRoot } from "../helpers/repo";
import { eventually } from "../helpers/eventually";
import { QWEN } from "./real-acp-agents";
import { useRealAgentInPanel } from "./real-agent-in-panel";
import { mentionFile, openChat, turnOf, useWorkbench } from "./workbench";

/** A 1×1 PNG. */
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** What a paste of a screenshot gives the page: a ClipboardEvent whose clipboardData holds the image file. */
async function pasteImage(chat: FrameLocator): Promise<void> {
  const composer = chat.locator("textarea").first();
  await composer.evaluate((box, base64) => {
    // The page's own constructors (this file is compiled without the DOM's types).
    const page = globalThis as unknown as {
      DataTransfer: new () => { items: { add(file: unknown): void } };
      File: new (bits: unknown[], name: string, options: { type: string }) => unknown;
      ClipboardEvent: new (type: string, init: object) => Event;
    };
    const transfer = new page.DataTransfer();
    transfer.items.add(new page.File([Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))], "image.png", { type: "image/png" }));
    box.dispatchEvent(new page.ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, PNG_BASE64);
  await chat.locator(".image-chip").first().waitFor({ timeout: 30_000 });
}

describe(`prompt parts with real ${QWEN.title} ${QWEN.version} over ACP in a real VS Code`, function () {
  this.timeout(300_000);
  const real = useRealAgentInPanel({
    name: `${QWEN.profile}-parts`,
    install: () => ensureInstalled(QWEN.agent, QWEN.version),
    prepareHome: (places) => QWEN.prepareHome(places),
    env: (places) => QWEN.agent.env(places),
    settings: { "agentStream.cli.profile": QWEN.profile, "agentStream.cli.args": QWEN.args },
  });
  const dumps = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-e2e-parts-"));
  after(() => fs.rmSync(dumps, { recursive: true, force: true }));

  /** The bodies of the model requests made since the dump began, as text. */
  function modelRequests(folder: string): string[] {
    return fs.existsSync(folder) ? fs.readdirSync(folder).map((name) => fs.readFileSync(path.join(folder, name), "utf8")) : [];
  }

  it("sends a file picked with @ as a resource_link the agent reads, and a pasted image as an image", async () => {
    const page = real.workbench.page;
    const folder = path.join(dumps, "file");
    real.mock.dumpRequestsTo(folder);
    real.mock.script([], QWEN.api.answer(["Read it."]), QWEN.sideRequests);
    const chat = await openChat(page);
    const composer = await mentionFile(chat, "Explain @readm", "README.md");
    await composer.pressSequentially("briefly");
    await composer.press("Enter");
    const turn = turnOf(chat, "Explain briefly");
    await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    // The prompt carried no text of the file: the agent read it from the link, and its model got it.
    const readme = fs.readFileSync(path.join(real.workbench.workspace, "README.md"), "utf8").trim();
    assert.ok(modelRequests(folder).some((body) => body.includes(readme)), "the model got README.md's text");

    const imageFolder = path.join(dumps, "image");
    real.mock.dumpRequestsTo(imageFolder);
    await pasteImage(chat);
    await composer.fill("What is in this image?");
    await composer.press("Enter");
    await turnOf(chat, "What is in this image?").locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    // Qwen Code takes images (promptCapabilities.image) and tells a model it does not know for images that it got one.
    const last = await eventually("the image's request", () => modelRequests(imageFolder).find((body) => body.includes("What is in this image?")));
    assert.match(last, /image\/png/);
  });
});

describe("prompt parts in a real VS Code with an agent that takes no images", function () {
  this.timeout(240_000);
  const workbench = useWorkbench(
    { "agentStream.cli.path": fakeCli("fake-locus.js"), "agentStream.cli.env": { FAKE_SCENARIO: "answer" } },
    path.join(repoRoot, "examples", "sample-workspace"),
  );

  it("refuses a pasted image with a message, sends nothing, and keeps the draft and the image", async () => {
    const chat = await openChat(workbench.page);
    const composer = chat.locator("textarea").first();
    await pasteImage(chat);
    await composer.fill("What is in this image?");
    await composer.press("Enter");
    await chat.getByRole("alert").filter({ hasText: "Locus does not take images" }).waitFor({ timeout: 30_000 });
    assert.equal(await composer.inputValue(), "What is in this image?");
    assert.equal(await chat.locator(".image-chip").count(), 1);
    assert.equal(await turnOf(chat, "What is in this image?").count(), 0, "no turn started");
  });
});
