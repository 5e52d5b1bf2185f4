// Fills a VS Code webview (sidebar view or editor tab) with the chat page and its strict CSP.
import * as vscode from "vscode";
import { renderWebviewPage } from "../panel/webview-html";

/**
 * Shows the chat page in a webview. The page goes in before the options: VS Code loads every update of either into a
 * webview that is already up (a restored view), so options first would load the empty page, without our CSP.
 */
export function showChatPage(webview: vscode.Webview, extensionUri: vscode.Uri, placement: "sidebar" | "editor"): void {
  webview.html = chatHtml(webview, extensionUri, placement);
  webview.options = webviewOptions(extensionUri);
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, "dist"), vscode.Uri.joinPath(extensionUri, "media")],
  };
}

function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri, placement: "sidebar" | "editor"): string {
  const asUri = (...path: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...path)).toString();
  return renderWebviewPage({
    cspSource: webview.cspSource,
    scriptUri: asUri("dist", "webview.js"),
    styleUris: [asUri("dist", "codicons", "codicon.css"), asUri("dist", "webview.css")],
    placement,
  });
}
