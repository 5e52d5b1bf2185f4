// The markdown of a tool that changed files: what `transcript --format markdown` prints and "Copy answer as markdown"
// copies. Read back through markdown-it, as a reader's viewer renders it, so a fence that closes early shows.
import * as assert from "node:assert/strict";
import MarkdownIt from "markdown-it";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { AcpConversation } from "../../../src/acp/acp-conversation";
import { NodeWorkspaceFiles } from "../../../src/acp/workspace-files";
import { LOST_SESSION_MESSAGE } from "../../../src/dialects/acp/acp-event-translator";
import { blockToMarkdown, MAX_DIFF_CHARS, MAX_OUTPUT_CHARS, transcriptToMarkdown } from "../../../src/common/transcript-markdown";
import { createAdapter } from "../../../src/dialects/registry";
import { claudeProfile } from "../../../src/profiles/claude-profile";
import { PermissionBlockSchema, ToolCardSchema, TranscriptSchema, type ToolDiff, type Transcript } from "../../../src/protocol/transcript";
import { LiveSession } from "../../../src/session/live-session";
import { cancellingDesk } from "../../helpers/acp-harness";
import { fixture, transcriptOf } from "../../helpers/dialect-harness";
import { fakeCli } from "../../helpers/repo";

const markdown = new MarkdownIt();

function editCard(diffs: ToolDiff[], status: "succeeded" | "failed" | "abandoned" = "succeeded") {
  return ToolCardSchema.parse({
    kind: "tool",
    tool: "edit",
    toolId: "t1",
    status,
    parameters: { path: "/work/notes.md" },
    durationMs: 12,
    error: null,
    diffs,
  });
}

/** The rendered document's code blocks: each fence's language and its text. */
function fences(text: string): { info: string; content: string }[] {
  return markdown
    .parse(text, {})
    .filter((token) => token.type === "fence")
    .map((token) => ({ info: token.info, content: token.content }));
}

