// The documents a newcomer reads stay findable and their links stay true: docs/README.md lists every document, every
// relative link in docs/ points at a file that exists, and so does every `docs/…` path the README names (as a path, not
// a link: the README ships in the .vsix without docs/, where a relative link would lead nowhere, and vsce refuses one).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../helpers/repo";

const DOCS = path.join(repoRoot, "docs");

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith(".md") ? [full] : [];
  });
}

/** The targets of a document's relative markdown links, as paths on disk (anchors and web links left out). */
function relativeLinks(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  return [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => path.resolve(path.dirname(file), target));
}

describe("the README and docs/", () => {
  it("lists every document of docs/ in docs/README.md", () => {
    const index = fs.readFileSync(path.join(DOCS, "README.md"), "utf8");
    const top = fs.readdirSync(DOCS).filter((name) => name.endsWith(".md") && name !== "README.md");
    assert.ok(top.length >= 8, "the scan finds the documents");
    assert.deepEqual(top.filter((name) => !index.includes(`](${name})`)), []);
    assert.ok(index.includes("](protocols/README.md)"));
  });

  it("links only to files that exist, from every document", () => {
    const broken = markdownFiles(DOCS).flatMap((file) =>
      relativeLinks(file)
        .filter((target) => !fs.existsSync(target))
        .map((target) => `${path.relative(repoRoot, file)} → ${path.relative(repoRoot, target)}`),
    );
    assert.ok(relativeLinks(path.join(DOCS, "README.md")).length >= 8, "the scan finds the index's links");
    assert.deepEqual(broken, []);
  });

  it("names in the README only documents that exist, as paths, with no relative link the .vsix would break", () => {
    const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
    const named = [...readme.matchAll(/`(docs\/[^`\s]+)`/g)].map((match) => match[1]!);
    assert.ok(named.length >= 5, "the scan finds the README's paths");
    assert.deepEqual(named.filter((target) => !fs.existsSync(path.join(repoRoot, target))), []);
    assert.deepEqual(relativeLinks(path.join(repoRoot, "README.md")), []);
  });
});
