// Fills a VS Code webview (sidebar view or editor tab) with the chat page and its strict CSP.
import * as vscode from "vscode";
import { renderWebviewPage } from "../panel/webview-html";

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, "dist"), vscode.Uri.joinPath(extensionUri, "media")],
  };
}

export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri, placement: "sidebar" | "editor"): string {
  const asUri = (...path: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...path)).toString();
  return renderWebviewPage({
    cspSource: webview.cspSource,
    scriptUri: asUri("dist", "webview.js"),
    styleUris: [asUri("dist", "codicons", "codicon.css"), asUri("dist", "webview.css")],
    placement,
  });
}
