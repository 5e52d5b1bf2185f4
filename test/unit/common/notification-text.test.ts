import * as assert from "node:assert/strict";
import { notificationText } from "../../../src/common/notification-text";

// VS Code makes `[label](https://…|command:…|file:…)` in a notification's message a link (microsoft/vscode#46571).
describe("notification text: an agent's words in a VS Code notification", () => {
  it("keeps the words of a link written in markdown, but not the link", () => {
    assert.equal(
      notificationText("Edit [the notes](command:workbench.action.reloadWindow) and [docs](https://example.com/x)"),
      "Edit [the notes] (command:workbench.action.reloadWindow) and [docs] (https://example.com/x)",
    );
  });

  it("leaves brackets and parentheses that make no link as they are", () => {
    assert.equal(notificationText("Run npm test (in [src]) — 3 files"), "Run npm test (in [src]) — 3 files");
  });

  it("shows control and bidi characters as escapes, so the message cannot hide or reorder its words", () => {
    assert.equal(notificationText("Edit a.txt\u202eexe.sh\nsecond line\x1b[2J"), "Edit a.txt\\u202eexe.sh\\nsecond line\\x1b[2J");
  });
});
