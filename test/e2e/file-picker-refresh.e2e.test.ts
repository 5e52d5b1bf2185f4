// The @ picker in a real VS Code follows the workspace as it changes: a file created after the picker first walked the
// workspace is offered once VS Code's file watcher has seen it, and a deleted one is no longer offered. (The walk is
// kept between keystrokes; a creation or deletion makes the next question walk again, the last walk answering until
// the new one is done, so the test asks again until the answer changes.)
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { FrameLocator } from "playwright-core";
import { eventually } from "../helpers/eventually";
import { fakeCli } from "../helpers/repo";
import { openChat, useWorkbench } from "./workbench";

/** Types `@query` into an empty box and returns the names the picker offers once it answers. */
async function offered(chat: FrameLocator, query: string): Promise<string[]> {
  const composer = chat.locator("textarea").first();
  await composer.fill("");
  await chat.getByRole("listbox").waitFor({ state: "hidden", timeout: 30_000 });
  // One question (not one per key typed): the list shows once the host answered it, so what it holds is the answer.
  await composer.fill(`@${query}`);
  const list = chat.getByRole("listbox");
  await list.waitFor({ timeout: 30_000 });
  const names = await list.getByRole("option").allInnerTexts();
  await composer.press("Escape");
  return names;
}

describe("the @ picker in a real VS Code, as files come and go", function () {
  this.timeout(240_000);
  const workbench = useWorkbench({ "agentStream.cli.path": fakeCli("fake-locus.js"), "agentStream.cli.env": { FAKE_SCENARIO: "answer" } });

  it("offers a file created after its first walk, and no longer one that was deleted", async () => {
    const chat = await openChat(workbench.page);
    assert.ok((await offered(chat, "readm")).some((name) => name.includes("README.md")), "the picker walked the workspace");
    assert.deepEqual((await offered(chat, "kumquat")).filter((name) => name.includes("kumquat")), []);

    const created = path.join(workbench.workspace, "kumquat-notes.md");
    fs.writeFileSync(created, "# Kumquats\n");
    await eventually("the new file offered", async () => (await offered(chat, "kumquat")).some((name) => name.includes("kumquat-notes.md")), 60_000);

    fs.rmSync(created);
    await eventually("the deleted file no longer offered", async () => !(await offered(chat, "kumquat")).some((name) => name.includes("kumquat-notes.md")), 60_000);
  });
});
