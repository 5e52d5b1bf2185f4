// The markdown of a tool that changed files: what `transcript --format markdown` prints and "Copy answer as markdown"
// copies. Read back through markdown-it, as a reader's viewer renders it, so a fence that closes early shows.
import * as assert from "node:assert/strict";
import MarkdownIt from "markdown-it";
import { randomUUID } from "node:crypto";
import * as os from "node:os";
import { blockToMarkdown, MAX_DIFF_CHARS, MAX_OUTPUT_CHARS, transcriptToMarkdown } from "../../../src/common/transcript-markdown";
import { createAdapter } from "../../../src/dialects/registry";
import { claudeProfile } from "../../../src/profiles/claude-profile";
import { PermissionBlockSchema, ToolCardSchema, type ToolDiff, type Transcript } from "../../../src/protocol/transcript";
import { LiveSession } from "../../../src/session/live-session";
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
});

describe("a finished turn in markdown, as the chat shows it", () => {
  /** Claude Code (played from its 2.1.330 recording) taking "Also say it in French." while it answers. */
  async function steeredTurn(): Promise<Transcript> {
    const input = claudeProfile.invocation({ prompt: "Read notes.txt and tell me what it says.", userArgs: null, conversation: { id: randomUUID(), continues: false, stateDir: os.tmpdir() } }).input;
    assert.ok(input?.steer !== undefined);
    let live: LiveSession | undefined;
    let steered = false;
    live = LiveSession.start({
      adapter: createAdapter("claude"),
      process: { command: fakeCli("stdin-claude-steered.js"), args: [], cwd: os.tmpdir(), env: { ...process.env, FAKE_MESSAGES: "2" }, input, inactivityTimeoutMs: 0 },
      isRunOver: input.isRunOver,
      onChange: (change) => {
        if (change.kind === "text-appended" && !steered) steered = live?.steer("Also say it in French.") ?? false;
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

  it("shows the turn's usage once, in the footer's words, not each result's count as well", async () => {
    const text = transcriptToMarkdown(await steeredTurn());
    assert.doesNotMatch(text, /_usage:/);
    assert.match(text, /^_240 in · 8 out · \$0\.0017 · <1% of 1M context_$/m);
  });
});
