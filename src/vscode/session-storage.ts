// Where this workspace's sessions are kept: the store under the extension's workspace storage folder (a window with
// no folder open keeps its own under the global one), with the single conversation earlier versions kept in the
// workspace's state moved into it once, nothing lost.
import * as path from "node:path";
import type * as vscode from "vscode";
import { SessionIdSchema, type SessionId } from "../protocol/sessions";
import { migrateConversation } from "../sessions/migrate-conversation";
import { SessionStore } from "../sessions/session-store";
import { statusOf, summaryOf } from "../sessions/session-summary";
import { randomUUID } from "node:crypto";
import { readSettings } from "./settings";

/** The five keys earlier versions kept the one conversation under. */
const OLD_KEYS = {
  turns: "agentStream.conversation",
  runningTurn: "agentStream.runningTurn",
  cliConversation: "agentStream.cliConversation",
  runningCliConversation: "agentStream.runningCliConversation",
  acpSession: "agentStream.acpSession",
} as const;

/** The session active when the window closed: the one the chat shows again after a reload. */
const ACTIVE_SESSION_KEY = "agentStream.activeSession";

export function activeSessionId(state: vscode.Memento): SessionId | undefined {
  const parsed = SessionIdSchema.safeParse(state.get<unknown>(ACTIVE_SESSION_KEY));
  return parsed.success ? parsed.data : undefined;
}

export function rememberActiveSession(state: vscode.Memento, id: SessionId): void {
  void state.update(ACTIVE_SESSION_KEY, id);
}

export async function openSessionStore(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Promise<SessionStore> {
  const folder = context.storageUri?.fsPath ?? path.join(context.globalStorageUri.fsPath, "no-folder");
  const store = await SessionStore.open(folder, { maxBytes: readSettings(log).maxStorageBytes, log });
  await migrate(context.workspaceState, store, log);
  return store;
}

/** The conversation of an earlier version becomes the first session; its keys go only once the session is written. */
async function migrate(state: vscode.Memento, store: SessionStore, log: vscode.LogOutputChannel): Promise<void> {
  const old = {
    turns: state.get<unknown>(OLD_KEYS.turns),
    runningTurn: state.get<unknown>(OLD_KEYS.runningTurn),
    cliConversation: state.get<unknown>(OLD_KEYS.cliConversation),
    runningCliConversation: state.get<unknown>(OLD_KEYS.runningCliConversation),
    acpSession: state.get<unknown>(OLD_KEYS.acpSession),
  };
  if (Object.values(old).every((value) => value === undefined)) return;
  const session = migrateConversation(old, Date.now(), () => randomUUID());
  if (session !== null) {
    await store.save(session, summaryOf(session, statusOf(session)));
    await store.flush();
    log.info(`the conversation of an earlier version is now the session "${session.title}"`);
  }
  for (const key of Object.values(OLD_KEYS)) await state.update(key, undefined);
}
