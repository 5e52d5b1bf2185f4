// The store issue 23 measures: 1,000 stored sessions of a few short turns and a 5 MB active one, written by the real
// store code (src/sessions/), so the files and the index are what the extension writes. Shared by the benches of the
// session store and of the whole workbench.
import { randomUUID } from "node:crypto";
import type { Turn } from "../src/protocol/messages";
import type { SessionId, StoredSession } from "../src/protocol/sessions";
import { SessionStore, type SessionStoreOptions } from "../src/sessions/session-store";
import { statusOf, summaryOf } from "../src/sessions/session-summary";

export const STORED_SESSIONS = 1_000;
export const ACTIVE_SESSION_BYTES = 5 * 1024 * 1024;
/** The active session's turns: 50 of about 100 KB each. */
export const ACTIVE_SESSION_TURNS = 50;
export const STORE_OPTIONS: SessionStoreOptions = { maxBytes: 200 * 1024 * 1024, log: { warn: (message) => console.warn(message) } };

/** A turn of markdown answer about `chars` long, with a tool call that edited a file. */
export function storedTurn(id: number, chars: number, prompt = `Question ${id}: why does the parser read the config twice?`): Turn {
  const paragraph = "The parser reads the `config` once and caches it; **every** call after that uses the cache. ";
  return {
    id,
    prompt,
    agent: "claude",
    state: "completed",
    blocks: [
      { kind: "text", text: paragraph.repeat(Math.ceil(chars / paragraph.length)).slice(0, chars) },
      { kind: "tool", tool: "Edit", toolId: `call-${id}`, parameters: { file_path: "src/parser.ts" }, status: "succeeded", durationMs: 12, error: null, toolKind: "edit", title: "Edit src/parser.ts", output: null, diffs: [{ path: "src/parser.ts", oldText: "a\nb\n", newText: "a\nc\n" }], locations: [] },
    ],
    problems: [],
    done: { exitCode: 0, durationMs: 4200, toolsUsed: ["Edit"], tokensUsed: 1200, success: true, synthesized: false, usage: null },
    status: "completed",
    context: null,
    origin: "prompt",
  };
}

/** A Claude Code session of `turns`, titled by its first prompt. */
export function storedSession(updatedAt: number, turns: Turn[]): StoredSession {
  return {
    version: 1,
    id: randomUUID() as SessionId,
    title: turns[0]?.prompt ?? "",
    titleSource: "prompt",
    agent: { profile: "claude", displayName: "Claude Code", command: "claude", args: ["-p", "--output-format", "stream-json"] },
    createdAt: updatedAt - 60_000,
    updatedAt,
    turns,
    agentSession: { conversationId: randomUUID(), spoke: true, acpSessionId: null },
    source: "agent-stream",
    pendingPrompts: [],
  };
}

/** The 5 MB session: the newest, so it is the Sessions view's first row. */
export function activeSession(): StoredSession {
  const turns = Array.from({ length: ACTIVE_SESSION_TURNS }, (_, n) => storedTurn(n + 1, ACTIVE_SESSION_BYTES / ACTIVE_SESSION_TURNS, n === 0 ? "The 5 MB session: why does the parser read the config twice?" : undefined));
  return storedSession(1_800_000_000_000, turns);
}

/** Fills the store under `storage` (the extension's workspace storage folder): 1,000 sessions of four turns of about 2 KB each, and the active one. */
export async function fillStore(storage: string): Promise<StoredSession> {
  const store = await SessionStore.open(storage, STORE_OPTIONS);
  for (let n = 0; n < STORED_SESSIONS; n++) {
    const turns = [1, 2, 3, 4].map((id) => storedTurn(id, 2_000, `Question ${id} of session ${n + 1}: why does the parser read the config twice?`));
    const stored = storedSession(1_700_000_000_000 + n * 1000, turns);
    void store.save(stored, summaryOf(stored, statusOf(stored)));
    if (n % 50 === 0) await store.flush();
  }
  const active = activeSession();
  await store.save(active, summaryOf(active, statusOf(active)));
  await store.flush();
  return active;
}
