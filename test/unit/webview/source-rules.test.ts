// Rules about the webview's code that a reviewer would otherwise check by grep: one way for markup into the DOM,
// and a bundle that carries no validation library (the host validates).
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../helpers/repo";

const WEBVIEW_SOURCE = path.join(repoRoot, "src", "webview");

/** Every .ts file of the webview, its sub-folders (blocks/) included, named relative to src/webview. */
function sources(): { file: string; text: string }[] {
  return fs
    .readdirSync(WEBVIEW_SOURCE, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => ({ file: name.split(path.sep).join("/"), text: fs.readFileSync(path.join(WEBVIEW_SOURCE, name), "utf8") }));
}

function filesMatching(pattern: RegExp): string[] {
  return sources()
    .filter(({ text }) => pattern.test(text))
    .map(({ file }) => file);
}

describe("webview source rules", function () {
  it("never parses markup into the page: no innerHTML, outerHTML, insertAdjacentHTML, document.write, DOMParser or srcdoc", function () {
    assert.deepEqual(filesMatching(/\.(innerHTML|outerHTML)\b|insertAdjacentHTML|document\.write|DOMParser|createContextualFragment|srcdoc/), []);
  });

  it("turns markdown into DOM only in markdown.ts, through DOMPurify", function () {
    assert.deepEqual(filesMatching(/from "dompurify"|from "markdown-it"|\.sanitize\(/), ["markdown.ts"]);
  });

  it("imports from the protocol as values only modules that are plain data, so no schema code reaches the bundle", function () {
    const valueImported = new Set(
      sources().flatMap(({ text }) => [...text.matchAll(/^import (?!type )[^;]*from "(?:\.\.\/)+protocol\/([^"]+)";/gm)].map((m) => m[1])),
    );
    // The error table, the session states' names, and the image types and bounds (with the signature check a pasted
    // image passes): plain data and pure functions. Each is checked below to import only types.
    assert.deepEqual([...valueImported].sort(), ["error-guides", "image-bytes", "session-states"]);
    for (const module of valueImported) {
      const text = fs.readFileSync(path.join(repoRoot, "src", "protocol", `${module}.ts`), "utf8");
      assert.deepEqual([...text.matchAll(/^import (?!type ).*$/gm)].map((m) => m[0]), [], `${module}.ts imports only types`);
    }
  });

  it("ships a webview bundle without zod", function () {
    const bundle = fs.readFileSync(path.join(repoRoot, "dist", "webview.js"), "utf8");
    assert.ok(bundle.includes("acquireVsCodeApi"), "dist/webview.js does not look like the webview bundle");
    assert.equal(/ZodError|zod\/v4|\$ZodType/.test(bundle), false);
  });
});

describe("the chat's stylesheet", function () {
  it("closes every rule it opens: a rule left open swallows every rule after it (two merged blocks did)", async function () {
    const { transform } = await import("esbuild");
    const css = fs.readFileSync(path.join(WEBVIEW_SOURCE, "styles.css"), "utf8");
    const { warnings } = await transform(css, { loader: "css" });
    assert.deepEqual(
      warnings.map((warning) => `${warning.location?.line ?? "?"}: ${warning.text}`),
      [],
    );
  });
});
