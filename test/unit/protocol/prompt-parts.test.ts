import * as assert from "node:assert/strict";
import { WebviewIntentSchema } from "../../../src/protocol/messages";
import { MAX_IMAGE_BASE64_CHARS, MAX_IMAGE_BYTES, MAX_IMAGES, imageRefusal, imageTypeOf } from "../../../src/protocol/image-bytes";

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const GIF = new TextEncoder().encode("GIF89a\x01\x00");
const WEBP = new TextEncoder().encode("RIFF\x10\x00\x00\x00WEBPVP8 ");

function sendWith(images: unknown) {
  return WebviewIntentSchema.safeParse({ type: "send", prompt: "look", images });
}

describe("the images a prompt may carry", () => {
  it("knows PNG, JPEG, GIF and WebP by their first bytes", () => {
    assert.deepEqual([PNG, JPEG, GIF, WEBP].map(imageTypeOf), ["image/png", "image/jpeg", "image/gif", "image/webp"]);
  });

  it("refuses a file named like an image whose bytes are not one (a script, an SVG, a RIFF that is not WebP)", () => {
    const riffWave = new TextEncoder().encode("RIFF\x10\x00\x00\x00WAVEfmt ");
    for (const bytes of [new TextEncoder().encode("#!/bin/sh\n"), new TextEncoder().encode("<svg xmlns="), riffWave, new Uint8Array()]) {
      assert.equal(imageTypeOf(bytes), null);
    }
    assert.equal(imageRefusal("shot.png", new TextEncoder().encode("<svg")), "shot.png is not a PNG, JPEG, GIF or WebP image");
  });

  it("refuses an image larger than 5 MB, and takes one of exactly 5 MB", () => {
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(PNG);
    assert.equal(imageRefusal("big.png", big), "big.png is larger than 5 MB");
    assert.equal(imageRefusal("ok.png", big.subarray(0, MAX_IMAGE_BYTES)), null);
  });

  it("lets a send carry images of the known types within the bounds", () => {
    assert.ok(sendWith([{ kind: "image", mimeType: "image/png", data: "iVBORw0KGgo=", name: "shot.png" }]).success);
  });

  it("drops a send whose image is of another type, too large, not base64, or one too many", () => {
    const image = { kind: "image", mimeType: "image/png", data: "iVBORw0KGgo=", name: "shot.png" };
    assert.equal(sendWith([{ ...image, mimeType: "image/svg+xml" }]).success, false);
    assert.equal(sendWith([{ ...image, data: "A".repeat(MAX_IMAGE_BASE64_CHARS + 4) }]).success, false);
    assert.equal(sendWith([{ ...image, data: "not base64!" }]).success, false);
    assert.equal(sendWith(Array.from({ length: MAX_IMAGES + 1 }, () => image)).success, false);
  });
});