describe("a tool's changed files in markdown", () => {
  it("shows each changed file's path, its counts and the changed lines with their context", () => {
    const before = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n";
    const after = "one\ntwo\nthree\nFOUR\nfive\nsix\nseven\n";
    const text = blockToMarkdown(editCard([{ path: "/work/notes.md", oldText: before, newText: after }]));
    assert.match(text, /^✓ \*\*edit\*\* `\/work\/notes\.md` succeeded \(12 ms\)/);
    assert.match(text, /`\/work\/notes\.md` \(\+1 −1\)/);
    assert.deepEqual(fences(text), [{ info: "diff", content: "⋯ 1 unchanged line\n  two\n  three\n- four\n+ FOUR\n  five\n  six\n⋯ 1 unchanged line\n" }]);
  });

  it("calls a file the agent created new, every line added", () => {
    const text = blockToMarkdown(editCard([{ path: "/work/new.ts", oldText: null, newText: "export const a = 1;\nexport const b = 2;\n" }]));
    assert.match(text, /`\/work\/new\.ts` \(new file, \+2\)/);
    assert.deepEqual(fences(text), [{ info: "diff", content: "+ export const a = 1;\n+ export const b = 2;\n" }]);
  });

  it("shows every file of a tool that changed several, in order", () => {
    const text = blockToMarkdown(
      editCard([
        { path: "/work/a.txt", oldText: "a\n", newText: "A\n" },
        { path: "/work/b.txt", oldText: null, newText: "b\n" },
      ]),
    );
    assert.deepEqual(fences(text).map((fence) => fence.content), ["- a\n+ A\n", "+ b\n"]);
    assert.ok(text.indexOf("/work/a.txt` (") < text.indexOf("/work/b.txt` ("));
  });

  it("keeps a file that holds markdown fences inside its own block: the file cannot end the block or add to the page", () => {
    const newText = "# Guide\n\n```sh\nrm -rf build\n```\n\n````\nfour\n````\n\n<script>alert(1)</script>\n";
    const text = blockToMarkdown(editCard([{ path: "/work/GUIDE.md", oldText: null, newText }]));
    const expected = newText.trimEnd().split("\n").map((line) => `+ ${line}`).join("\n") + "\n";
    assert.deepEqual(fences(text), [{ info: "diff", content: expected }]);
    const rendered = markdown.render(text);
    assert.doesNotMatch(rendered, /<h1>|<script>/, "nothing of the file is rendered as the page's own markdown or HTML");
  });

  it("cuts a huge change and says how much more there was", () => {
    const newText = "x".repeat(99) + "\n" + Array.from({ length: 2999 }, (_, i) => `line ${i}`).join("\n") + "\n";
    const text = blockToMarkdown(editCard([{ path: "/work/big.log", oldText: null, newText }]));
    const [fence] = fences(text);
    assert.equal(fence.content.length, MAX_DIFF_CHARS + 1, "the shown part, and the fence's closing line");
    const full = newText.trimEnd().split("\n").map((line) => `+ ${line}`).join("\n");
    assert.match(text, new RegExp(`… ${(full.length - MAX_DIFF_CHARS).toLocaleString("en-US")} more characters not shown`));
  });

  it("calls the change of a tool that did not succeed proposed, not made", () => {
    for (const status of ["failed", "abandoned"] as const) {
      const text = blockToMarkdown(editCard([{ path: "/work/a.txt", oldText: "a\n", newText: "A\n" }], status));
      assert.match(text, /`\/work\/a\.txt` \(\+1 −1, proposed\)/, status);
      assert.deepEqual(fences(text).map((fence) => fence.content), ["- a\n+ A\n"]);
    }
  });

  it("says what a call is about in the agent's own title, else from its parameters", () => {
    const card = editCard([]);
    assert.equal(blockToMarkdown({ ...card, title: "Write notes.md" }), "✓ **edit** `Write notes.md` succeeded (12 ms)");
    assert.equal(blockToMarkdown({ ...card, title: "edit" }), "✓ **edit** succeeded (12 ms)", "a title that is the tool's name adds nothing");
    const backticks = blockToMarkdown({ ...card, title: "Run `make`" });
    assert.equal(backticks, "✓ **edit** `` Run `make` `` succeeded (12 ms)", "a backtick cannot end the span");
    assert.match(markdown.render(backticks), /<code>Run `make`<\/code> succeeded/, "and the title is shown as it was");
    const multiline = blockToMarkdown({ ...card, title: "Run\n\n# not a heading\r\nnow" });
    assert.equal(multiline, "✓ **edit** `Run # not a heading now` succeeded (12 ms)", "a blank line cannot end the paragraph");
    assert.doesNotMatch(markdown.render(multiline), /<h1>/);
  });

  it("writes a tool that changed nothing as its one line", () => {
    assert.equal(blockToMarkdown(editCard([])), "✓ **edit** `/work/notes.md` succeeded (12 ms)");
  });

  it("says of an edit known only by the part it replaced that the diff is that part", () => {
    const text = blockToMarkdown(editCard([{ path: "/work/a.txt", oldText: "green", newText: "red", excerpt: true }]));
    assert.match(text, /`\/work\/a\.txt` \(\+1 −1, the replaced part only\)/);
  });
});

describe("a tool's output in markdown", () => {
  const commandCard = (output: string) => ({ ...editCard([]), tool: "Bash", output });

  it("shows what a command printed as text, a code fence in it included, not as a fence inside a fence", () => {
    const output = "Before\n```ts\nconst x = 1;\n```\nAfter";
    const text = blockToMarkdown(commandCard(output));
    assert.deepEqual(fences(text), [{ info: "text", content: output + "\n" }]);
  });

  it("cuts a huge output and says how much more there was", () => {
    const output = "y".repeat(MAX_OUTPUT_CHARS + 1234);
    const text = blockToMarkdown(commandCard(output));
    assert.equal(fences(text)[0]?.content.length, MAX_OUTPUT_CHARS + 1);
    assert.match(text, /… 1,234 more characters not shown/);
  });
});

