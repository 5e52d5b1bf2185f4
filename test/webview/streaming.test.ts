// A turn as it streams: deltas across frames, painting at most once a frame, cards that change state, and the
// announcement at the end.
import * as assert from "node:assert/strict";
import * as cli from "../helpers/stream-builder";
import { permissionBlock, toolBlock } from "../helpers/turn-builder";
import { WebviewHarness, type TestHostMessage } from "../helpers/webview-harness";
import { ANSWER_MARKDOWN, changeMessages, deltas, recordTurn, snapshotOf, type RecordedTurn } from "./conversations";

declare global {
  interface Window {
    __frozenSegments?: Element[];
    __frozenMutations?: number;
    __openCode?: { code: Element; firstLine: Node; firstLineText: string | null; tailRenders: number };
  }
}

const EMPTY: TestHostMessage = { type: "snapshot", turns: [], restriction: null };

describe("webview: streaming a turn", function () {
  let harness: WebviewHarness;

  before(async function () {
    harness = await WebviewHarness.open({ viewport: { width: 420, height: 600 } });
  });

  after(async function () {
    await harness?.close();
  });

  beforeEach(async function () {
    await harness.send(EMPTY);
    await harness.clearIntents();
  });

  const page = () => harness.page;
  const lastTurn = () => harness.page.locator(".turn").last();

  /** Sends the turn's start and its changes up to (not including) change `end`, one message per frame. */
  async function streamUntil(turn: RecordedTurn, end: number, perFrame = 1): Promise<void> {
    await harness.send(turn.started);
    await harness.sendOverFrames(changeMessages(turn).slice(0, end), perFrame);
  }

  async function liveRegionSays(words: string): Promise<void> {
    await page().waitForFunction((expected) => document.querySelector("[aria-live=polite]")?.textContent === expected, words);
  }

  function indexOfChange(turn: RecordedTurn, predicate: (text: string) => boolean): number {
    let text = "";
    const index = turn.changes.findIndex((change) => {
      if (change.kind === "text-appended") text += change.text;
      if (change.kind === "block-added" && change.block.kind === "text") text += change.block.text;
      return predicate(text);
    });
    assert.notEqual(index, -1, "the turn never reaches that point");
    return index;
  }

  it("renders text that arrived in hundreds of deltas over many frames exactly as the whole text rendered at once", async function () {
    const turn = recordTurn(0, "explain", [cli.start(), ...deltas(ANSWER_MARKDOWN, 3), cli.done({ duration: 900 })]);
    await streamUntil(turn, turn.changes.length, 4);
    await lastTurn().locator(".turn-footer").waitFor();
    const streamed = await lastTurn().locator(".answer-text").innerHTML();
    await harness.send(snapshotOf([turn]));
    await page().waitForFunction(() => document.querySelectorAll(".turn").length === 1 && !!document.querySelector(".turn-footer"));
    assert.equal(await lastTurn().locator(".answer-text").innerHTML(), streamed);
    assert.match(await lastTurn().locator(".answer-text pre code").innerText(), /cache\.get\(token\);\n\n {2}return cached/);
  });

  it("paints a burst of deltas at most once per animation frame", async function () {
    const text = "word ".repeat(600);
    const turn = recordTurn(0, "burst", [cli.start(), ...deltas(text, 2), cli.done()]);
    await harness.send(turn.started);
    await lastTurn().waitFor();
    const messages = changeMessages(turn);
    const { tailWrites, frames } = await page().evaluate(async (list) => {
      const transcript = document.querySelector(".transcript")!;
      let writes = 0;
      const observer = new MutationObserver((records) => {
        for (const record of records) if (record.target instanceof Element && record.target.classList.contains("markdown-tail")) writes++;
      });
      observer.observe(transcript, { childList: true, subtree: true });
      let counted = 0;
      let counting = true;
      const count = () => {
        counted++;
        if (counting) requestAnimationFrame(count);
      };
      requestAnimationFrame(count);
      for (const message of list) window.postMessage(message, "*");
      await new Promise<void>((resolve) => {
        const check = () => (document.querySelector(".turn-footer") ? resolve() : requestAnimationFrame(check));
        check();
      });
      counting = false;
      observer.takeRecords();
      observer.disconnect();
      return { tailWrites: writes, frames: counted };
    }, messages);
    assert.ok(messages.length > 500, `only ${messages.length} messages`);
    assert.ok(tailWrites >= 1 && tailWrites <= frames, `${tailWrites} tail paints in ${frames} frames`);
  });

  it("never touches a finished segment again while the tail keeps growing", async function () {
    const paragraphs = Array.from({ length: 8 }, (_, i) => `Paragraph ${i} explains one more detail of the token cache.`);
    const turn = recordTurn(0, "segments", [cli.start(), ...deltas(paragraphs.join("\n\n"), 5), cli.done()]);
    const midway = indexOfChange(turn, (text) => text.includes("Paragraph 3 explains")) + 1;
    await streamUntil(turn, midway, 3);
    await page().waitForFunction(() => document.querySelector(".answer-text")?.textContent?.includes("Paragraph 3 explains"));
    const frozen = await page().evaluate(() => {
      const segments = Array.from(document.querySelectorAll(".answer-text .markdown-segment:not(.markdown-tail)"));
      window.__frozenSegments = segments;
      window.__frozenMutations = 0;
      const observer = new MutationObserver((records) => (window.__frozenMutations = (window.__frozenMutations ?? 0) + records.length));
      for (const segment of segments) observer.observe(segment, { subtree: true, childList: true, characterData: true, attributes: true });
      return segments.map((segment) => segment.textContent?.trim());
    });
    assert.deepEqual(frozen, paragraphs.slice(0, 3));
    await harness.sendOverFrames(changeMessages(turn).slice(midway), 3);
    await lastTurn().locator(".turn-footer").waitFor();
    const after = await page().evaluate(() => {
      const segments = Array.from(document.querySelectorAll(".answer-text .markdown-segment"));
      const kept = (window.__frozenSegments ?? []).every((segment, i) => segments[i] === segment && segment.isConnected);
      return { kept, mutations: window.__frozenMutations, tail: document.querySelector(".answer-text .markdown-tail")?.textContent?.trim() };
    });
    assert.deepEqual(after, { kept: true, mutations: 0, tail: paragraphs[7] });
  });

  it("keeps a code fence opened in the tail open across blank lines until it closes", async function () {
    const text = "Intro\n\n```py\nfirst = 1\n\n\nsecond = 2\n```\n\nAfter the code.";
    const turn = recordTurn(0, "fence", [cli.start(), ...deltas(text, 2), cli.done()]);
    const beforeClose = indexOfChange(turn, (t) => t.includes("second = 2\n"));
    await streamUntil(turn, beforeClose + 1);
    await page().waitForFunction(() => document.querySelector(".answer-text pre code")?.textContent?.includes("second = 2"));
    assert.equal(await lastTurn().locator(".answer-text pre").count(), 1);
    assert.equal(await lastTurn().locator(".answer-text pre code").textContent(), "first = 1\n\n\nsecond = 2\n");
    await harness.sendOverFrames(changeMessages(turn).slice(beforeClose + 1));
    await lastTurn().locator(".turn-footer").waitFor();
    assert.deepEqual(await lastTurn().locator(".answer-text p").allTextContents(), ["Intro", "After the code."]);
    assert.equal((await lastTurn().locator(".answer-text .markdown-tail").textContent())?.trim(), "After the code.");
  });

  it("links a reference defined at the end of the answer once the answer is complete", async function () {
    const text = "See [the guide][guide] and [the spec][spec].\n\nMore detail here.\n\n[guide]: https://example.com/guide\n[spec]: command:evil";
    const turn = recordTurn(0, "refs", [cli.start(), ...deltas(text, 4), cli.done()]);
    await streamUntil(turn, turn.changes.length, 3);
    await lastTurn().locator(".turn-footer").waitFor();
    const anchors = await lastTurn().locator(".answer-text a").evaluateAll((nodes) => nodes.map((a) => [a.textContent, a.getAttribute("href")]));
    assert.deepEqual(anchors, [
      ["the guide", "https://example.com/guide"],
      ["the spec", null],
    ]);
  });

  it("keeps thinking open while it streams and folds it when the answer moves on", async function () {
    const turn = recordTurn(0, "think", [cli.start(), cli.thinking("Reading "), cli.thinking("the cache code."), cli.textDelta("Done."), cli.done()]);
    const answerStarts = turn.changes.findIndex((c) => c.kind === "block-added" && c.block.kind === "text");
    await streamUntil(turn, answerStarts);
    const thinking = lastTurn().locator("details.thinking");
    await page().waitForFunction(() => document.querySelector("details.thinking")?.textContent?.includes("the cache code."));
    assert.equal(await thinking.evaluate((node: HTMLDetailsElement) => node.open), true);
    assert.equal(await thinking.locator("summary").textContent(), "Thinking…");
    await harness.sendOverFrames(changeMessages(turn).slice(answerStarts));
    await lastTurn().locator(".turn-footer").waitFor();
    assert.equal(await thinking.evaluate((node: HTMLDetailsElement) => node.open), false);
  });

  it("turns a tool card from a spinner into a check with its duration", async function () {
    const turn = recordTurn(0, "tool", [cli.start(), cli.toolStarted("Grep", "g1", { pattern: "TODO" }), cli.toolCompleted("Grep", "g1", { duration: 1250 })]);
    const completes = turn.changes.findIndex((c) => c.kind === "block-updated");
    await streamUntil(turn, completes);
    const card = lastTurn().locator(".tool-card");
    await card.locator(".codicon-loading.codicon-modifier-spin").waitFor();
    assert.equal(await card.locator(".tool-duration").textContent(), "");
    await harness.sendOverFrames(changeMessages(turn).slice(completes));
    await card.locator(".codicon-check").waitFor();
    assert.equal(await card.locator(".codicon-loading").count(), 0);
    assert.equal(await card.locator(".tool-duration").textContent(), "1.3 s");
    assert.equal(await card.getAttribute("aria-label"), "Grep: succeeded");
  });

  it("turns a tool card into a cross with its error text when the tool fails", async function () {
    const turn = recordTurn(0, "tool", [cli.start(), cli.toolStarted("Bash", "b1", { command: "make" }), cli.toolCompleted("Bash", "b1", { success: false, duration: 80, error: "make: *** No rule to make target" })]);
    await streamUntil(turn, turn.changes.length);
    const card = lastTurn().locator(".tool-card");
    await card.locator(".codicon-error").waitFor();
    assert.equal(await card.locator(".tool-error").textContent(), "make: *** No rule to make target");
    assert.equal(await card.locator(".tool-duration").textContent(), "80 ms");
  });

  it("adds an error card mid-stream whose buttons post errorAction intents for its turn", async function () {
    const turn = recordTurn(4, "auth", [cli.start(), cli.textDelta("Let me check."), cli.errorEvent("AUTH_EXPIRED", "Your login expired.")]);
    await streamUntil(turn, turn.changes.length);
    await lastTurn().locator(".error-card").getByRole("button", { name: "Log In" }).click();
    assert.deepEqual(await harness.intents(), [{ type: "errorAction", action: "logIn", turnId: 4 }]);
  });

  it("announces a completed turn in the polite live region with its tools and duration", async function () {
    const turn = recordTurn(0, "done", [cli.start(), cli.toolStarted("Read", "r"), cli.toolCompleted("Read", "r"), cli.toolStarted("Grep", "g"), cli.toolCompleted("Grep", "g"), cli.toolStarted("Edit", "e"), cli.toolCompleted("Edit", "e"), cli.done({ duration: 4200 })]);
    await streamUntil(turn, turn.changes.length);
    await liveRegionSays("Answer complete: 3 tools, 4.2 s");
  });

  it("announces Failed with the reason when a turn fails", async function () {
    const turn = recordTurn(0, "fail", [cli.start(), cli.errorEvent("NETWORK_TIMEOUT", "No answer from api.example.com in 30 s\nretrying did not help"), cli.done({ exitCode: 1 })]);
    await streamUntil(turn, turn.changes.length);
    await liveRegionSays("Failed: No answer from api.example.com in 30 s");
  });

  it("names the error that ended the turn, not a recoverable one reported after it (as the status bar does)", async function () {
    const turn = recordTurn(0, "fail", [
      cli.start(),
      cli.errorEvent("PROCESS_CRASHED", "The agent exited with code 1.\nstderr: segfault", false),
      cli.errorEvent("UNKNOWN", "Could not save the session file", true),
      cli.done({ exitCode: 1 }),
    ]);
    await streamUntil(turn, turn.changes.length);
    await liveRegionSays("Failed: The agent exited with code 1.");
  });

  it("posts stop from the Stop button, then ends the turn as Stopped in the footer and the live region", async function () {
    const turn = recordTurn(0, "long job", [cli.start(), cli.textDelta("Working on it"), { userStop: true }, cli.done({ exitCode: 130, success: false })]);
    // The session reports the final state just before `done`; the host sends both in one message.
    const doneAt = turn.changes.findIndex((c) => c.kind === "state" && c.state === "canceled");
    await streamUntil(turn, doneAt);
    await page().getByRole("button", { name: "Stop" }).click();
    assert.deepEqual(await harness.intents(), [{ type: "stop" }]);
    await harness.sendOverFrames(changeMessages(turn).slice(doneAt));
    await liveRegionSays("Stopped");
    assert.equal(await lastTurn().locator(".footer-ending").textContent(), "Stopped");
    assert.equal(await page().getByRole("button", { name: "Stop" }).isVisible(), false);
  });

  it("keeps only the open paragraph in the re-rendered tail, however long the answer", async function () {
    const paragraphs = Array.from({ length: 120 }, (_, i) => `Paragraph number ${i}.`);
    const turn = recordTurn(0, "long", [cli.start(), ...deltas(paragraphs.join("\n\n"), 40)]);
    await streamUntil(turn, turn.changes.length, 20);
    await page().waitForFunction(() => document.querySelector(".answer-text")?.textContent?.includes("Paragraph number 119."));
    assert.equal((await lastTurn().locator(".answer-text .markdown-tail").textContent())?.trim(), "Paragraph number 119.");
    assert.equal(await lastTurn().locator(".answer-text .markdown-segment").count(), 120);
  });

  describe("an open code block", function () {
    /** A file as a model writes one: indented lines, blank lines, and lines long enough to scroll sideways. */
    const fileLines = Array.from({ length: 150 }, (_, i) =>
      i % 9 === 4 ? "" : `${"  ".repeat(i % 3)}export const value${i} = await load(${i}, "token cache");${i % 25 === 0 ? " // " + "wide ".repeat(30) : ""}`,
    );
    const file = fileLines.join("\n") + "\n";

    /** The view of the same text rendered at once from a snapshot of a finished turn. */
    async function renderedAtOnce(turn: RecordedTurn): Promise<string> {
      await harness.send(snapshotOf([turn]));
      await page().waitForFunction(() => document.querySelectorAll(".turn").length === 1 && !!document.querySelector(".turn-footer"));
      return lastTurn().locator(".answer-text").innerHTML();
    }

    async function streamWhole(turn: RecordedTurn, perFrame: number): Promise<string> {
      await streamUntil(turn, turn.changes.length, perFrame);
      await lastTurn().locator(".turn-footer").waitFor();
      return lastTurn().locator(".answer-text").innerHTML();
    }

    /** Streams up to the change that completes `code`, and waits until the code block shows it; returns where it stopped. */
    async function streamUntilCodeShows(turn: RecordedTurn, code: string): Promise<number> {
      const end = indexOfChange(turn, (sofar) => sofar.includes(code)) + 1;
      await streamUntil(turn, end, 6);
      await page().waitForFunction((shown) => document.querySelector(".answer-text pre code")?.textContent?.includes(shown), code);
      return end;
    }

    it("ends a code block streamed line by line in many deltas with the same DOM as the answer rendered at once", async function () {
      const text = "Here is the whole file:\n\n```ts\n" + file + "```\n\nThat is the whole file.";
      const turn = recordTurn(0, "file", [cli.start(), ...deltas(text, 11), cli.done()]);
      const streamed = await streamWhole(turn, 6);
      assert.equal(await renderedAtOnce(turn), streamed);
      assert.equal(await lastTurn().locator(".answer-text pre code").textContent(), file);
    });

    it("keeps the <code> element of an open fence and the lines it shows while more lines are added, without rendering the tail again", async function () {
      const turn = recordTurn(0, "file", [cli.start(), ...deltas("Intro\n\n```ts\n" + file, 13)]);
      const end = await streamUntilCodeShows(turn, fileLines[20] + "\n");
      const firstLine = await page().evaluate(() => {
        const code = document.querySelector(".answer-text pre code")!;
        const firstLine = document.createTreeWalker(code, NodeFilter.SHOW_TEXT).nextNode()!;
        const state = { code, firstLine, firstLineText: firstLine.textContent, tailRenders: 0 };
        window.__openCode = state;
        const tail = document.querySelector(".answer-text .markdown-tail")!;
        new MutationObserver((records) => (state.tailRenders += records.length)).observe(tail, { childList: true });
        return state.firstLineText;
      });
      assert.ok(firstLine?.startsWith(fileLines[0] + "\n"), `the first text node holds ${JSON.stringify(firstLine)}`);
      await harness.sendOverFrames(changeMessages(turn).slice(end), 6);
      await page().waitForFunction((whole) => document.querySelector(".answer-text pre code")?.textContent === whole, file);
      const after = await page().evaluate(() => {
        const { code, firstLine, firstLineText, tailRenders } = window.__openCode!;
        const shown = document.querySelector(".answer-text pre code");
        return {
          sameCode: shown === code,
          firstLineKept: shown?.contains(firstLine) === true && firstLine.textContent === firstLineText,
          tailRenders,
        };
      });
      assert.deepEqual(after, { sameCode: true, firstLineKept: true, tailRenders: 0 });
    });

    it("keeps the language label of a fence whose opening line names one while its code streams and after it closes", async function () {
      const turn = recordTurn(0, "py", [cli.start(), ...deltas("```python\n" + file + "```\n\nDone.", 13), cli.done()]);
      const end = await streamUntilCodeShows(turn, fileLines[100] + "\n");
      const block = lastTurn().locator(".answer-text .code-block");
      const labelled = async () => ({
        label: await block.locator(".code-language").textContent(),
        codeClass: await block.locator("pre code").getAttribute("class"),
        copy: await block.locator("button.code-copy").getAttribute("aria-label"),
      });
      const expected = { label: "python", codeClass: "language-python", copy: "Copy code" };
      assert.deepEqual(await labelled(), expected);
      await harness.sendOverFrames(changeMessages(turn).slice(end), 6);
      await lastTurn().locator(".turn-footer").waitFor();
      assert.deepEqual(await labelled(), expected);
    });

    it("closes a fence in the middle of a delta and renders the prose that follows it in the same and later deltas", async function () {
      const turn = recordTurn(0, "close", [
        cli.start(),
        ...deltas("Before:\n\n```ts\n" + fileLines.slice(0, 30).join("\n") + "\n", 6),
        cli.textDelta("last();\n```\nRight after the fence, **bold**"),
        ...deltas(" and more prose.\n\nA new paragraph.", 4),
        cli.done(),
      ]);
      const shown = await streamUntilCodeShows(turn, fileLines[29] + "\n");
      const closes = indexOfChange(turn, (text) => text.includes("```\nRight after"));
      await harness.sendOverFrames(changeMessages(turn).slice(shown, closes + 1));
      await page().waitForFunction(() => document.querySelector(".answer-text p strong")?.textContent === "bold");
      assert.equal(await lastTurn().locator(".answer-text pre code").textContent(), fileLines.slice(0, 30).join("\n") + "\nlast();\n");
      await harness.sendOverFrames(changeMessages(turn).slice(closes + 1), 2);
      await lastTurn().locator(".turn-footer").waitFor();
      const streamed = await lastTurn().locator(".answer-text").innerHTML();
      assert.deepEqual(await lastTurn().locator(".answer-text p").allTextContents(), ["Before:", "Right after the fence, bold and more prose.", "A new paragraph."]);
      assert.equal(await renderedAtOnce(turn), streamed);
    });

    it("renders a fence left open at the end of the answer as the answer rendered at once, its code one text node", async function () {
      const turn = recordTurn(0, "unclosed", [cli.start(), ...deltas("Start of a file:\n\n~~~js\n" + file + "const last = 1;", 13), cli.done()]);
      const streamed = await streamWhole(turn, 6);
      const code = lastTurn().locator(".answer-text pre code");
      assert.equal(await code.textContent(), file + "const last = 1;");
      assert.deepEqual(await code.evaluate((node) => Array.from(node.childNodes, (child) => child.nodeName)), ["#text"]);
      assert.equal(await renderedAtOnce(turn), streamed);
    });

    it("shows markup inside an open fence only as text, in whole lines and in the line still being written", async function () {
      const hostile = ["</code></pre><img src=x onerror=pwn('fence-img')>", "<script>pwn('fence-script')</script>", "</code><a href=\"javascript:pwn('fence-link')\">x</a>", "&lt;b&gt; <b>bold?</b>"];
      const text = "```html\n" + hostile.join("\n") + "\n" + hostile[0];
      const turn = recordTurn(0, "hostile", [cli.start(), ...deltas(text, 3)]);
      await streamUntil(turn, turn.changes.length, 2);
      const code = lastTurn().locator(".answer-text pre code");
      await page().waitForFunction((whole) => document.querySelector(".answer-text pre code")?.textContent === whole, hostile.join("\n") + "\n" + hostile[0]);
      const markup = await lastTurn().locator(".answer-text").evaluate((answer) => Array.from(answer.querySelectorAll("img, script, a, b, iframe"), (node) => node.outerHTML));
      assert.deepEqual(markup, []);
      assert.deepEqual(await code.evaluate((node) => Array.from(node.querySelectorAll("*"), (child) => child.className)), ["code-lines", "code-lines-text"]);
      await harness.frames(2);
      assert.deepEqual(await harness.pwnCalls(), []);
    });

    it("puts each line of an open fence exactly where the finished block puts it", async function () {
      const text = "Intro\n\n```ts\n" + file;
      const open = recordTurn(0, "lines", [cli.start(), ...deltas(text, 13)]);
      const finished = recordTurn(0, "lines", [cli.start(), ...deltas(text, 13), cli.done()]);
      await streamUntilCodeShows(open, file);
      const layout = () =>
        lastTurn().locator(".answer-text pre").evaluate((pre) => {
          const top = pre.getBoundingClientRect().top;
          const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
          const lines: string[] = [];
          for (let node = walker.nextNode() as Text | null; node !== null; node = walker.nextNode() as Text | null) {
            for (let at = 0; at < node.data.length; at = node.data.indexOf("\n", at) + 1 || node.data.length) {
              const range = document.createRange();
              range.setStart(node, at);
              range.setEnd(node, at + 1);
              const box = range.getBoundingClientRect();
              lines.push(`${box.top - top} ${box.left} ${box.height}`);
            }
          }
          return { height: pre.getBoundingClientRect().height, scrollWidth: pre.scrollWidth, lines };
        });
      const streaming = await layout();
      assert.ok((await lastTurn().locator(".answer-text pre .code-lines").count()) > 1, "the open fence is not in chunks of lines");
      await harness.send(snapshotOf([finished]));
      await lastTurn().locator(".turn-footer").waitFor();
      assert.equal(await lastTurn().locator(".answer-text pre .code-lines").count(), 0);
      assert.equal(streaming.lines.length, fileLines.length);
      assert.deepEqual(streaming, await layout());
    });
  });

  describe("scrolling", function () {
    const paragraphs = Array.from({ length: 60 }, (_, i) => `Line ${i} of a long answer that needs scrolling.`);
    const turn = recordTurn(0, "scroll", [cli.start(), ...deltas(paragraphs.join("\n\n"), 25)]);
    const thirds = [0, 1, 2, 3].map((i) => Math.floor((turn.changes.length * i) / 3));
    const messages = changeMessages(turn);
    const distanceFromBottom = () => page().evaluate(() => {
      const t = document.querySelector(".transcript")!;
      return t.scrollHeight - t.scrollTop - t.clientHeight;
    });
    const waitForText = (text: string) => page().waitForFunction((t) => document.querySelector(".answer-text")?.textContent?.includes(t), text);

    /** Streams the changes between two thirds of the answer and waits until they are on screen. */
    async function streamThird(from: number): Promise<void> {
      if (from === 0) await harness.send(turn.started);
      await harness.sendOverFrames(messages.slice(thirds[from], thirds[from + 1]), 4);
      await waitForText(textUpTo(turn, thirds[from + 1]));
      await harness.frames(2);
    }

    async function scrollUpToRead(): Promise<number> {
      await page().locator(".transcript").hover();
      await page().mouse.wheel(0, -200);
      await page().waitForFunction(() => {
        const t = document.querySelector(".transcript")!;
        return t.scrollHeight - t.scrollTop - t.clientHeight > 100;
      });
      // A wheel scroll may be animated: wait until it has come to rest.
      return page().evaluate(
        () =>
          new Promise<number>((resolve) => {
            const transcript = document.querySelector(".transcript")!;
            let last = -1;
            let still = 0;
            const check = () => {
              still = transcript.scrollTop === last ? still + 1 : 0;
              last = transcript.scrollTop;
              if (still >= 3) resolve(last);
              else requestAnimationFrame(check);
            };
            requestAnimationFrame(check);
          }),
      );
    }

    it("follows the newest output while it streams", async function () {
      await streamThird(0);
      assert.ok((await distanceFromBottom()) <= 1, "not at the bottom");
      await streamThird(1);
      assert.ok((await distanceFromBottom()) <= 1, "did not follow");
    });

    it("stays where the user scrolled up to while more output streams", async function () {
      await streamThird(0);
      const readingAt = await scrollUpToRead();
      await streamThird(1);
      assert.equal(await page().evaluate(() => document.querySelector(".transcript")!.scrollTop), readingAt);
    });

    it("follows the answer again once the user answers a permission card, even from where they had scrolled up to read it", async function () {
      await streamThird(0);
      const length = turn.final.blocks.length;
      const tool = toolBlock({ toolId: "run-1", tool: "bash", toolKind: "execute", title: "npm test", status: "running", parameters: { command: "npm test" } });
      const request = permissionBlock({ requestId: "7", toolId: "run-1", title: "Run npm test" });
      await harness.send({ type: "changes", turnId: 0, changes: [{ kind: "block-added", index: length, block: tool }, { kind: "block-added", index: length + 1, block: request }] });
      await page().locator(".permission button").first().waitFor();
      await harness.frames(2);
      await scrollUpToRead();
      // The card keeps the keyboard: Escape answers it (Reject), as a user reading above it would.
      await page().evaluate(() => (document.querySelector(".permission") as HTMLElement).focus({ preventScroll: true }));
      await page().keyboard.press("Escape");
      await harness.waitForIntent("answerPermission");
      await harness.send({ type: "changes", turnId: 0, changes: [{ kind: "block-updated", index: length + 1, block: { ...request, decision: "rejected", optionId: "reject-once", answeredBy: "user" } }] });
      const more = Array.from({ length: 40 }, (_, i) => `After the answer, line ${i}.`).join("\n\n");
      await harness.send({ type: "changes", turnId: 0, changes: [{ kind: "block-added", index: length + 2, block: { kind: "text", text: more, truncatedChars: 0 } }] });
      await page().waitForFunction(() => document.querySelector(".transcript")?.textContent?.includes("After the answer, line 39."));
      await harness.frames(2);
      assert.ok((await distanceFromBottom()) <= 1, `stopped following: ${await distanceFromBottom()} px from the end`);
    });

    it("follows again once the user scrolls back to the bottom", async function () {
      await streamThird(0);
      await scrollUpToRead();
      await page().evaluate(() => {
        const t = document.querySelector(".transcript")!;
        t.scrollTop = t.scrollHeight;
      });
      await harness.frames(2);
      await streamThird(1);
      assert.ok((await distanceFromBottom()) <= 1, "did not follow again");
    });
  });
});

/** The answer's text after the first `count` changes: what the view must show by then. */
function textUpTo(turn: RecordedTurn, count: number): string {
  let text = "";
  for (const change of turn.changes.slice(0, count)) {
    if (change.kind === "text-appended") text += change.text;
    if (change.kind === "block-added" && change.block.kind === "text") text += change.block.text;
  }
  const lines = text.trimEnd().split("\n");
  return lines[lines.length - 1].slice(0, 20);
}
