// Images in the composer: a pasted screenshot or a dropped image file becomes a chip with a thumbnail and goes with
// the prompt; what is not an image by its bytes is refused with a reason; a prompt the host refuses (its agent takes
// no images) comes back to the box with its images, and the reason is shown.
import * as assert from "node:assert/strict";
import { WebviewHarness, type TestHostMessage } from "../helpers/webview-harness";

const EMPTY: TestHostMessage = { type: "snapshot", turns: [], restriction: null };
/** A 1×1 PNG. */
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe("webview: images pasted and dropped in the composer", function () {
  let harness: WebviewHarness;
  const input = () => harness.page.getByRole("textbox", { name: "Message to the agent" });
  const chips = () => harness.page.locator(".image-chip");

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

  /** A paste or drop event on the message box carrying one file, as Chromium builds it from the OS. */
  async function deliver(kind: "paste" | "drop", file: { name: string; type: string; base64: string }): Promise<void> {
    await input().evaluate(
      (box, { kind, file }) => {
        const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], file.name, { type: file.type }));
        const event = kind === "paste" ? new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }) : new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true });
        box.dispatchEvent(event);
      },
      { kind, file },
    );
  }

  it("attaches a pasted screenshot as a chip with its thumbnail, and sends it with the prompt", async function () {
    await deliver("paste", { name: "image.png", type: "image/png", base64: PNG_BASE64 });
    await chips().first().waitFor();
    assert.match((await chips().first().textContent()) ?? "", /^image\.png \(1 KB\)$/);
    const thumbnail = chips().first().locator("img");
    assert.match((await thumbnail.getAttribute("src")) ?? "", /^blob:/);
    // Shown, not blocked by the page's CSP: the 1×1 image has loaded.
    await harness.page.waitForFunction((img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth === 1, await thumbnail.elementHandle());
    assert.deepEqual(await harness.cspViolations(), []);
    await input().fill("What is this?");
    await input().press("Enter");
    const sent = await harness.waitForIntent("send");
    assert.deepEqual(sent, { type: "send", prompt: "What is this?", images: [{ kind: "image", mimeType: "image/png", data: PNG_BASE64, name: "image.png" }] });
    assert.equal(await chips().count(), 0, "the image went with the prompt");
  });

  it("attaches a dropped image file by its bytes, whatever its name says", async function () {
    await deliver("drop", { name: "diagram.jpg", type: "image/jpeg", base64: PNG_BASE64 });
    await chips().first().waitFor();
    await input().fill("Explain");
    await input().press("Enter");
    const sent = await harness.waitForIntent("send");
    assert.equal(sent.type === "send" && sent.images?.[0]?.mimeType, "image/png");
  });

  it("refuses a file that is not an image by its bytes, and says why", async function () {
    await deliver("drop", { name: "notes.png", type: "image/png", base64: btoa("<svg xmlns='http://www.w3.org/2000/svg'/>") });
    const notice = harness.page.getByRole("alert");
    await notice.filter({ hasText: "notes.png is not a PNG, JPEG, GIF or WebP image" }).waitFor();
    assert.equal(await chips().count(), 0);
  });

  it("gives the prompt and its image back, and shows the reason, when the host refuses it", async function () {
    await deliver("paste", { name: "image.png", type: "image/png", base64: PNG_BASE64 });
    await chips().first().waitFor();
    await input().fill("What is this?");
    await input().press("Enter");
    await harness.waitForIntent("send");
    assert.equal(await input().inputValue(), "");
    await harness.send({ type: "promptRefused", reason: "pi does not take images: remove the image to send this prompt (nothing was sent)." });
    await harness.page.getByRole("alert").filter({ hasText: "pi does not take images" }).waitFor();
    assert.equal(await input().inputValue(), "What is this?");
    assert.equal(await chips().count(), 1);
  });
});
