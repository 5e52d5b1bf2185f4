// The extension in a real VS Code: it starts when the user opens the chat, and every command it declares works.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { z } from "zod";
import { eventually } from "../helpers/eventually";

const EXTENSION_ID = "agent-stream.agent-stream";

/** The part of package.json this suite reads, from the loaded extension so that it cannot drift. */
const ManifestSchema = z.object({
  contributes: z.object({ commands: z.array(z.object({ command: z.string(), title: z.string() })).nonempty() }),
});

function agentStream(): vscode.Extension<unknown> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not loaded in this window`);
  return extension;
}

describe("activation", () => {
  // The first test of a fresh window (files load in name order): nothing has started the extension yet.
  it("stays idle until the user opens the chat, then activates", async () => {
    const extension = agentStream();
    assert.equal(extension.isActive, false, "nothing the user did yet should start Agent Stream");
    await vscode.commands.executeCommand("agentStream.openChat");
    assert.equal(extension.isActive, true);
  });

  it("registers every command it declares", async () => {
    const extension = agentStream();
    await extension.activate();
    const declared = ManifestSchema.parse(extension.packageJSON).contributes.commands;
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = declared.filter(({ command }) => !registered.has(command)).map(({ command, title }) => `${command} (${title})`);
    assert.deepEqual(missing, [], "declared in package.json but not registered");
  });

  it("shows its log in the Output panel", async () => {
    await vscode.commands.executeCommand("agentStream.showLog");
    // The Output panel's editor shows the channel as an `output:` document named for the extension and the channel.
    await eventually("the Agent Stream log to be visible", () =>
      vscode.window.visibleTextEditors.find(({ document }) => document.uri.scheme === "output" && document.uri.path.includes("Agent Stream")),
    );
  });
});
