// The chat as the look checks measure it and the screenshots show it (scripts/webview-screenshots.ts): a rich
// conversation, and what ACP agents show. Node-side code only (the screenshot script compiles it without DOM types).
import type { AgentControls, SessionChange, SessionHeader, Turn } from "../../src/protocol/messages";
import type { TranscriptBlock } from "../../src/protocol/transcript";
import * as cli from "../helpers/stream-builder";
import { permissionBlock, planBlock, toolBlock, turnWith } from "../helpers/turn-builder";
import type { WebviewHarness } from "../helpers/webview-harness";
import { answeredTurn, crashedTurn, recordTurn, runningTurn, snapshotOf } from "./conversations";

/** An answer with thinking, markdown and code; a crash; a CLI that is missing; a turn still running a tool. */
export const RICH_CONVERSATION = [
  answeredTurn(0),
  crashedTurn(1),
  recordTurn(3, "Use the other agent", [
    cli.start(),
    cli.errorEvent("CLI_NOT_FOUND", "locus was not found on PATH. Set agentStream.cliPath or install it."),
    cli.done({ exitCode: 127 }),
  ]),
  runningTurn(2),
];

/** Shows RICH_CONVERSATION with what a reader would open: the first thinking, the abandoned tool's parameters, the problems notice. */
export async function showRichConversation(harness: WebviewHarness): Promise<void> {
  await harness.send(snapshotOf(RICH_CONVERSATION));
  const turns = harness.page.locator(".turn");
  await turns.nth(3).locator(".tool-card").waitFor();
  await turns.nth(0).locator("details.thinking > summary").click();
  await turns.nth(1).locator(".tool-card summary").click();
  await turns.nth(1).locator(".problems-notice > summary").click();
  await turns.nth(1).locator("pre.tool-parameters", { hasText: "command" }).waitFor();
  await harness.page.evaluate("document.fonts.ready.then(() => undefined)");
}

/** An edit with its output and two changed files, one of them new. */
export const EDIT_TOOL = toolBlock({
  tool: "edit",
  toolKind: "edit",
  title: "Edit src/auth.ts and add src/cache.ts",
  status: "succeeded",
  durationMs: 40,
  output: "patched src/auth.ts\ncreated src/cache.ts",
  diffs: [
    { path: "/w/src/auth.ts", oldText: "import a\nconst x = 1\nexport {}\n", newText: "import a\nconst x = 2\nconst y = 3\nexport {}\n" },
    { path: "/w/src/cache.ts", oldText: null, newText: "export const cache = new Map()\nexport default cache\n" },
  ],
  locations: [{ path: "/w/src/auth.ts", line: 2 }],
});

/** A running turn `id` that streams a plan, EDIT_TOOL and a permission request waiting for it; diffs and output open. */
export async function showAgentBlocks(harness: WebviewHarness, id: number): Promise<void> {
  const plan = planBlock([
    { content: "Read the auth code", priority: "high", status: "completed" },
    { content: "Fix the cache", priority: "medium", status: "in_progress" },
    { content: "Run the tests", priority: "low", status: "pending" },
  ]);
  const blocks: TranscriptBlock[] = [plan, EDIT_TOOL, permissionBlock({ toolId: EDIT_TOOL.toolId, title: "Edit src/auth.ts" })];
  const started: Turn = turnWith(id, []);
  const added: SessionChange[] = blocks.map((block, index) => ({ kind: "block-added", index, block }));
  await harness.send({ type: "turn-started", turn: started }, { type: "changes", turnId: id, changes: [{ kind: "state", state: "streaming" }, ...added] });
  const turn = harness.page.locator(".turn").last();
  await turn.locator(".permission button").first().waitFor();
  await turn.locator(".tool-card .diff-preview summary").first().click();
  await turn.locator(".tool-card details.tool-output summary").click();
}

/** A 16×16 PNG of a landscape: a thumbnail one can see in a screenshot. */
const SCREENSHOT_PNG = "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAN0lEQVR42mNwazpBEmIYDhpspkWRhLBr+HDCBoKI0gBXjVUPA37VmHror4FkP5ATSuTEAzU1AADxA2g4ncI35QAAAABJRU5ErkJggg==";

/**
 * A turn running, two messages queued behind it (the second with an image), and four chips in the composer: a file, a
 * folder with a long path, a selection and a pasted image.
 */
