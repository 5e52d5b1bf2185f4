// Extension entry point. The VS Code glue grows here; the core lives in protocol/, stream/, process/, session/.
import type * as vscode from "vscode";

export function activate(_context: vscode.ExtensionContext): void {
  // Commands, views and the status bar are registered by later layers.
}

export function deactivate(): void {}