describe("a permission request in markdown", () => {
  const request = (outsideWorkspace: string[]) =>
    PermissionBlockSchema.parse({
      kind: "permission",
      toolId: "t1",
      title: "Edit hosts",
      options: [{ id: "y", name: "Allow", kind: "allow_once" }],
      decision: "allowed",
      optionId: "y",
      answeredBy: "user",
      outsideWorkspace,
    });

  it("says which files it named outside the workspace", () => {
    assert.equal(blockToMarkdown(request(["/etc/hosts"])), "🔐 **Permission:** Edit hosts — allowed (Allow) by you · ⚠ outside the workspace: `/etc/hosts`");
  });

  it("says nothing more of a request inside the workspace", () => {
    assert.equal(blockToMarkdown(request([])), "🔐 **Permission:** Edit hosts — allowed (Allow) by you");
  });
});

describe("a message sent into the running turn, in markdown", () => {
  it("is quoted whole, every line of it, under who sent it", () => {
    assert.equal(blockToMarkdown({ kind: "steer", text: "Also check\nthe docs" }), "> **You, while the agent worked:** Also check\n> the docs");
  });

  it("says the agent never took it, and where it went", () => {
    assert.equal(blockToMarkdown({ kind: "steer", text: "Also check the docs", untaken: "sent next" }), "> **You, while the agent worked — not taken; sent as the next message:** Also check the docs");
    assert.equal(blockToMarkdown({ kind: "steer", text: "Also check the docs", untaken: "queued" }), "> **You, while the agent worked — not taken; put back in the queue:** Also check the docs");
  });
});

