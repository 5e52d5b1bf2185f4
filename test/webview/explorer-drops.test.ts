// Files and folders dragged from VS Code's explorer onto the composer (Shift held): the drop carries their URIs, the
// page asks the host about them, and the host's answer becomes chips (or a line saying what was refused). A drop of
// files from the OS stays the image chips'.
import * as assert from "node:assert/strict";
import { WebviewIntentSchema } from "../../src/protocol/messages";
import { WebviewHarness, type TestHostMessage } from "../helpers/webview-harness";

const EMPTY: TestHostMessage = { type: "snapshot", turns: [], restriction: null };
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe("webview: files dropped from the explorer on the composer", function () {
  let harness: WebviewHarness;
  const input = () => harness.page.getByRole("textbox", { name: "Message to the agent" });
  const fileChips = () => harness.page.locator(".attachment-chip:not(.image-chip)");

  before(async function () {
    harness = await WebviewHarness.open();
  });

  after(async function () {
    await harness?.close();
  });

  beforeEach(async function () {
    await harness.reload();
    await harness.send(EMPTY);
    await input().fill("");
    await harness.clearIntents();
  });

  /** A drop on the message box as VS Code's explorer makes it: its data by type, and files from the OS, if any. */
  async function drop(data: Record<string, string>, osFile?: { name: string; type: string; base64: string }): Promise<boolean> {
    return input().evaluate(
      (box, { data, osFile }) => {
        const transfer = new DataTransfer();
        for (const [type, value] of Object.entries(data)) transfer.setData(type, value);
        if (osFile !== undefined) transfer.items.add(new File([Uint8Array.from(atob(osFile.base64), (char) => char.charCodeAt(0))], osFile.name, { type: osFile.type }));
        const over = new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true, shiftKey: true });
        box.dispatchEvent(over);
        box.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true, shiftKey: true }));
        // Whether the page took the drag (a page that does not is never dropped on).
        return over.defaultPrevented;
      },
      { data, osFile },
    );
  }

  it("asks the host about every file of VS Code's own uri-list, not only the first that text/uri-list keeps", async function () {
    const taken = await drop({
      "application/vnd.code.uri-list": "file:///work/app/src/a.ts\r\nfile:///work/app/docs\r\n",
      "text/uri-list": "file:///work/app/src/a.ts",
      "text/plain": "/work/app/src/a.ts",
    });
    assert.equal(taken, true);
    assert.deepEqual(await harness.waitForIntent("dropFiles"), { type: "dropFiles", uris: ["file:///work/app/src/a.ts", "file:///work/app/docs"] });
    assert.equal(await input().inputValue(), "", "nothing of the drop is typed into the box");
  });

  it("reads text/uri-list, skipping its comment lines, when that is all the drop carries", async function () {
    await drop({ "text/uri-list": "# dragged\r\nfile:///work/app/README.md\r\n" });
    assert.deepEqual(await harness.waitForIntent("dropFiles"), { type: "dropFiles", uris: ["file:///work/app/README.md"] });
  });

  it("asks about as many as a prompt may carry, within the intent's bounds, and says the rest were not attached", async function () {
    const uris = [`file:///work/${"x".repeat(5000)}.ts`, ...Array.from({ length: 25 }, (_, index) => `file:///work/app/${index}.ts`)];
    await drop({ "application/vnd.code.uri-list": uris.join("\r\n") });
    const asked = await harness.waitForIntent("dropFiles");
    assert.deepEqual(asked.uris, uris.slice(1, 21));
    assert.ok(WebviewIntentSchema.safeParse(asked).success, "the host takes it");
    await harness.page.getByRole("alert").filter({ hasText: "At most 20 files and folders go with one prompt" }).waitFor();
  });

  it("shows the host's answer as file and folder chips that go with the prompt, and says what was refused", async function () {
    await harness.send({
      type: "filesDropped",
      attachments: [
        { kind: "file", path: "src/a.ts" },
        { kind: "folder", path: "docs" },
      ],
      refused: ["file:///etc/passwd"],
    });
    await fileChips().nth(1).waitFor();
    assert.deepEqual(await fileChips().allTextContents(), ["src/a.ts", "docs/"]);
    await harness.page.getByRole("alert").filter({ hasText: "/etc/passwd: not a file or folder in the workspace, not attached." }).waitFor();
    await input().fill("Compare these");
    await input().press("Enter");
    const sent = await harness.waitForIntent("send");
    assert.deepEqual(sent, { type: "send", prompt: "Compare these", attachments: [{ kind: "file", path: "src/a.ts" }, { kind: "folder", path: "docs" }] });
  });

  it("leaves a drop of an image from the OS to the image chips, though it carries a uri-list too", async function () {
    await drop({ "text/uri-list": "file:///home/me/Pictures/shot.png" }, { name: "shot.png", type: "image/png", base64: PNG_BASE64 });
    await harness.page.locator(".image-chip").first().waitFor();
    assert.ok(!(await harness.intents()).some((intent) => intent.type === "dropFiles"));
  });
});
