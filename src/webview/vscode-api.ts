// The webview's only way out: VS Code's message channel, typed with the intents the host accepts.
import type { IntentEnvelope, WebviewIntent } from "../protocol/messages";

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** What the view keeps across reloads: where the user had scrolled to, nothing else. */
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
}

/** May be called once per page: VS Code refuses a second acquireVsCodeApi(). */
export function connectToHost(): HostChannel {
  const api = acquireVsCodeApi();
  const saved = api.getState();
  let sessionId = parseSessionId(saved);
  let viewState = parseViewState(saved);
  // One state object holds both: each save keeps the other part.
  const save = () => api.setState({ ...viewState, sessionId });
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
  };
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
