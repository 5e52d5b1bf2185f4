// A small, known workspace for the built-in agent to read, made fresh in a temporary folder, and a fingerprint of
// a whole tree to prove that nothing in it changed.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export interface SampleWorkspace {
  /** The workspace folder; its name is `sample-shop`. */
  root: string;
  remove(): void;
}

const FILES: Record<string, string> = {
  "package.json": JSON.stringify({ name: "sample-shop", version: "1.0.0", scripts: { build: "tsc -p .", test: "mocha", lint: "eslint src" } }, null, 2) + "\n",
  "package-lock.json": JSON.stringify({ name: "sample-shop", lockfileVersion: 3 }) + "\n",
  "README.md": [
    "# Sample Shop",
    "",
    "[![build](https://example.com/badge.svg)](https://example.com/ci)",
    "",
    "Sample Shop sells imaginary socks to imaginary people.",
    "It exists so the built-in agent has something to read.",
    "",
    "## Usage",
    "",
    "Run it and buy socks.",
    "",
  ].join("\n"),
  "src/cart.ts": [
    "// The shopping cart: items, quantities and the total.",
    "export interface Item {",
    "  sku: string;",
    "  price: number;",
    "}",
    "",
    "export class Cart {",
    "  private items: Item[] = [];",
    "",
    "  add(item: Item): void {",
    "    // TODO: merge duplicate items",
    "    this.items.push(item);",
    "  }",
    "",
    "  total(): number {",
    "    return this.items.reduce((sum, item) => sum + item.price, 0);",
    "  }",
    "}",
    "",
    "export function addItem(cart: Cart, item: Item): Cart {",
    "  cart.add(item);",
    "  return cart;",
    "}",
    "",
    "const formatPrice = (price: number): string => `$${price.toFixed(2)}`;",
    "export { formatPrice };",
    "",
  ].join("\n"),
  "src/index.ts": [
    'import { Cart } from "./cart";',
    "",
    "// FIXME: read the prices from a file",
    "export default function main(): Cart {",
    "  return new Cart();",
    "}",
    "",
  ].join("\n"),
  "src/discounts.ts": ["export const DISCOUNT = 0.1;", "", "export function applyDiscount(total: number): number {", "  return total * (1 - DISCOUNT);", "}", ""].join("\n"),
  "tools/report.py": [
    '"""Prints a sales report."""',
    "",
    "",
    "class Report:",
    "    def __init__(self, rows):",
    "        self.rows = rows",
    "",
    "    def render(self):",
    "        # TODO: add CSV output",
    '        return "\\n".join(self.rows)',
    "",
    "",
    "def main():",
    "    print(Report([]).render())",
    "",
  ].join("\n"),
  ".gitignore": ["# generated output", "build/", "*.log", "!keep.log", ""].join("\n"),
  "keep.log": "kept despite the *.log rule\n",
  "notes.md/inside.txt": "a folder whose name looks like a file\n",
  // Hidden from the agent: ignored by .gitignore, or in node_modules.
  "build/bundle.js": "// TODO: generated file, must stay hidden\n",
  "debug.log": "TODO: a log line that must stay hidden\n",
  "node_modules/left-pad/index.js": "// TODO: a dependency, never listed\nmodule.exports = function addItem() {};\n",
};

/** Files the agent must never report: gitignored, or inside node_modules. */
export const HIDDEN_PATHS = ["build/bundle.js", "debug.log", "node_modules/left-pad/index.js"];

export function createSampleWorkspace(): SampleWorkspace {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-builtin-"));
  const root = path.join(parent, "sample-shop");
  for (const [relative, content] of Object.entries(FILES)) {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  // Tests run as root, where chmod 000 does not stop a read. A symlink whose target is missing fails to open for
  // everyone, and is a file people really have in their trees (a link to a generated or deleted file).
  fs.symlinkSync("missing-target.ts", path.join(root, "src", "broken.ts"));
  return { root, remove: () => fs.rmSync(parent, { recursive: true, force: true }) };
}

/** A fingerprint of every entry under `root`: names, kinds, modes, file bytes and link targets. */
export function treeFingerprint(root: string): string {
  const hash = createHash("sha256");
  const visit = (relative: string) => {
    const absolute = path.join(root, relative);
    const stats = fs.lstatSync(absolute);
    hash.update(`${relative}\0${stats.mode}\0${stats.mtimeMs}\0`);
    if (stats.isSymbolicLink()) hash.update(`link:${fs.readlinkSync(absolute)}\0`);
    else if (stats.isFile()) hash.update(fs.readFileSync(absolute));
    else if (stats.isDirectory()) for (const name of fs.readdirSync(absolute).sort()) visit(path.join(relative, name));
  };
  visit(".");
  return hash.digest("hex");
}
