// The real, published Qwen Code over ACP in the chat of a real VS Code, against our mock model server: a mode picked
// in the chat header between turns is set in the agent's warm session at once (`session/set_config_option`), the
// header shows it in warning colours when the agent approves by itself in it, and the next turn's write obeys it: asked
// on a card in the mode that asks, made without a card in `yolo`.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { ensureInstalled } from "../../scripts/recording/agent-cli-cache";
import { DONE_CHUNKS, QWEN, WRITE_PROMPT, WRITTEN_FILE } from "./real-acp-agents";
import { useRealAgentInPanel } from "./real-agent-in-panel";
import { ask, newSession, RESULTS, turnOf } from "./workbench";

describe(`real ${QWEN.title} ${QWEN.version} over ACP in a real VS Code: the mode picked in the chat header`, function () {
  this.timeout(300_000);
  const real = useRealAgentInPanel({
    name: "qwen-modes",
    install: () => ensureInstalled(QWEN.agent, QWEN.version),
    prepareHome: (places) => QWEN.prepareHome(places),
    env: (places) => QWEN.agent.env(places),
    settings: { "agentStream.cli.profile": QWEN.profile, "agentStream.cli.args": QWEN.args },
  });
  const { workbench } = real;

  it("sets a mode picked between turns in the warm session, and the next write obeys it", async () => {
    const page = workbench.page;
    const written = path.join(workbench.workspace, WRITTEN_FILE);
    fs.rmSync(written, { force: true });
    await newSession(page);
    real.mock.script([QWEN.writeFile(workbench.workspace)], QWEN.api.answer(DONE_CHUNKS), QWEN.sideRequests);
    const chat = await ask(page, WRITE_PROMPT);
    const first = turnOf(chat, WRITE_PROMPT);
    const card = first.locator("section.permission");
    await card.and(first.locator(".permission-waiting")).waitFor({ timeout: 120_000 });
    await card.getByRole("button", { name: "Reject", exact: true }).click();
    await first.locator(".turn-footer").waitFor({ timeout: 120_000 });
    assert.equal(fs.existsSync(written), false);

    const mode = chat.getByRole("combobox", { name: "Mode", exact: true });
    assert.equal(await mode.inputValue(), "default");
    await mode.selectOption("yolo");
    // The agent answered the switch: the header shows the mode it is in, marked as skipping approvals.
    await chat.locator(".agent-control-select.approves-itself[aria-label=Mode]").waitFor({ timeout: 60_000 });
    assert.match((await mode.getAttribute("title")) ?? "", /approves its own edits and commands/);
    await page.screenshot({ path: path.join(RESULTS, "e2e-qwen-modes-yolo.png") });

    const again = "Create it again, please.";
    real.mock.script([QWEN.writeFile(workbench.workspace)], QWEN.api.answer(DONE_CHUNKS), QWEN.sideRequests);
    await ask(page, again);
    const second = turnOf(chat, again);
    await second.locator(".turn-footer", { hasText: "Completed" }).waitFor({ timeout: 120_000 });
    assert.equal(await second.locator("section.permission").count(), 0, "no card in a mode that approves by itself");
    assert.ok(fs.existsSync(written), "the write was made");
  });
});