export async function showComposerWithChipsAndQueue(harness: WebviewHarness): Promise<void> {
  const turn = runningTurn(0);
  await harness.send(snapshotOf([turn]));
  await harness.send({
    type: "queue",
    items: [
      { id: "q1", prompt: "then run the tests and fix whatever fails in the authentication middleware", summary: null },
      { id: "q2", prompt: "and update the docs", summary: "image login-error.png · README.md" },
    ],
    held: false,
  });
  for (const attachment of [
    { kind: "file" as const, path: "src/auth/middleware.ts" },
    { kind: "folder" as const, path: "packages/server/src/authentication/providers" },
    { kind: "selection" as const, path: "src/app.ts", lines: { start: 12, end: 40 }, text: "const app = express();", language: "typescript" },
  ]) {
    await harness.send({ type: "attach", attachment });
  }
  await harness.page.locator(".attachment-chip").nth(2).waitFor();
  // Pasted as the clipboard hands Chromium a screenshot (the page's own code: this file compiles without DOM types).
  await harness.page.evaluate(`(() => {
    const bytes = Uint8Array.from(atob("${SCREENSHOT_PNG}"), (char) => char.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], "screenshot.png", { type: "image/png" }));
    const box = document.querySelector('textarea[aria-label="Message to the agent"]');
    box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
  })()`);
  // Its thumbnail drawn, not a blank box (the CSP forbids waitForFunction's string predicates).
  await harness.page.locator(".image-chip img").waitFor();
  await harness.page.evaluate("document.querySelector('.image-chip img').decode()");
  await harness.page.getByRole("list", { name: "Queued messages" }).getByRole("listitem").nth(1).waitFor();
  await harness.page.evaluate("document.fonts.ready.then(() => undefined)");
}

/** The header as a Claude session shows it: a title longer than a narrow side bar, the agent's pickers in a mode that approves by itself, and the meter. */
export const HEADER_SESSION: SessionHeader = { title: "Wire the auth cache into the session middleware", agent: "Claude Code", otherAgent: null };

/** Modes as Claude offers them, the one chosen approving by itself; its model by name; one config option with values. */
export const HEADER_CONTROLS: AgentControls = {
  mode: {
    currentId: "bypassPermissions",
    chosenId: null,
    offered: [
      { id: "default", name: "Default", description: "Asks before edits and commands", approvesItself: false },
      { id: "plan", name: "Plan", description: null, approvesItself: false },
      { id: "bypassPermissions", name: "Bypass permissions", description: null, approvesItself: true },
    ],
  },
  model: { currentId: "claude-sonnet-4-5", chosenId: null, offered: [] },
  options: [
    {
      optionId: "thought_level",
      name: "Thinking",
      currentId: "low",
      chosenId: null,
      offered: [
        { id: "low", name: "Low", description: null },
        { id: "high", name: "High", description: null },
      ],
    },
  ],
  appliesAt: "now",
  applying: false,
  refusal: null,
};

/** A finished turn whose footer and the header's meter show Claude's figures: tokens, cost and context. */
export const TURN_WITH_USAGE = recordTurn(0, "Add a cache to the auth middleware", [
  cli.start(),
  cli.textDelta("Done: `src/auth/middleware.ts` now caches the session lookup for a minute."),
  cli.done({
    duration: 8400,
    tokensUsed: 1574,
    usage: { inputTokens: 1234, outputTokens: 340, cacheReadTokens: 900, cost: { amount: 0.0174, currency: "USD" }, contextUsed: 46_000, contextSize: 200_000 },
  }),
], "Claude Code");

/** HEADER_SESSION with TURN_WITH_USAGE and HEADER_CONTROLS: the header's title, pickers and meter, and the turn's footer. */
export async function showHeaderWithPickersAndMeter(harness: WebviewHarness): Promise<void> {
  await harness.send({ type: "snapshot", header: HEADER_SESSION, turns: [structuredClone(TURN_WITH_USAGE.final)], restriction: null });
  await harness.send({ type: "controls", controls: HEADER_CONTROLS });
  await harness.page.locator(".session-header .usage-meter:not([hidden])").waitFor();
  await harness.page.locator(".turn-footer .footer-usage").waitFor();
  await harness.page.evaluate("document.fonts.ready.then(() => undefined)");
}
