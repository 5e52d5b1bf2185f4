// Images the user pastes (a screenshot on the clipboard) or drops (a file from the OS) into the composer: each checked
// by its bytes (PNG, JPEG, GIF, WebP; 5 MB at most) and shown as a chip with a thumbnail, sent with the next prompt.
// The thumbnail is a `blob:` URL the page made itself (the only images besides its own that the CSP allows).
import { IMAGE_MIME_TYPES, MAX_IMAGES, MAX_IMAGE_NAME_CHARS, imageRefusal, imageTypeOf } from "../protocol/image-bytes";
import type { PromptImage } from "../protocol/prompt-parts";
import { button, element } from "./element";

interface AttachedImage {
  image: PromptImage;
  thumbnail: string;
  bytes: number;
}

export class ImageAttachments {
  /** The chips of the images attached. */
  readonly chips: HTMLElement;
  private attached: AttachedImage[] = [];

  constructor(
    private readonly input: HTMLTextAreaElement,
    /** Says why an image was not attached (not an image, too large, too many). */
    private readonly refuse: (reason: string) => void,
  ) {
    this.chips = element("div", { className: "attachments image-attachments", attributes: { "aria-label": "Attached images" } });
    this.chips.hidden = true;
    input.addEventListener("paste", (event) => this.onPaste(event));
    input.addEventListener("dragover", (event) => {
      if (event.dataTransfer?.types.includes("Files") === true) event.preventDefault();
    });
    input.addEventListener("drop", (event) => this.onDrop(event));
  }

  /** Attaches image files (a paste's, a drop's): each refused with a reason when it is not one the agents take. */
  async addFiles(files: readonly File[]): Promise<void> {
    for (const file of files) {
      if (this.attached.length >= MAX_IMAGES) {
        this.refuse(`At most ${MAX_IMAGES} images go with one prompt.`);
        return;
      }
      const bytes = new Uint8Array(await file.arrayBuffer());
      const name = (file.name === "" ? "pasted image" : file.name).slice(0, MAX_IMAGE_NAME_CHARS);
      const refusal = imageRefusal(name, bytes);
      const mimeType = imageTypeOf(bytes);
      if (refusal !== null || mimeType === null) {
        this.refuse(`${refusal ?? name}: not attached.`);
        continue;
      }
      const thumbnail = URL.createObjectURL(new Blob([bytes], { type: mimeType }));
      this.attached.push({ image: { kind: "image", mimeType, data: base64Of(bytes), name }, thumbnail, bytes: bytes.byteLength });
      this.render();
    }
  }

  /** The images the prompt carries; the chips are cleared once it is sent. */
  take(): PromptImage[] {
    const taken = this.attached.map((each) => each.image);
    for (const each of this.attached) URL.revokeObjectURL(each.thumbnail);
    this.attached = [];
    this.render();
    return taken;
  }

  /** A refused prompt's images, back as chips. */
  restore(images: readonly PromptImage[]): void {
    for (const image of images) {
      const bytes = bytesOf(image.data);
      this.attached.push({ image, thumbnail: URL.createObjectURL(new Blob([bytes], { type: image.mimeType })), bytes: bytes.byteLength });
    }
    this.render();
  }

  private onPaste(event: ClipboardEvent): void {
    const files = [...(event.clipboardData?.files ?? [])].filter(isImageFile);
    if (files.length === 0) return;
    // Pasting a screenshot is attaching it; text pasted with it (an app's file name) is not typed into the box.
    event.preventDefault();
    void this.addFiles(files);
  }

  private onDrop(event: DragEvent): void {
    const files = [...(event.dataTransfer?.files ?? [])];
    if (files.length === 0) return;
    event.preventDefault();
    void this.addFiles(files);
  }

  private render(): void {
    this.chips.hidden = this.attached.length === 0;
    this.chips.replaceChildren(
      ...this.attached.map((each) => {
        const label = `${each.image.name} (${sizeOf(each.bytes)})`;
        const remove = button({
          label: `Remove ${each.image.name}`,
          iconName: "close",
          className: "icon-button chip-remove",
          onClick: () => {
            URL.revokeObjectURL(each.thumbnail);
            this.attached = this.attached.filter((other) => other !== each);
            this.render();
            this.input.focus();
          },
        });
        const thumbnail = element("img", { className: "image-thumbnail", attributes: { src: each.thumbnail, alt: "" } });
        return element("span", { className: "attachment-chip image-chip", attributes: { title: label } }, thumbnail, element("span", { className: "chip-name", text: label }), remove);
      }),
    );
  }
}

/** A file the clipboard calls an image; its bytes decide later whether it is one. */
function isImageFile(file: File): boolean {
  return file.type.startsWith("image/") || (IMAGE_MIME_TYPES as readonly string[]).includes(file.type);
}

function base64Of(bytes: Uint8Array): string {
  let binary = "";
  // In slices: String.fromCharCode takes only so many arguments.
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

function sizeOf(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
