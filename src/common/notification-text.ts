// Text for a VS Code notification. VS Code makes `[label](https://…)`, `[label](command:…)` and `[label](file:…)`
// in a notification's message a link (command links since 1.34); in what an agent or its model wrote (a tool's
// title, a file name, an error message) that would be a link nobody meant, with whatever label the model chose.
// Every notification's message passes through here: the words stay, the link does not.
import { escapeForLog } from "../protocol/visible-text";

/** `](` never stays together, so no `[label](target)` is left; control and bidi characters are shown as escapes. */
export function notificationText(text: string): string {
  return escapeForLog(text).replaceAll("](", "] (");
}
