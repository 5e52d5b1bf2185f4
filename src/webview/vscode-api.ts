// The webview's only way out: VS Code's message channel, typed with the intents the host accepts.
import type { WebviewIntent } from "../protocol/messages";

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
  post(intent: WebviewIntent): void;
  loadViewState(): ViewState | undefined;
  saveViewState(state: ViewState): void;
}

/** May be called once per page: VS Code refuses a second acquireVsCodeApi(). */
export function connectToHost(): HostChannel {
  const api = acquireVsCodeApi();
  return {
    post: (intent) => api.postMessage(intent),
    loadViewState: () => parseViewState(api.getState()),
    saveViewState: (state) => api.setState(state),
  };
}

function parseViewState(raw: unknown): ViewState | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const { scrollTop, following } = raw as Record<string, unknown>;
  if (typeof scrollTop !== "number" || typeof following !== "boolean") return undefined;
  return { scrollTop, following };
}
