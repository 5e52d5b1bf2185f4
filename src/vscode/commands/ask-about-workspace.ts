// F1 → "Ask about Workspace": a prompt from an input box, sent with the editor context the settings allow. A
// keybinding may give the prompt as the command's argument (`"args": "Explain the selection"`): no input box then.
import * as vscode from "vscode";
import { buildPromptContext } from "../../panel/prompt-context";
import { MAX_PROMPT_CHARS } from "../../protocol/messages";
import { snapshotEditor } from "../editor-context";
import { readSettings } from "../settings";
import type { AgentStreamCommand, CommandContext } from "./command";

export const askAboutWorkspace: AgentStreamCommand = {
  id: "agentStream.askAboutWorkspace",
  run: (context, prompt) => ask(context, typeof prompt === "string" ? prompt : undefined),
};

async function ask({ chat, log, revealChat }: CommandContext, given: string | undefined): Promise<void> {
  // Taken first: once the chat opens in an editor tab, there is no active text editor any more.
  const editor = snapshotEditor();
  // The notifications are not awaited: the command is done once it has said so, whenever the user answers.
  if (chat.running) {
    void vscode.window.showInformationMessage("Agent Stream is still answering. Stop it before asking again.", "Stop", "Show Chat").then((choice) => {
      if (choice === "Stop") void chat.stop();
      if (choice === "Show Chat") void revealChat();
    });
    return;
  }
  if (!vscode.workspace.isTrusted) {
    await revealChat();
    void vscode.window
      .showWarningMessage("Agent Stream does not run agent CLIs in Restricted Mode. Trust this workspace to ask about it.", "Manage Workspace Trust")
      .then((choice) => choice !== undefined && vscode.commands.executeCommand("workbench.trust.manage"));
    return;
  }
  const settings = readSettings(log);
  const context = buildPromptContext(editor, settings.context);
  // With a selection (that the settings let it send), the question is about the selection.
  const aboutSelection = settings.context.selection && editor.selection !== null && editor.selection.text.trim() !== "";
  const prompt = given?.slice(0, MAX_PROMPT_CHARS) ?? await vscode.window.showInputBox({
    title: aboutSelection ? "Agent Stream: Ask about the Selection" : "Agent Stream: Ask about Workspace",
    prompt: context === null ? "Ask the agent about this workspace." : `Sent with ${context.summary}.`,
    placeHolder: aboutSelection ? "e.g. What does this do, and is it right?" : "e.g. Where is the session state machine, and how does Stop work?",
    ignoreFocusOut: true,
    validateInput: (value) => (value.length > MAX_PROMPT_CHARS ? `At most ${MAX_PROMPT_CHARS.toLocaleString("en-US")} characters.` : null),
  });
  if (prompt === undefined || prompt.trim() === "") return;
  await revealChat();
  chat.send(prompt, context);
}
