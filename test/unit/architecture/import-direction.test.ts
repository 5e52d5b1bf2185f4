// Data flows one way (docs: ../shared/docs/style.md, "The shape"): each layer of src/ may import only the layers
// listed for it here. A new import that crosses a line fails this test, so the layering cannot erode unnoticed.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../helpers/repo";

const SRC = path.join(repoRoot, "src");

/** Layer → the other layers it may import. `extension` is src/extension.ts, the composition root. */
const ALLOWED: Record<string, readonly string[]> = {
  protocol: [],
  common: ["protocol"],
  process: [],
  permissions: ["protocol"],
  dialects: ["protocol", "common", "permissions"],
  stream: ["protocol", "dialects"],
  session: ["protocol", "common", "stream", "dialects", "process", "permissions"],
  profiles: ["protocol", "dialects", "process", "permissions"],
  acp: ["protocol", "common", "stream", "dialects", "process", "session", "profiles", "permissions"],
  sessions: ["protocol", "common", "stream", "dialects", "process", "session", "profiles"],
  panel: ["protocol", "common", "session", "process", "sessions"],
  launch: ["protocol", "common", "stream", "dialects", "process", "session", "profiles", "acp", "permissions"],
  cli: ["protocol", "common", "stream", "dialects", "process", "session", "profiles", "acp", "permissions", "launch"],
  workspace: [],
  "builtin-agent": ["protocol", "common", "workspace"],
  webview: ["protocol", "common"],
  vscode: ["protocol", "common", "stream", "dialects", "process", "session", "profiles", "acp", "panel", "sessions", "permissions", "launch", "workspace"],
  extension: ["panel", "vscode"],
};

interface Import {
  from: string;
  layer: string;
  target: string;
}

function layerOf(file: string): string {
  const relative = path.relative(SRC, file);
  return relative === "extension.ts" ? "extension" : relative.split(path.sep)[0]!;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** Every relative import (static, `import type`, re-export, dynamic) of every file under src/, by layer. */
function crossLayerImports(): Import[] {
  const found: Import[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = fs.readFileSync(file, "utf8");
    for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["'](\.[^"']+)["']/g)) {
      const resolved = path.resolve(path.dirname(file), match[1]!);
      if (!resolved.startsWith(SRC + path.sep)) continue;
      const layer = layerOf(file);
      const target = layerOf(resolved.endsWith(".ts") ? resolved : `${resolved}.ts`);
      if (target !== layer) found.push({ from: path.relative(SRC, file), layer, target });
    }
  }
  return found;
}

describe("the direction of imports between the layers of src/", () => {
  const imports = crossLayerImports();

  it("finds the cross-layer imports it checks (the scan itself works)", () => {
    assert.ok(imports.some((i) => i.layer === "session" && i.target === "protocol"));
    assert.ok(imports.some((i) => i.layer === "webview" && i.target === "protocol"));
  });

  it("knows every layer of src/", () => {
    const unknown = [...new Set(sourceFiles(SRC).map(layerOf))].filter((layer) => !(layer in ALLOWED));
    assert.deepEqual(unknown, []);
  });

  it("lets each layer import only the layers below it: protocol/ nothing, the webview no session, the core no vscode glue", () => {
    const wrong = imports.filter((i) => !(ALLOWED[i.layer] ?? []).includes(i.target)).map((i) => `${i.from} → ${i.target}/`);
    assert.deepEqual(wrong, []);
  });

  it("keeps `vscode` out of every layer but the editor glue and the composition root", () => {
    const offenders = sourceFiles(SRC)
      .filter((file) => !["vscode", "extension"].includes(layerOf(file)))
      .filter((file) => /from\s+["']vscode["']|require\(["']vscode["']\)/.test(fs.readFileSync(file, "utf8")))
      .map((file) => path.relative(SRC, file));
    assert.deepEqual(offenders, []);
  });

  it("is the layout table of docs/development.md: the same folders, each allowed the same layers", () => {
    assert.deepEqual(documentedLayers(), ALLOWED);
  });
});

/**
 * The layout table of docs/development.md as this test's map: a row's folder (`src/acp/`, `src/extension.ts`) names the
 * layer, its last cell the layers it may import ("nothing", or names separated by commas).
 */
function documentedLayers(): Record<string, readonly string[]> {
  const doc = fs.readFileSync(path.join(repoRoot, "docs", "development.md"), "utf8");
  const rows = [...doc.matchAll(/^\| `src\/([a-z-]+)(?:\/|\.ts)` \|.*\| ([a-z-, ]+) \|$/gm)];
  return Object.fromEntries(rows.map(([, folder, imports]) => [folder!, imports === "nothing" ? [] : imports!.split(", ")]));
}
