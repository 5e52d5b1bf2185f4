import * as assert from "node:assert/strict";
import { outlineOf, type OutlineItem } from "../../../src/builtin-agent/outline";
import { assertQuickOn, repeated } from "../../helpers/hostile-text";

function summary(items: readonly OutlineItem[]): string[] {
  return items.map((i) => `${i.kind} ${i.container ? `${i.container}.` : ""}${i.name}@${i.line}${i.exported ? " exported" : ""}`);
}

describe("file outlines", () => {
  it("outlines TypeScript: classes with methods, functions, arrow functions, types and exports", () => {
    const source = [
      "/* a block comment with function fake() { */",
      "import { x } from './x';",
      "export interface Options { a: number }",
      "export type Id = string;",
      "export enum Color { Red }",
      "export abstract class Shape {",
      "  private readonly sides = 0;",
      "  constructor(private name: string) {}",
      "  static create(): Shape {",
      "    if (true) { return null!; }",
      "  }",
      "  async area(): Promise<number> {",
      "    function nested() {}",
      "    return 0;",
      "  }",
      "}",
      "export default function main() {}",
      "async function helper() {}",
      "const double = (n: number): number => n * 2;",
      "export const LIMIT = 3;",
      "export { double as twice };",
      'export * from "./more";',
    ].join("\n");
    const outline = outlineOf("src/shape.ts", source);
    assert.equal(outline?.language, "TypeScript");
    assert.deepEqual(summary(outline!.items), [
      "interface Options@3 exported",
      "type Id@4 exported",
      "enum Color@5 exported",
      "class Shape@6 exported",
      "method Shape.constructor@8",
      "method Shape.create@9",
      "method Shape.area@12",
      "function main@17 exported",
      "function helper@18",
      "function double@19",
      "constant LIMIT@20 exported",
    ]);
    assert.deepEqual(outline!.exports, ["Options", "Id", "Color", "Shape", "main", "LIMIT", "twice", "* from ./more"]);
  });

  it("outlines CommonJS exports in JavaScript", () => {
    const outline = outlineOf("lib/a.cjs", "function a() {}\nmodule.exports.a = a;\nexports.b = 1;\n");
    assert.deepEqual(outline?.exports, ["a", "b"]);
    assert.deepEqual(summary(outline!.items), ["function a@1 exported"]);
  });

  it("outlines Python: classes with their methods, top-level functions, and __all__ as the exports", () => {
    const source = [
      "__all__ = ['Report']",
      "class Report:",
      "    def __init__(self):",
      "        def inner():",
      "            pass",
      "    async def render(self):",
      "        pass",
      "",
      "def _private():",
      "    pass",
      "def main():",
      "    pass",
    ].join("\n");
    const outline = outlineOf("report.py", source);
    assert.deepEqual(summary(outline!.items), [
      "class Report@2 exported",
      "method Report.__init__@3",
      "method Report.render@6",
      "function _private@9",
      "function main@11",
    ]);
    assert.deepEqual(outline!.exports, ["Report"]);
  });

  it("outlines Go: exported means capitalised, methods belong to their receiver", () => {
    const source = ["package shop", "type Cart struct {", "  items []Item", "}", "type Pricer interface {}", "func (c *Cart) Add(i Item) {}", "func NewCart() *Cart { return nil }", "func helper() {}"].join("\n");
    const outline = outlineOf("cart.go", source);
    assert.deepEqual(summary(outline!.items), ["struct Cart@2 exported", "interface Pricer@5 exported", "method Cart.Add@6 exported", "function NewCart@7 exported", "function helper@8"]);
    assert.deepEqual(outline!.exports, ["Cart", "Pricer", "NewCart"]);
  });

  it("outlines Rust: pub items are exported, functions in impl blocks are methods", () => {
    const source = [
      "pub struct Cart { items: Vec<u32> }",
      "enum Kind { A }",
      "pub trait Priced {}",
      "impl Priced for Cart {}",
      "impl<'a> Cart {",
      "    pub fn new() -> Self { Cart { items: vec![] } }",
      "    fn total(&self) -> u32 { 0 }",
      "}",
      "pub(crate) async fn run() {}",
    ].join("\n");
    const outline = outlineOf("src/lib.rs", source);
    assert.deepEqual(summary(outline!.items), [
      "struct Cart@1 exported",
      "enum Kind@2",
      "trait Priced@3 exported",
      "method Cart.new@6 exported",
      "method Cart.total@7",
      "function run@9 exported",
    ]);
  });

  it("outlines Markdown as its headings, ignoring # lines in code fences", () => {
    const outline = outlineOf("README.md", "# Title\n\n```sh\n# not a heading\n```\n## Part ##\n");
    assert.deepEqual(
      outline!.items.map((h) => [h.name, h.level, h.line]),
      [["Title", 1, 1], ["Part", 2, 6]],
    );
  });

  it("names a Go method's receiver type as its container when the receiver has no name", () => {
    const outline = outlineOf("cart.go", "func (Cart) Total() int { return 0 }\nfunc (*Cart) Empty() {}");
    assert.deepEqual(summary(outline!.items), ["method Cart.Total@1 exported", "method Cart.Empty@2 exported"]);
  });

  it("lists no Markdown heading whose text is only closing #s and blanks", () => {
    assert.deepEqual(outlineOf("README.md", "# #\n##   \n# C#\n")!.items.map((h) => h.name), ["C"]);
  });

  it("has no outline for a language it does not read", () => {
    assert.equal(outlineOf("style.css", "a { color: red }"), null);
  });

  // A workspace's files are anyone's: each line below was built against one of the patterns, and took minutes or more.
  const hostile: [string, string, string][] = [
    ["TypeScript", "a.ts", `const s = "${repeated('\\"')}`],
    ["TypeScript", "a.ts", `x ${repeated("/* ")}`],
    ["TypeScript", "a.ts", `export function${repeated(" ")}!`],
    ["TypeScript", "a.ts", `export type T${repeated(" ")}!`],
    ["TypeScript", "a.ts", `export { a${repeated(" ")}b }`],
    ["TypeScript", "a.ts", `class A {\n${repeated(" ")}!\n}`],
    ["Go", "a.go", `func (${repeated(" ")}!`],
    ["Rust", "a.rs", `impl A${repeated(" ")}!`],
    ["Markdown", "a.md", `# a${repeated(" ")}x`],
  ];
  for (const [language, file, text] of hostile) {
    it(`outlines ${language} with a megabyte line of ${JSON.stringify(text.slice(0, 16))}… in well under a second`, () => {
      assert.equal(assertQuickOn(file, () => outlineOf(file, text))?.language, language);
    });
  }
});
