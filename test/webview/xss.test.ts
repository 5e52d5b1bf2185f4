// Hostile text in every place the webview shows the agent's output: nothing runs, nothing navigates, and what
// reaches the DOM is inert (no handlers, no non-web links, no active elements).
import * as assert from "node:assert/strict";
import * as cli from "../helpers/stream-builder";
import { WebviewHarness, type TestHostMessage } from "../helpers/webview-harness";
import { changeMessages, deltas, recordTurn, snapshotOf, type RecordedTurn } from "./conversations";
import { XSS_CORPUS, type HostilePayload } from "./xss-corpus";
import { permissionBlock, planBlock, toolBlock, turnWith } from "../helpers/turn-builder";
import type { SessionChange, Turn } from "../../src/protocol/messages";

/** Every attribute the webview itself puts on elements; anything else came from a payload. */
const OUR_ATTRIBUTES = ["class", "href", "rel", "title", "start", "aria-label", "aria-hidden", "aria-live", "role", "type", "hidden", "open", "tabindex", "data-copy-code", "data-path", "data-line"];
const ACTIVE_ELEMENTS = "script, iframe, frame, frameset, object, embed, svg, math, style, form, input, textarea, select, img, picture, video, audio, source, base, meta, link, template, noscript, marquee";

interface Audit {
  handlers: string[];
  foreignAttributes: string[];
  nonWebLinks: string[];
  activeElements: string[];
  scripts: number;
  head: string[];
}

function hostileTurn(id: number, payload: HostilePayload): RecordedTurn {
  const parameters = { command: payload.text, file_path: payload.text, nested: { note: payload.text } };
  return recordTurn(id, payload.text, [
    cli.start(),
    cli.thinking(payload.text),
    cli.toolStarted(payload.text, "t", parameters),
    cli.toolCompleted(payload.text, "t", { success: false, duration: 1, error: payload.text }),
    ...deltas(`${payload.text}\n\nand once more: ${payload.text}`, 5),
    { problem: { line: 9, code: "MALFORMED_EVENT", message: payload.text } },
    cli.errorEvent("UNKNOWN", payload.text, true),
    cli.errorEvent("PROCESS_CRASHED", `${payload.text}\n${payload.text}`, true),
    cli.done({ exitCode: 1 }),
  ]);
}

/**
 * What an ACP agent tells, hostile in every field the chat shows: a tool's title, kind, places, output and diffs
 * (paths and both texts), a permission request's title and options (waiting, so its buttons show) and a plan. One tool
 * of each shape the permission card describes: a command, a URL, an edit, and raw input.
 */
function hostileAgentTurn(id: number, payload: HostilePayload): Turn {
  const text = payload.text;
  const tools = (["execute", "fetch", "edit", "other"] as const).map((toolKind, i) =>
    toolBlock({
      toolId: `t${i}`,
      tool: text,
      toolKind,
      title: text,
      parameters: { command: text, url: text, path: text },
      output: text,
      diffs: [
        { path: text, oldText: `${text}\nsame`, newText: `same\n${text}!` },
        { path: `${text}.new`, oldText: null, newText: text },
      ],
      locations: [{ path: text, line: 3 }],
    }),
  );
  const requests = tools.map((tool) =>
    permissionBlock({ toolId: tool.toolId, title: text, options: [{ id: text, name: text, kind: "allow_once" }, { id: "no", name: text, kind: "reject_once" }] }),
  );
  const plan = planBlock([{ content: text, priority: "high", status: "in_progress" }]);
  return turnWith(id, [...tools, ...requests, plan]);
}

/** A turn still running, so the status line shows: every payload as its status message. */
function hostileStatusTurn(id: number): RecordedTurn {
  return recordTurn(id, "status", [cli.start(), cli.status("working", XSS_CORPUS.map((p) => p.text).join(" "))]);
}

