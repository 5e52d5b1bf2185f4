// What a conversation looks like once it is on screen: every kind of block, from a snapshot.
import * as assert from "node:assert/strict";
import type { ProtocolErrorCode } from "../../src/protocol/events";
import type { ErrorAction } from "../../src/protocol/messages";
import * as cli from "../helpers/stream-builder";
import { WebviewHarness } from "../helpers/webview-harness";
import { answeredTurn, crashedTurn, recordTurn, runningTurn, snapshotOf } from "./conversations";

describe("webview: rendering a conversation", function () {
  let harness: WebviewHarness;
  const answered = answeredTurn(0);
  const crashed = crashedTurn(1);
  const running = runningTurn(2);

  before(async function () {
    harness = await WebviewHarness.open();
    await harness.send(snapshotOf([answered, crashed, running]));
    await harness.page.locator(".turn").nth(2).waitFor();
  });

  after(async function () {
    await harness?.close();
  });

  const turn = (index: number) => harness.page.locator(".turn").nth(index);

  it("shows each prompt and the name of the agent that answered", async function () {
    assert.equal(await turn(0).locator(".prompt-text").textContent(), "Why does login fail after the token refresh?");
    assert.equal(await turn(0).locator(".agent-name").textContent(), "Locus");
  });

  it("renders answer text as markdown: heading, emphasis, list, inline code, quote", async function () {
    const answer = turn(0).locator(".answer-text");
    assert.equal(await answer.locator("h2").textContent(), "Why the login fails");
    assert.equal(await answer.locator("strong").first().textContent(), "new");
    assert.equal(await answer.locator("em").first().textContent(), "old");
    assert.equal(await answer.locator("ol > li").count(), 3);
    assert.equal(await answer.locator("p > code").first().textContent(), "verifyToken");
    assert.equal(await answer.locator("blockquote").textContent(), "\nThe cache was added in the last release.\n");
  });

  it("labels a fenced code block with its language and keeps its blank line", async function () {
    const block = turn(0).locator(".code-block");
    assert.equal(await block.locator(".code-language").textContent(), "ts");
    assert.match((await block.locator("pre code").textContent()) ?? "", /cache\.get\(token\);\n\n {2}return cached/);
    assert.equal(await block.locator("button.code-copy").getAttribute("aria-label"), "Copy code");
  });

  it("renders a web link with its address and rel=noopener", async function () {
    const link = turn(0).locator(".answer-text a");
    assert.equal(await link.getAttribute("href"), "https://example.com/docs/tokens");
    assert.equal(await link.getAttribute("rel"), "noopener noreferrer");
  });

  it("folds the thinking of a finished turn", async function () {
    const thinking = turn(0).locator("details.thinking");
    assert.equal(await thinking.evaluate((node: HTMLDetailsElement) => node.open), false);
    assert.match((await thinking.textContent()) ?? "", /Let me read the auth middleware/);
  });

  it("shows a succeeded tool with a check, its parameter summary and its duration", async function () {
    const card = turn(0).locator(".tool-card").nth(0);
    assert.equal(await card.locator(".tool-name").textContent(), "Read");
    assert.equal(await card.locator(".tool-summary").textContent(), "/src/auth/middleware.ts");
    assert.equal(await card.locator(".tool-duration").textContent(), "42 ms");
    assert.equal(await card.locator(".tool-status .codicon-check").count(), 1);
  });

  it("shows a failed tool with a cross, its duration and its error text", async function () {
    const card = turn(0).locator(".tool-card").nth(2);
    assert.equal(await card.locator(".tool-status .codicon-error").count(), 1);
    assert.equal(await card.locator(".tool-duration").textContent(), "5 ms");
    assert.equal(await card.locator(".tool-error").textContent(), "ENOENT: no such file or directory");
    assert.equal(await card.locator(".tool-error").isVisible(), true);
  });

  it("shows a running tool with a spinning loading icon and no duration", async function () {
    const card = turn(2).locator(".tool-card");
    assert.equal(await card.locator(".tool-status .codicon-loading.codicon-modifier-spin").count(), 1);
    assert.equal(await card.locator(".tool-duration").textContent(), "");
  });

  it("marks a tool that never finished as abandoned", async function () {
    const card = turn(1).locator(".tool-card");
    assert.equal(await card.getAttribute("class"), "tool-card tool-abandoned");
    assert.equal(await card.locator(".tool-status .codicon-circle-slash").count(), 1);
    assert.equal(await card.locator(".tool-duration").textContent(), "abandoned");
  });

  it("shows a tool's full parameters as pretty JSON text when its card is expanded", async function () {
    const card = turn(1).locator(".tool-card");
    assert.equal(await card.locator(".tool-parameters").isVisible(), false);
    await card.locator("summary").click();
    // The parameters are written when the card's toggle event arrives.
    await card.locator("pre.tool-parameters", { hasText: "command" }).waitFor();
    const text = await card.locator("pre.tool-parameters").textContent();
    assert.deepEqual(JSON.parse(text ?? ""), { command: "npm test -- --reporter dot", description: "Run tests" });
    assert.match(text ?? "", /^\{\n {2}"command"/);
  });

  it("shows only the latest status message, in the status line of the running turn", async function () {
    assert.equal(await turn(2).locator(".status-line .status-text").textContent(), "Editing 1 file");
    assert.equal(await turn(0).locator(".status-line").isVisible(), false);
    assert.equal(await harness.page.getByText("Reading the code").count(), 0);
  });

  it("keeps the thinking of a running turn open while it is the newest block", async function () {
    const fresh = recordTurn(7, "think", [cli.start(), cli.thinking("Still thinking about it")]);
    await harness.send(fresh.started, ...fresh.changes.map((change) => ({ type: "changes" as const, turnId: 7, changes: [change] })));
    const thinking = harness.page.locator(".turn").last().locator("details.thinking");
    await thinking.waitFor();
    assert.equal(await thinking.evaluate((node: HTMLDetailsElement) => node.open), true);
    await harness.send(snapshotOf([answered, crashed, running]));
    await harness.page.locator(".turn").nth(3).waitFor({ state: "detached" });
  });

  it("folds lines that could not be read into one notice, listed when expanded", async function () {
    const notices = turn(1).locator("details.problems-notice");
    assert.equal(await notices.count(), 1);
    assert.equal(await notices.locator("summary").textContent(), "3 lines could not be read");
    assert.equal(await notices.locator("li").first().isVisible(), false);
    await notices.locator("summary").click();
    assert.deepEqual(await notices.locator("li .problem-where").allTextContents(), [
      "line 3 · MALFORMED_EVENT",
      "line 4 · MALFORMED_EVENT",
      "line 5 · MALFORMED_EVENT",
    ]);
  });

  it("shows a multi-line error message in a pre, keeping its lines", async function () {
    const message = turn(1).locator(".error-card pre.error-message");
    assert.match((await message.textContent()) ?? "", /^The agent exited with code 1\.\nstderr:\nError: connect ECONNREFUSED/);
  });

  it("ends a completed turn with a footer: completed, duration, tools and tokens", async function () {
    assert.deepEqual(await turn(0).locator(".turn-footer > span:not(.codicon)").allTextContents(), [
      "Completed",
      "4.2 s",
      "2 tools (Read, Grep)",
      "1,834 tokens",
    ]);
  });

  it("ends a failed turn with a footer that says it failed and its exit code", async function () {
    assert.deepEqual(await turn(1).locator(".turn-footer > span:not(.codicon)").allTextContents(), [
      "Failed",
      "2.5 s",
      "1 tool (Bash)",
      "exit code 1",
    ]);
  });

  it("gives a running turn no footer", async function () {
    assert.equal(await turn(2).locator(".turn-footer").count(), 0);
  });

  it("shows the Stop button while the last turn runs, and Send becomes Queue: a message then waits for the turn", async function () {
    assert.equal(await harness.page.getByRole("button", { name: "Stop" }).isVisible(), true);
    assert.equal(await harness.page.locator("button.send").getAttribute("aria-label"), "Queue (Enter)");
  });

  describe("error cards", function () {
    const EXPECTED: Record<ProtocolErrorCode, ErrorAction[]> = {
      CLI_NOT_FOUND: ["setCliPath", "useBuiltinAgent", "showLog"],
      AUTH_EXPIRED: ["logIn"],
      NETWORK_TIMEOUT: ["retry"],
      CONTEXT_LIMIT: ["newSession"],
      SESSION_NOT_FOUND: ["newSession"],
      PROCESS_CRASHED: ["showLog", "retry"],
      MALFORMED_EVENT: ["showLog", "retry"],
      UNKNOWN: ["showLog", "retry"],
    };
    const codes = Object.keys(EXPECTED) as ProtocolErrorCode[];
    const turns = codes.map((code, i) =>
      recordTurn(100 + i, `trigger ${code}`, [cli.start(), cli.errorEvent(code, `the ${code} message`), cli.done({ exitCode: 1 })]),
    );

    before(async function () {
      await harness.send(snapshotOf(turns));
      await harness.page.locator(".error-card").nth(codes.length - 1).waitFor();
    });

    for (const [index, code] of codes.entries()) {
      it(`offers ${EXPECTED[code].join(", ")} for ${code}, each posting its errorAction`, async function () {
        await harness.clearIntents();
        const card = harness.page.locator(".error-card").nth(index);
        assert.equal(await card.locator(".error-code").textContent(), code);
        assert.equal(await card.locator("p.error-message").textContent(), `the ${code} message`);
        const buttons = card.locator(".error-actions button");
        assert.equal(await buttons.count(), EXPECTED[code].length);
        for (let b = 0; b < EXPECTED[code].length; b++) await buttons.nth(b).click();
        const posted = EXPECTED[code].map((action) => ({ type: "errorAction", action, turnId: 100 + index }));
        assert.deepEqual(await harness.intents(), posted);
      });
    }

    it("says Failed in the live region only for a turn that ends while watched, not for a snapshot", async function () {
      assert.equal(await harness.page.locator("[aria-live=polite]").textContent(), "");
    });
  });

  describe("error cards that name their cause, and an agent's stderr", function () {
    const keyRefused = recordTurn(300, "Say hi.", [
      cli.start(),
      cli.event("error", {
        error: { code: "AUTH_EXPIRED", message: "Invalid API key · Fix external API key", recoverable: false, cause: { kind: "api-key-rejected", variable: "ANTHROPIC_API_KEY" } },
      }),
      cli.done({ exitCode: 1 }),
    ]);
    const refused = recordTurn(302, "Make a file.", [
      cli.start(),
      cli.event("error", { error: { code: "UNKNOWN", message: "Refused: touch made.txt. Nothing else was changed or run.", recoverable: true, cause: { kind: "refused", calls: ["touch made.txt"] } } }),
      cli.done({ exitCode: 0 }),
    ]);
    const stderr = 'Error: <img src=x onerror="window.pwned=1"> refused\n\x1b[31mfatal:\x1b[0m \x1b]0;owned\x07exit\n';
    const crashed = recordTurn(301, "Say hi.", [cli.start(), { exited: { reason: "exited", exitCode: 1, signal: null, stderrTail: stderr } }]);

    before(async function () {
      await harness.send(snapshotOf([keyRefused, crashed, refused]));
      await harness.page.locator(".turn").nth(2).locator(".error-card").waitFor();
    });

    it("titles a refused API key as such and offers Open Settings first, then Log In", async function () {
      await harness.clearIntents();
      const card = turn(0).locator(".error-card");
      assert.equal(await card.locator(".error-title").textContent(), "The API key was rejected");
      const buttons = card.locator(".error-actions button");
      assert.deepEqual(await buttons.allTextContents(), ["Open Settings", "Log In"]);
      await buttons.nth(0).click();
      assert.deepEqual(await harness.intents(), [{ type: "errorAction", action: "openCliEnv", turnId: 300 }]);
    });

    it("words a turn whose only work was refused as what happened: no code, the refused call, and Retry to ask again", async function () {
      await harness.clearIntents();
      const card = turn(2).locator(".error-card");
      assert.equal(await card.locator(".error-title").textContent(), "Not allowed: nothing was done");
      assert.equal(await card.locator(".error-code").count(), 0, "UNKNOWN would read as a fault");
      assert.equal(await card.locator(".error-message").textContent(), "Refused: touch made.txt. Nothing else was changed or run.");
      const buttons = card.locator(".error-actions button");
      assert.deepEqual(await buttons.allTextContents(), ["Retry"]);
      await buttons.nth(0).click();
      assert.deepEqual(await harness.intents(), [{ type: "errorAction", action: "retry", turnId: 302 }]);
    });

    it("shows the agent's last stderr lines as text: no element made of them, escapes visible, colours gone", async function () {
      const message = turn(1).locator(".error-card pre.error-message");
      assert.equal(
        await message.textContent(),
        'The CLI exited with code 1 before finishing its stream (no done event).\nLast lines of stderr:\nError: <img src=x onerror="window.pwned=1"> refused\nfatal: \\x1b]0;owned\\x07exit',
      );
      assert.equal(await turn(1).locator(".error-card img").count(), 0);
      assert.equal(await harness.page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
    });
  });

  describe("editor context and replayed streams", function () {
    const asked = recordTurn(200, "Why is the total wrong?", [cli.start(), cli.textDelta("Because."), cli.done()]);
    const replayed = recordTurn(201, "Replay of crash.ndjson", [cli.start(), cli.errorEvent("AUTH_EXPIRED", "recorded failure"), cli.done({ exitCode: 1 })]);
    asked.final = { ...asked.final, context: { summary: "workspace shop · src/cart.ts · selection (lines 3–5)", text: "Context from the editor:\n- Workspace folder: /home/ada/shop" } };
    replayed.final = { ...replayed.final, origin: "replay", agent: "Recorded stream" };

    before(async function () {
      await harness.send(snapshotOf([asked, replayed]));
      await harness.page.locator(".turn").nth(1).waitFor();
    });

    it("says under the prompt what the editor sent with it, the full text on hover", async function () {
      const context = turn(0).locator(".prompt-context");
      assert.equal(await context.textContent(), "With workspace shop · src/cart.ts · selection (lines 3–5)");
      assert.equal(await context.getAttribute("title"), "Context from the editor:\n- Workspace folder: /home/ada/shop");
      assert.equal(await turn(1).locator(".prompt-context").count(), 0, "a turn without context shows none");
    });

    it("shows a replayed stream's error as it was, with no buttons: nothing ran here to retry or set up", async function () {
      const card = turn(1).locator(".error-card");
      assert.equal(await card.locator(".error-code").textContent(), "AUTH_EXPIRED");
      assert.equal(await card.locator(".error-actions button").count(), 0);
    });
  });
});
