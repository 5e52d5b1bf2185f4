// A command's output sent in `_meta.terminal_output_delta` (codex-acp 2.6) shows on its tool card, as other agents'
// output does; recorded traffic first, then the bounds.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { EventOfType } from "../../../../src/protocol/events";
import { AcpEventTranslator } from "../../../../src/dialects/acp/acp-event-translator";
import { SessionUpdateDecoder } from "../../../../src/dialects/acp/session-update-decoder";
import { TERMINAL_OUTPUT_CHARS } from "../../../../src/dialects/acp/terminal-output";
import { repoRoot } from "../../../helpers/repo";

/** The cards' updates, as the chat gets them, of a run of session/update values. */
function cardUpdates(updates: readonly unknown[]): EventOfType<"tool_updated">["payload"][] {
  const cards: EventOfType<"tool_updated">["payload"][] = [];
  const translator = new AcpEventTranslator((type, payload) => {
    if (type === "tool_updated") cards.push(payload as EventOfType<"tool_updated">["payload"]);
  });
  const decoder = new SessionUpdateDecoder({ event: (event) => translator.translate(event), trace: () => {} });
  for (const update of updates) decoder.decode(update);
  return cards;
}

const command = (toolCallId: string) => ({
  sessionUpdate: "tool_call",
  toolCallId,
  kind: "execute",
  title: "make",
  status: "in_progress",
  content: [{ type: "terminal", terminalId: toolCallId }],
});
const delta = (toolCallId: string, data: string, status?: string) => ({
  sessionUpdate: "tool_call_update",
  toolCallId,
  ...(status === undefined ? {} : { status }),
  _meta: { terminal_output_delta: { data, terminal_id: toolCallId } },
});

describe("a command's output sent with its terminal (codex-acp 2.6)", () => {
  it("is the card's output in the recorded run of codex-acp 2.6.0", () => {
    const file = path.join(repoRoot, "test", "fixtures", "acp-recorded", "codex", "2.6.0", "edit-and-command.ndjson");
    const updates = fs
      .readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.includes('"session/update"'))
      .map((line) => (JSON.parse(line) as { params: { update: unknown } }).params.update);
    const finished = cardUpdates(updates).filter((card) => card.kind === "execute" && card.status === "completed");
    assert.deepEqual(finished.map((card) => card.output), ["printed for the card\n"]);
  });

  it("joins the pieces in order, and a later update that names no output leaves the card's as it is", () => {
    const cards = cardUpdates([command("c1"), delta("c1", "line one\n"), delta("c1", "line two\n"), { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed" }]);
    // An update's output replaces the card's; one without output leaves it (as the transcript applies them).
    let shown: string | undefined;
    const outputs = cards.map((card) => (shown = card.output ?? shown));
    assert.deepEqual(outputs, [undefined, "line one\n", "line one\nline two\n", "line one\nline two\n"]);
    assert.equal(cards.at(-1)?.status, "completed");
  });

  it("keeps each command's output to its own card", () => {
    const cards = cardUpdates([command("a"), command("b"), delta("a", "from a"), delta("b", "from b")]);
    assert.deepEqual(cards.slice(-2).map((card) => [card.toolId, card.output]), [["a", "from a"], ["b", "from b"]]);
  });

  it("keeps the end of a long output and says how much came before it", () => {
    const piece = "0123456789".repeat(100) + "\n";
    const pieces = 1000;
    const updates = [command("long"), ...Array.from({ length: pieces }, (_, i) => delta("long", i === pieces - 1 ? "the last line\n" : piece))];
    const output = cardUpdates(updates).at(-1)?.output ?? "";
    assert.ok(output.endsWith("the last line\n"), output.slice(-100));
    const [note, ...rest] = output.split("\n");
    assert.equal(rest.join("\n").length, TERMINAL_OUTPUT_CHARS);
    const total = (pieces - 1) * piece.length + "the last line\n".length;
    assert.equal(note, `[${(total - TERMINAL_OUTPUT_CHARS).toLocaleString("en-US")} earlier characters not kept]`);
  });
});
