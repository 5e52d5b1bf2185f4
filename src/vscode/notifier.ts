// Shows a Notice as a VS Code notification whose buttons run the error actions. Tests may look at notices
// instead of the workbench (they cannot click a toast from the extension host) through `intercept`. Every message
// carries an agent's words, so each one is made plain text first (no links), before any handler sees it.
import * as vscode from "vscode";
import { notificationText } from "../common/notification-text";
import type { Notice } from "../panel/notification-policy";
import { ACTION_CAPTIONS } from "../protocol/error-guides";
import type { ErrorAction } from "../protocol/messages";

/** Answers a notice with the caption of the button "clicked", or undefined for a dismissed notification. */
export type NoticeHandler = (notice: { severity: Notice["severity"]; message: string; actions: string[] }) => Thenable<string | undefined>;

export class Notifier {
  private handler: NoticeHandler = ({ severity, message, actions }) =>
    severity === "error" ? vscode.window.showErrorMessage(message, ...actions) : vscode.window.showWarningMessage(message, ...actions);

  /** `runAction` carries out the button clicked, for the session the notice is about. */
  show(notice: Notice, runAction: (action: ErrorAction) => void): void {
    const captions = notice.actions.map((action) => ACTION_CAPTIONS[action]);
    void Promise.resolve(this.handler({ severity: notice.severity, message: notificationText(notice.message), actions: captions })).then((chosen) => {
      const action = notice.actions.find((a) => ACTION_CAPTIONS[a] === chosen);
      if (action !== undefined) runAction(action);
    });
  }

  /** A question with the choices in the asker's words: the caption chosen, or undefined when dismissed. */
  ask(message: string, choices: readonly string[]): Thenable<string | undefined> {
    return Promise.resolve(this.handler({ severity: "warning", message: notificationText(message), actions: [...choices] }));
  }

  intercept(handler: NoticeHandler): vscode.Disposable {
    const previous = this.handler;
    this.handler = handler;
    return new vscode.Disposable(() => (this.handler = previous));
  }
}
