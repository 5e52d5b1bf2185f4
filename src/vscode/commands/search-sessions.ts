import * as vscode from "vscode";
import type { SessionSummary } from "../../protocol/sessions";
import { searchableText } from "../../sessions/session-summary";
import type { AgentStreamCommand } from "./command";

/** How many sessions' prompts the search reads from the store, newest first; older ones match by title. */
const SEARCHED_SESSIONS = 300;
/** Characters of a session's prompts the search matches against. */
const SEARCHED_CHARS = 2000;

type Item = vscode.QuickPickItem & { summary: SessionSummary };

/** A quick pick over the sessions' titles and what was asked in them; the one picked opens in the chat view. */
export const searchSessions: AgentStreamCommand = {
  id: "agentStream.searchSessions",
  run: async (context) => {
    const pick = vscode.window.createQuickPick<Item>();
    pick.title = "Agent Stream: Search Sessions";
    pick.placeholder = "Search the sessions' titles and prompts";
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    const rows = context.listed();
    const item = (summary: SessionSummary, prompts: string): Item => ({ label: summary.title, description: summary.agent.displayName, detail: prompts, summary });
    pick.items = rows.map((summary) => item(summary, ""));
    pick.busy = true;
    pick.show();
    const chosen = new Promise<SessionSummary | undefined>((resolve) => {
      pick.onDidAccept(() => resolve(pick.selectedItems[0]?.summary));
      pick.onDidHide(() => resolve(undefined));
    });
    // The prompts come as each session is read: the titles match at once.
    void (async () => {
      const items = [...pick.items];
      for (const [index, summary] of rows.slice(0, SEARCHED_SESSIONS).entries()) {
        const prompts = searchableText(await context.sessions.promptsOf(summary.id), SEARCHED_CHARS);
        items[index] = item(summary, prompts);
      }
      pick.items = items;
      pick.busy = false;
    })();
    const summary = await chosen;
    pick.dispose();
    if (summary !== undefined) await vscode.commands.executeCommand("agentStream.openSession", summary);
  },
};