describe("a finished turn in markdown, as the chat shows it", () => {
  /**
   * Claude Code (played from its 2.1.330 recording) taking "Also say it in French." while it answers; `written` is
   * what goes to its stdin (the words and the editor context the agent gets), and it echoes all of it.
   */
  async function steeredTurn(written = "Also say it in French."): Promise<Transcript> {
    const input = claudeProfile.invocation({ prompt: "Read notes.txt and tell me what it says.", userArgs: null, conversation: { id: randomUUID(), continues: false, stateDir: os.tmpdir() } }).input;
    assert.ok(input?.steer !== undefined);
    let live: LiveSession | undefined;
    let steered = false;
    live = LiveSession.start({
      adapter: createAdapter("claude"),
      process: { command: fakeCli("stdin-claude-steered.js"), args: [], cwd: os.tmpdir(), env: { ...process.env, FAKE_MESSAGES: "2" }, input, inactivityTimeoutMs: 0 },
      isRunOver: input.isRunOver,
      onChange: (change) => {
        if (change.kind === "text-appended" && !steered) steered = live?.steer(written, "Also say it in French.") ?? false;
      },
    });
    const transcript = await live.finished;
    assert.equal(steered, true);
    return transcript;
  }

  it("shows a message sent into the running turn once, as the user sent it, though Claude echoed it", async () => {
    const transcript = await steeredTurn();
    // The echo stays in the transcript's data: it is what the agent took.
    assert.ok(transcript.blocks.some((block) => block.kind === "status" && block.status === "prompt"));
    const text = transcriptToMarkdown(transcript);
    assert.equal(text.split("Also say it in French.").length - 1, 1, text);
    assert.ok(text.includes("> **You, while the agent worked:** Also say it in French."), text);
    assert.ok(text.includes("en français"), text);
  });

  it("shows a steered message once when the agent echoes it with the editor context sent after the words", async () => {
    const text = transcriptToMarkdown(await steeredTurn("Also say it in French.\n\nThe user's editor: notes.txt, line 3"));
    assert.equal(text.split("Also say it in French.").length - 1, 1, text);
    assert.ok(text.includes("> **You, while the agent worked:** Also say it in French."), text);
    assert.doesNotMatch(text, /The user's editor/);
  });

  it("shows the turn's usage once, in the footer's words, not each result's count as well", async () => {
    const text = transcriptToMarkdown(await steeredTurn());
    assert.doesNotMatch(text, /_usage:/);
    assert.match(text, /^_240 in · 8 out · \$0\.0017 · <1% of 1M context_$/m);
  });
});

describe("a replayed recording of several prompts in one run, in markdown", () => {
  /** `file` under test/fixtures, read as `agent-stream transcript --format markdown` reads it. */
  async function markdownOf(dialect: "claude" | "pi", file: string): Promise<string> {
    const [folder, ...name] = file.split("/");
    return transcriptToMarkdown(await transcriptOf(fixture(folder, name.join("/")), createAdapter(dialect)));
  }

  for (const [dialect, file] of [
    ["claude", "claude-recorded/2.1.330/two-messages.ndjson"],
    ["claude", "claude-recorded/2.1.330/two-messages-queued.ndjson"],
    ["pi", "pi-recorded/0.73.1/two-messages.ndjson"],
    ["pi", "pi/two-messages.ndjson"],
  ] as const) {
    it(`shows the words of the later prompt between the two answers (${file})`, async () => {
      const text = await markdownOf(dialect, file);
      assert.match(text, /Nice to meet you, Ada!\n\n> \*\*You:\*\* What is my name\?\n\nYour name is Ada\./);
      assert.equal(text.split("What is my name?").length - 1, 1, text);
    });
  }

  it("shows a message the recording's user sent into the running turn, which only the agent's echo holds", async () => {
    for (const file of ["claude-recorded/2.1.330/steer-mid-answer.ndjson", "pi-recorded/0.73.1/steer-mid-answer.ndjson"]) {
      const text = await markdownOf(file.startsWith("pi") ? "pi" : "claude", file);
      assert.match(text, /> \*\*You:\*\* Also say it in French\.\n\nThe notes say the build is green/, file);
    }
  });

  it("puts no words in the user's mouth where the CLI echoed the prompt only after its answer (Claude Code 2.1.197)", async () => {
    const text = await markdownOf("claude", "claude-recorded/2.1.197/two-messages.ndjson");
    assert.match(text, /Nice to meet you, Ada!\n\nYour name is Ada\./);
    assert.doesNotMatch(text, /You:|Message 2/);
  });
});

describe("a notice that explains the answer, in markdown", () => {
  it("keeps the notice that the agent could not continue the earlier conversation", async () => {
    const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "md-lost-")));
    const chat = new AcpConversation({
      command: process.execPath,
      args: [fakeCli("fake-acp-agent.mjs"), "load"],
      env: { ...process.env, FAKE_ACP_LOAD: "refuse" },
      workspaceRoots: [workspace],
      files: new NodeWorkspaceFiles([workspace]),
      permissions: cancellingDesk([workspace]),
      savedSessionId: "saved-7",
    });
    try {
      const text = transcriptToMarkdown(await chat.prompt([{ type: "text", text: "go on" }]).finished);
      assert.equal(text.split(LOST_SESSION_MESSAGE).length - 1, 1, text);
      assert.ok(text.includes(`> ℹ️ ${LOST_SESSION_MESSAGE}`), text);
    } finally {
      await chat.dispose();
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });

  it("keeps a line that says the answer may be cut short, and leaves out progress", () => {
    const transcript = TranscriptSchema.parse({
      sessionId: null,
      dialect: "pi",
      status: "completed",
      done: { exitCode: 0, durationMs: 900, toolsUsed: [], tokensUsed: 120, success: true, synthesized: false },
      problems: [],
      blocks: [
        { kind: "status", status: "retrying", message: "Retrying (attempt 2 of 3)" },
        { kind: "text", text: "The first half" },
        { kind: "status", status: "truncated", message: "The model reached its output limit; the answer may be cut short." },
        { kind: "status", status: "usage", message: "120 tokens" },
      ],
    });
    const text = transcriptToMarkdown(transcript);
    assert.match(text, /The first half\n\n> ℹ️ The model reached its output limit; the answer may be cut short\.\n/);
    assert.doesNotMatch(text, /Retrying|_usage/);
  });
});
