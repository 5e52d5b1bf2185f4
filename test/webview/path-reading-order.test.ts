// A changed file's path in a narrow side bar reads as it is written (issue 25: "a path never renders as
// /.README.md"): whatever the width, each character of the shown folder and name sits to the right of the one before,
// the folder before the name, so no layout trick that shows a path's end first can turn "./README.md" round.
import * as assert from "node:assert/strict";
import type { ToolDiff } from "../../src/protocol/transcript";
import { toolBlock, turnWith } from "../helpers/turn-builder";
import { WebviewHarness } from "../helpers/webview-harness";

const PATHS = ["README.md", "./README.md", ".github/workflows/ci.yml", "/home/someone/projects/a-rather-long-folder-name/src/README.md"];
const WIDTHS = [180, 220, 290];

const written = (path: string): ToolDiff => ({ path, oldText: "old\n", newText: "new\n" });

describe("webview: a changed file's path in a narrow side bar", function () {
  let harness: WebviewHarness;

  before(async function () {
    harness = await WebviewHarness.open({ viewport: { width: 290, height: 900 } });
    const card = toolBlock({ tool: "edit", toolKind: "edit", title: "Edit the files", status: "succeeded", diffs: PATHS.map(written) });
    await harness.send({ type: "snapshot", turns: [turnWith(0, [card], { done: true })], restriction: null });
    await harness.page.locator(".diff-file").nth(PATHS.length - 1).waitFor();
  });

  after(async function () {
    await harness?.close();
  });

  for (const width of WIDTHS) {
    it(`shows each path's visible characters left to right in the order written at ${width} px, the name whole`, async function () {
      await harness.page.setViewportSize({ width, height: 900 });
      await harness.frames(2);
      const faults = await harness.page.evaluate(() => {
        const found: string[] = [];
        for (const label of document.querySelectorAll(".diff-path")) {
          const path = label.getAttribute("title") ?? "";
          const name = label.querySelector(".diff-name");
          if (name === null || !path.endsWith(name.textContent ?? "\u0000")) found.push(`${path}: the name is not the path's end`);
          // Each character's box, in the order written, of what is not cut off (an ellipsis hides the folder's end).
          let lastRight = -Infinity;
          for (const part of label.querySelectorAll(".diff-folder, .diff-name")) {
            const text = part.firstChild;
            if (text === null) continue;
            const clip = part.getBoundingClientRect();
            for (let at = 0; at < (text.textContent ?? "").length; at++) {
              const range = document.createRange();
              range.setStart(text, at);
              range.setEnd(text, at + 1);
              const box = range.getBoundingClientRect();
              if (box.width === 0 || box.left >= clip.right - 0.5) continue;
              if (box.left < lastRight - 0.5) found.push(`${path}: "${text.textContent?.[at]}" at ${at} of "${text.textContent}" is drawn before the character written ahead of it`);
              lastRight = Math.min(box.right, clip.right);
            }
          }
          if (name !== null && name.scrollWidth > name.clientWidth + 1) found.push(`${path}: the name is cut`);
        }
        return found;
      });
      assert.deepEqual(faults, []);
    });
  }
});
