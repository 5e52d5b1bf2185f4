// What a stream CLI's stdin carries for a prompt with images, as each profile writes it.
import * as assert from "node:assert/strict";
import { claudeProfile } from "../../../src/profiles/claude-profile";
import { PROFILES } from "../../../src/profiles/profile-registry";
import { indusagiProfile, piProfile } from "../../../src/profiles/pi-profile";
import type { CliProfile } from "../../../src/profiles/cli-profile";
import type { PromptImage } from "../../../src/protocol/prompt-parts";

const image: PromptImage = { kind: "image", mimeType: "image/png", data: "iVBORw0KGgo=", name: "shot.png" };
const conversation = { id: "0b8e4c1e-6f1e-4c55-9f0a-5d2b8f3c9a10", continues: false, stateDir: "/tmp/state" };

function stdinOf(profile: CliProfile, images: readonly PromptImage[]): unknown {
  const initial = profile.invocation({ prompt: "What is this?\n\nFiles and folders the user attached (read them as needed):\n- @src/a.ts", userArgs: null, conversation, images }).input?.initial;
  assert.ok(initial !== undefined, `${profile.name} reads no prompt on stdin`);
  return JSON.parse(initial);
}

describe("the images of a prompt, as each stream CLI takes them", () => {
  it("gives Claude Code its text with the @path references, then each image as a base64 image block", () => {
    assert.deepEqual(stdinOf(claudeProfile, [image]), {
      type: "user",
      message: {
        role: "user",
        content: [
          { type: "text", text: "What is this?\n\nFiles and folders the user attached (read them as needed):\n- @src/a.ts" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
        ],
      },
    });
  });

  it("gives pi's rpc prompt command its images beside the message, and no images field without them", () => {
    const withImage = stdinOf(piProfile, [image]) as { images?: unknown };
    assert.deepEqual(withImage.images, [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }]);
    assert.equal("images" in (stdinOf(piProfile, []) as object), false);
  });

  it("says which profiles take images: Claude Code and pi, and no other stream CLI", () => {
    const taking = PROFILES.filter((profile) => profile.transport?.kind !== "acp" && profile.takesImages === true).map((profile) => profile.name);
    assert.deepEqual(taking.sort(), ["claude", "pi"]);
    assert.notEqual(indusagiProfile.takesImages, true);
  });
});
