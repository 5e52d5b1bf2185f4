// The chat webview's HTML. Pure: the VS Code provider and the Chromium test harness both serve exactly this page,
// so the Content Security Policy under test is the one users get.
import { randomBytes } from "node:crypto";

export interface WebviewPageOptions {
  /** The webview's own origin for resources (VS Code's `webview.cspSource`). */
  cspSource: string;
  scriptUri: string;
  styleUris: readonly string[];
  /** A fresh nonce per page load; only the script carrying it may run. */
  nonce?: string;
  /** "sidebar" or "editor": the layout differs a little. */
  placement: "sidebar" | "editor";
}

export function createNonce(): string {
  return randomBytes(18).toString("base64url");
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    // blob: only for the composer's thumbnails of pasted images, which the page makes itself from their bytes.
    `img-src ${cspSource} blob:`,
    "connect-src 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

export function renderWebviewPage(options: WebviewPageOptions): string {
  const nonce = options.nonce ?? createNonce();
  const styles = options.styleUris.map((uri) => `<link rel="stylesheet" href="${escapeAttribute(uri)}">`).join("\n    ");
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeAttribute(contentSecurityPolicy(options.cspSource, nonce))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>Agent Stream</title>
  </head>
  <body class="placement-${options.placement}">
    <div id="app" role="main" aria-label="Agent Stream chat"></div>
    <script nonce="${nonce}" src="${escapeAttribute(options.scriptUri)}"></script>
  </body>
</html>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
