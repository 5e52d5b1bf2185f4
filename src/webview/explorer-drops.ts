// Files and folders dragged from VS Code's explorer onto the composer (with Shift held: VS Code hands a drag to a
// webview only then). The drop names them by URI: `application/vnd.code.uri-list` lists them all, `text/uri-list` only
// the first (VS Code's workaround of a Chromium bug); the host makes chips of the workspace ones. A drop of files from
// the OS carries the files themselves: that one is the image chips' (image-attachments.ts).
import type { WebviewIntent } from "../protocol/messages";

const CODE_URI_LIST = "application/vnd.code.uri-list";
const URI_LIST = "text/uri-list";
/** The `dropFiles` intent's bounds (messages.ts's MAX_ATTACHMENTS, MAX_DROPPED_URI_CHARS): the page loads no schema. */
const MAX_ATTACHMENTS = 20;
const MAX_DROPPED_URI_CHARS = 4096;

/** Makes chips of what the explorer drops on `target`; `refuse` says why something dropped was not attached. */
export function takeExplorerDrops(target: HTMLElement, post: (intent: WebviewIntent) => void, refuse: (reason: string) => void): void {
  target.addEventListener("dragover", (event) => {
    if (carriesUris(event.dataTransfer)) event.preventDefault();
  });
  target.addEventListener("drop", (event) => {
    const data = event.dataTransfer;
    if (data === null || data.files.length > 0 || !carriesUris(data)) return;
    // The box would otherwise take the URIs as typed text.
    event.preventDefault();
    const listed = urisIn(data.getData(CODE_URI_LIST) || data.getData(URI_LIST));
    const uris = listed.filter((uri) => uri.length <= MAX_DROPPED_URI_CHARS).slice(0, MAX_ATTACHMENTS);
    if (uris.length < listed.length) refuse(`At most ${MAX_ATTACHMENTS} files and folders go with one prompt: the rest were not attached.`);
    if (uris.length > 0) post({ type: "dropFiles", uris });
  });
}

function carriesUris(data: DataTransfer | null): boolean {
  // A drag's types arrive lowercased.
  return data !== null && (data.types.includes(CODE_URI_LIST) || data.types.includes(URI_LIST));
}

/** A uri-list's URIs: one a line (CRLF: the trim takes the CR), `#` lines are comments (RFC 2483). */
export function urisIn(list: string): string[] {
  return list
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}
