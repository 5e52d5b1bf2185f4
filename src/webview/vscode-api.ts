// The webview's only way out: VS Code's message channel, typed with the intents the host accepts.
import type { IntentEnvelope, WebviewIntent } from "../protocol/messages";

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** Where the user had scrolled to: kept across reloads. */
export interface ViewState {
  scrollTop: number;
  following: boolean;
}

export interface HostChannel {
  /** Sends an intent about the session the page shows (see IntentEnvelope). */
  post(intent: WebviewIntent): void;
  /** The session the page shows now, or null before the host's first snapshot (a reloaded tab: the one it showed). */
  readonly sessionId: string | null;
  /** The host moved the page to a session (its snapshot): intents name it from now on, and a reload comes back to it. */
  showSession(sessionId: string): void;
  loadViewState(): ViewState | undefined;
  saveViewState(state: ViewState): void;
  /** What the user had typed and not sent in a session's composer ("" when nothing), kept across reloads. */
  loadDraft(sessionId: string): string;
  saveDraft(sessionId: string, text: string): void;
}

/**
 * Drafts of this many sessions at most, the most recently typed kept: VS Code keeps a webview's state in memory and
 * in the workspace's storage, so it must stay small.
 */
export const MAX_DRAFTS = 20;
/** A draft longer than this is kept only for the page's life: a pasted file should not be written to the state. */
export const MAX_SAVED_DRAFT_CHARS = 64 * 1024;

/** May be called once per page: VS Code refuses a second acquireVsCodeApi(). */
export function connectToHost(): HostChannel {
  const api = acquireVsCodeApi();
  const saved = api.getState();
  let sessionId = parseSessionId(saved);
  let viewState = parseViewState(saved);
  // Oldest first: a draft saved again moves to the end.
  const drafts = parseDrafts(saved);
  // One state object holds them all: each save keeps the other parts.
  const save = () => api.setState({ ...viewState, sessionId, drafts: Object.fromEntries(drafts) });
  return {
    post: (intent) => api.postMessage({ sessionId, intent } satisfies IntentEnvelope),
    get sessionId() {
      return sessionId;
    },
    showSession: (id) => {
      sessionId = id;
      save();
    },
    loadViewState: () => viewState,
    saveViewState: (state) => {
      viewState = state;
      save();
    },
    loadDraft: (id) => drafts.get(id) ?? "",
    saveDraft: (id, text) => {
      const kept = text.length <= MAX_SAVED_DRAFT_CHARS ? text : "";
      if ((drafts.get(id) ?? "") === kept) return;
      drafts.delete(id);
      if (kept !== "") drafts.set(id, kept);
      for (const oldest of drafts.keys()) {
        if (drafts.size <= MAX_DRAFTS) break;
        drafts.delete(oldest);
      }
      save();
    },
  };
}

function parseDrafts(raw: unknown): Map<string, string> {
  const drafts = new Map<string, string>();
  if (typeof raw !== "object" || raw === null) return drafts;
  const saved = (raw as Record<string, unknown>).drafts;
  if (typeof saved !== "object" || saved === null) return drafts;
  for (const [id, text] of Object.entries(saved as Record<string, unknown>).slice(-MAX_DRAFTS)) {
    if (id.length <= 36 && typeof text === "string" && text.length <= MAX_SAVED_DRAFT_CHARS) drafts.set(id, text);
  }
  return drafts;
}

function parseSessionId(raw: unknown): string | null {
  if (typeof raw !== "object" || raw === null) return null;
  const { sessionId } = raw as Record<string, unknown>;
  return typeof sessionId === "string" && sessionId.length <= 36 ? sessionId : null;
}

function parseViewState(raw: unknown): ViewState | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const { scrollTop, following } = raw as Record<string, unknown>;
  if (typeof scrollTop !== "number" || typeof following !== "boolean") return undefined;
  return { scrollTop, following };
}
