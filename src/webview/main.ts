// The chat webview's entry: connect to the host, show what it sends, and say we are ready for the snapshot.
import type { HostMessage } from "../protocol/messages";
import { ChatView } from "./chat-view";
import { connectToHost } from "./vscode-api";

const host = connectToHost();
const root = document.getElementById("app");
if (root === null) throw new Error("the webview page has no #app element");
const chat = new ChatView(root, host);

// The host is trusted and sends only HostMessages; anything else posted to this window is not ours.
window.addEventListener("message", (event: MessageEvent<unknown>) => {
  if (isHostMessage(event.data)) chat.receive(event.data);
});
host.post({ type: "ready" });

function isHostMessage(data: unknown): data is HostMessage {
  if (typeof data !== "object" || data === null) return false;
  const type = (data as { type?: unknown }).type;
  return type === "snapshot" || type === "turn-started" || type === "changes" || type === "cleared";
}
