// The status bar item: one StatusView at a time, painted in the theme's error colours when a session failed.
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
    this.item.backgroundColor = view.tone === "error" ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
    this.item.color = view.tone === "error" ? new vscode.ThemeColor("statusBarItem.errorForeground") : undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
