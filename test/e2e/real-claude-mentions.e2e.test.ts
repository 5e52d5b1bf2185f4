// A file picked with @ in the chat of a real VS Code reaches the real, published Claude Code 2.1.330 run directly
// (profile `claude`, stream-json) as what its model actually gets: the user message's text names it as `@README.md`
// under the prompt. Claude 2.1.330 does not expand `@path` in a stream-json message (recorded in docs/chat.md), so the
// reference is text the model reads; the model (our mock) then reads the file with Claude's Read tool, and the file's
// text comes back to it in the same turn. A pasted image reaches the model as an image block of the user message.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { FrameLocator } from "playwright-core";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { anthropicStream } from "../../scripts/recording/anthropic-replies";
import { claudeCli } from "../../scripts/recording/claude-cli";
import type { MockReply } from "../../scripts/recording/mock-model-server";
import { useRealAgentInPanel } from "./real-agent-in-panel";
import { mentionFile, newSession, openChat, RESULTS, turnOf } from "./workbench";

const VERSION = "2.1.330";
/** A 1×1 PNG. */
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** What a paste of a screenshot gives the page: a ClipboardEvent whose clipboardData holds the image file. */
async function pasteImage(chat: FrameLocator): Promise<void> {
  await chat.locator("textarea").first().evaluate((box, base64) => {
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

/** The text blocks of the last user message of a model request, joined: what the model was just told. */
function lastUserText(body: unknown): string {
  const messages = (body as { messages?: { role: string; content: string | { type: string; text?: string }[] }[] }).messages ?? [];
  const last = [...messages].reverse().find((message) => message.role === "user");
  if (last === undefined) return "";
  if (typeof last.content === "string") return last.content;
  return last.content.map((block) => (block.type === "text" ? (block.text ?? "") : "")).join("\n");
}

describe(`real Claude Code ${VERSION} run directly in a real VS Code: a file picked with @, an image pasted`, function () {
  this.timeout(300_000);
  const real = useRealAgentInPanel({
    name: "claude-mentions",
    install: () => ensureInstalled(claudeCli, VERSION),
    prepareHome: (places) => claudeCli.prepareHome(places, { name: "panel", description: "", args: () => [], replies: () => [] }),
    env: (places) => claudeCli.env(places),
    settings: { "agentStream.cli.profile": "claude" },
  });
  const { workbench } = real;

  it("reaches Claude's model as an @path under the prompt, and the model reads the file with Claude's Read tool", async () => {
    const page = workbench.page;
    const readme = path.join(workbench.workspace, "README.md");
    const heard: unknown[] = [];
    const listening = (reply: MockReply): MockReply => (request, response) => {
      heard.push(request.body);
      return reply(request, response);
    };
    const read = { type: "tool_use" as const, id: "toolu_e2e_mention_read", name: "Read", input: { file_path: readme } };
    real.mock.script([
      listening(anthropicStream({ blocks: [read], stopReason: "tool_use" })),
      listening(anthropicStream({ blocks: [{ type: "text", chunks: ["It is the sample workspace."] }], stopReason: "end_turn" })),
    ], anthropicStream({ blocks: [{ type: "text", chunks: ["Done."] }], stopReason: "end_turn" }));

    const chat = await openChat(page);
    const composer = await mentionFile(chat, "Explain @readm", "README.md");
    await composer.pressSequentially("briefly");
    await composer.press("Enter");
    const turn = turnOf(chat, "Explain briefly");
    await turn.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    assert.equal(await turn.locator(".prompt-context").innerText(), "With README.md");
    await page.screenshot({ path: path.join(RESULTS, "e2e-claude-direct-mention.png") });

    // What Claude's model was told with the prompt: the words, then the attached file as an @path reference.
    assert.equal(heard.length, 2, "one request for the prompt, one after the read");
    const told = lastUserText(heard[0]);
    assert.ok(told.includes("Explain briefly"), `the model did not get the prompt: ${told.slice(-600)}`);
    assert.match(told, /Files and folders the user attached \(read them as needed\):\n- @README\.md/);
    // The reference named a file Claude could read: its Read answered the model with the file's text.
    const content = fs.readFileSync(readme, "utf8").trim();
    assert.ok(JSON.stringify(heard[1]).includes(content), "the model got README.md's text from Claude's Read");
  });

  it("gives Claude's model a pasted image as an image block of the user message, beside the prompt", async () => {
    const page = workbench.page;
    let heard: unknown;
    const listening: MockReply = (request, response) => {
      heard = request.body;
      return anthropicStream({ blocks: [{ type: "text", chunks: ["A dot."] }], stopReason: "end_turn" })(request, response);
    };
    real.mock.script([listening], anthropicStream({ blocks: [{ type: "text", chunks: ["Done."] }], stopReason: "end_turn" }));
    await newSession(page);
    const chat = await openChat(page);
    await pasteImage(chat);
    const composer = chat.locator("textarea").first();
    await composer.fill("What is in this image?");
    await composer.press("Enter");
    await turnOf(chat, "What is in this image?").locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    const messages = (heard as { messages?: { role: string; content: string | { type: string; source?: { type: string; media_type: string; data: string } }[] }[] } | undefined)?.messages ?? [];
    // Claude Code 2.1.330 ends the request with a message of role system: the user's is the last of role user.
    const last = messages.filter((message) => message.role === "user").at(-1);
    const images = typeof last?.content === "string" ? [] : (last?.content ?? []).filter((block) => block.type === "image");
    assert.deepEqual(images.map((block) => block.source), [{ type: "base64", media_type: "image/png", data: PNG_BASE64 }]);
    assert.match(lastUserText(heard), /What is in this image\?/);
  });
});
