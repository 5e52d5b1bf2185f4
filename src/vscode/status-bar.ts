// The status bar item: one StatusView at a time, painted in the theme's error colours when a session failed and in
// its warning colours while a permission request waits for the user.
import * as vscode from "vscode";
import type { StatusView } from "../panel/status-model";

export class StatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;

  constructor(command: string) {
    this.item = vscode.window.createStatusBarItem("agentStream.status", vscode.StatusBarAlignment.Left, 100);
    this.item.name = "Agent Stream";
    this.item.command = command;
  }

  render(view: StatusView): void {
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.accessibilityInformation = { label: view.tooltip };
    // Only the error and warning backgrounds are honoured by VS Code for extension items.
    this.item.backgroundColor = view.tone === "normal" ? undefined : new vscode.ThemeColor(`statusBarItem.${view.tone}Background`);
    this.item.color = view.tone === "normal" ? undefined : new vscode.ThemeColor(`statusBarItem.${view.tone}Foreground`);
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
