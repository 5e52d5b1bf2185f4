// The session a command of the Sessions view acts on: the row it was run on (VS Code passes the row's summary), or,
// from the palette or a keybinding, one the user picks.
import * as vscode from "vscode";
import { SessionSummarySchema, type SessionSummary } from "../../protocol/sessions";
import type { CommandContext } from "./command";

export async function sessionArgument(context: CommandContext, argument: unknown, placeHolder: string): Promise<SessionSummary | undefined> {
  const given = SessionSummarySchema.safeParse(argument);
  if (given.success) return given.data;
  const rows = context.listed();
  const picked = await vscode.window.showQuickPick(
    rows.map((summary) => ({ label: summary.title, description: summary.agent.displayName, summary })),
    { placeHolder, matchOnDescription: true },
  );
  return picked?.summary;
}