describe("webview: hostile content (XSS corpus)", function () {
  let harness: WebviewHarness;
  /** The page's <head> as served: no payload may add a <base>, <meta> or stylesheet to it. */
  let servedHead: string[];
  const turns = [...XSS_CORPUS.map((payload, i) => hostileTurn(i, payload)), hostileStatusTurn(XSS_CORPUS.length)];

  before(async function () {
    harness = await WebviewHarness.open({ viewport: { width: 500, height: 700 } });
    servedHead = (await audit()).head;
  });

  after(async function () {
    await harness?.close();
  });

  async function audit(): Promise<Audit> {
    return harness.page.evaluate(
      ([allowed, active]) => {
        const transcript = document.querySelector(".transcript")!;
        const elements = Array.from(transcript.querySelectorAll("*"));
        const describe = (node: Element) => `${node.tagName.toLowerCase()}.${node.getAttribute("class") ?? ""}`;
        const attributes = elements.flatMap((node) => Array.from(node.attributes).map((a) => ({ node, name: a.name, value: a.value })));
        return {
          handlers: attributes.filter((a) => a.name.toLowerCase().startsWith("on")).map((a) => `${describe(a.node)} ${a.name}`),
          foreignAttributes: attributes.filter((a) => !allowed.includes(a.name)).map((a) => `${describe(a.node)} ${a.name}=${a.value}`),
          nonWebLinks: attributes.filter((a) => a.name === "href" && !/^https?:\/\//i.test(a.value)).map((a) => a.value),
          activeElements: Array.from(transcript.querySelectorAll(active)).map(describe),
          scripts: document.querySelectorAll("script").length,
          head: Array.from(document.head.children).map((node) => node.outerHTML),
        };
      },
      [OUR_ATTRIBUTES, ACTIVE_ELEMENTS] as const,
    );
  }

  async function assertNothingRan(): Promise<void> {
    assert.deepEqual(await harness.pwnCalls(), [], "a payload called pwn()");
    assert.deepEqual(harness.dialogs, [], "a payload opened a dialog");
    assert.deepEqual(harness.navigations, [], "a payload navigated a frame");
    assert.deepEqual(await harness.cspViolations(), [], "a payload tried something the CSP blocked");
  }

  async function assertInert(): Promise<void> {
    assert.deepEqual(await audit(), { handlers: [], foreignAttributes: [], nonWebLinks: [], activeElements: [], scripts: 1, head: servedHead });
  }

  it(`has at least 30 payloads (${XSS_CORPUS.length})`, function () {
    assert.ok(XSS_CORPUS.length >= 30);
  });

  it("notices script that does run: a pwn() call, and an inline handler the CSP blocks", async function () {
    await harness.page.evaluate(() => {
      (window as unknown as { pwn(what: string): void }).pwn("control");
      const probe = document.createElement("img");
      probe.setAttribute("onerror", "pwn('blocked-by-csp')");
      probe.src = "data:,";
      document.body.append(probe);
    });
    await harness.page.waitForFunction(() => (window as unknown as { __cspViolations: string[] }).__cspViolations.length > 0);
    assert.deepEqual(await harness.pwnCalls(), ["control"]);
    assert.ok((await harness.cspViolations()).some((v) => v.startsWith("script-src-attr") || v.startsWith("script-src")));
    await harness.page.evaluate(() => document.querySelector("body > img")?.remove());
    await harness.resetTraps();
  });

  it("runs none of the payloads shown from a snapshot in text, thinking, tool cards, errors, problems and status", async function () {
    await harness.send(snapshotOf(turns));
    await harness.page.locator(".turn").nth(turns.length - 1).locator(".status-line").waitFor();
    await harness.frames(3);
    await assertNothingRan();
  });

  it("leaves no handler, no non-web link, no foreign attribute and no active element in the transcript", async function () {
    await assertInert();
  });

  it("shows tool parameters as the exact JSON text, not as markup", async function () {
    await harness.page.locator(".tool-card summary").evaluateAll((summaries) => summaries.forEach((s) => (s as HTMLElement).click()));
    // The parameters are written when each card's toggle event arrives.
    await harness.page.waitForFunction(() => Array.from(document.querySelectorAll("pre.tool-parameters")).every((pre) => pre.textContent !== ""));
    const shown = await harness.page.locator("pre.tool-parameters").allTextContents();
    const expected = XSS_CORPUS.map((p) => JSON.stringify({ command: p.text, file_path: p.text, nested: { note: p.text } }, null, 2));
    assert.deepEqual(shown, expected);
  });

  it("runs none of them when every collapsible is opened and every link is clicked", async function () {
    await harness.clearIntents();
    await harness.page.locator(".transcript details:not([open]) > summary").evaluateAll((summaries) => summaries.forEach((s) => (s as HTMLElement).click()));
    const links = harness.page.locator(".transcript a");
    const count = await links.count();
    for (let i = 0; i < count; i++) await links.nth(i).click({ force: true });
    await harness.frames(3);
    await assertNothingRan();
    await assertInert();
    // Web addresses in the payloads are real links; the host checks and opens them.
    const opened = (await harness.intents()).filter((intent) => intent.type === "openLink");
    assert.ok(opened.length > 0, "no web link was clicked");
    for (const intent of opened) assert.match(intent.url, /^https?:\/\//);
  });

  describe("in what ACP agents tell: tool titles, output, diffs, places, permission requests, plans", function () {
    const agentTurns = XSS_CORPUS.map((payload, i) => hostileAgentTurn(i, payload));

    it("runs none of them, opened or not, and leaves the transcript inert", async function () {
      await harness.send({ type: "snapshot", turns: agentTurns, restriction: null });
      await harness.page.locator(".turn").nth(agentTurns.length - 1).locator(".plan").waitFor();
      await harness.page.locator(".transcript details:not([open]) > summary").evaluateAll((summaries) => summaries.forEach((s) => (s as HTMLElement).click()));
      await harness.frames(3);
      await assertNothingRan();
      await assertInert();
    });

    it("shows them as the exact text: output, diff paths, option names and plan entries", async function () {
      const expected = XSS_CORPUS.map((p) => p.text);
      const firstOfEach = (selector: string) =>
        harness.page.locator(".turn").evaluateAll((turns, sel) => turns.map((turn) => turn.querySelector(sel)?.textContent ?? null), selector);
      assert.deepEqual(await firstOfEach(".tool-output pre"), expected);
      assert.deepEqual(await firstOfEach(".tool-card .diff-path"), expected);
      assert.deepEqual(await firstOfEach(".permission button .button-caption"), expected);
      assert.deepEqual(await firstOfEach(".plan-content"), expected);
      assert.deepEqual(await firstOfEach(".permission-heading"), expected);
    });

    it("runs none of them when they stream in as changes", async function () {
      await harness.send({ type: "snapshot", turns: [], restriction: null });
      const messages: TestHostMessage[] = agentTurns.flatMap((turn) => {
        const changes: SessionChange[] = turn.blocks.map((block, index) => ({ kind: "block-added", index, block }));
        return [{ type: "turn-started", turn: { ...turn, blocks: [] } }, { type: "changes", turnId: turn.id, changes }];
      });
      await harness.sendOverFrames(messages, 10);
      await harness.page.locator(".turn").nth(agentTurns.length - 1).locator(".plan").waitFor();
      await harness.frames(3);
      await assertNothingRan();
      await assertInert();
    });
  });

  it("runs none of them when they stream in small deltas", async function () {
    await harness.send({ type: "snapshot", turns: [], restriction: null });
    const messages: TestHostMessage[] = turns.flatMap((turn) => [turn.started, ...changeMessages(turn, 4)]);
    await harness.sendOverFrames(messages, 40);
    await harness.page.locator(".turn").nth(turns.length - 1).locator(".status-line").waitFor();
    await harness.frames(3);
    await assertNothingRan();
    await assertInert();
  });
});
