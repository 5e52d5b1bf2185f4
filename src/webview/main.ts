// The chat webview's entry: connect to the host, show what it sends, and say we are ready for the snapshot.
import type { HostMessage } from "../protocol/messages";
import { ChatView } from "./chat-view";
import { connectToHost } from "./vscode-api";

const host = connectToHost();
const root = document.getElementById("app");
if (root === null) throw new Error("the webview page has no #app element");
const chat = new ChatView(root, host);

// The host is trusted and sends only HostMessages; anything else posted to this window is not ours.
// A page shows one session: a snapshot moves it to the snapshot's session, and news of any other session (sent before
// the host moved the page on) is not this page's.
window.addEventListener("message", (event: MessageEvent<unknown>) => {
  if (!isHostMessage(event.data)) return;
  const message = event.data;
  if (message.type === "snapshot") host.showSession(message.sessionId);
  else if (host.sessionId !== null && message.sessionId !== host.sessionId) return;
  chat.receive(message);
});
host.post({ type: "ready" });

/**
 * Every HostMessage type, keyed by messages.ts's own union: a type added there and missing here (or one listed here
 * that is gone) fails to compile. The schema itself stays on the host: parsing with it would bring zod into the page.
 */
const HOST_MESSAGE_TYPES: Readonly<Record<HostMessage["type"], true>> = {
  snapshot: true,
  "turn-started": true,
  changes: true,
  header: true,
  pathsChecked: true,
  filesFound: true,
  attach: true,
  commands: true,
  queue: true,
  promptRefused: true,
  controls: true,
  context: true,
  filesDropped: true,
};

function isHostMessage(data: unknown): data is HostMessage {
  if (typeof data !== "object" || data === null) return false;
  const type = (data as { type?: unknown }).type;
  return typeof type === "string" && Object.hasOwn(HOST_MESSAGE_TYPES, type);
}
