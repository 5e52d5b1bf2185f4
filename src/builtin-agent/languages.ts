// What language or kind of file a path is, from its name: the basis of the summary's language table.
const BY_EXTENSION: Readonly<Record<string, string>> = {
  ts: "TypeScript", tsx: "TypeScript", mts: "TypeScript", cts: "TypeScript",
  js: "JavaScript", jsx: "JavaScript", mjs: "JavaScript", cjs: "JavaScript",
  py: "Python", pyi: "Python",
  go: "Go",
  rs: "Rust",
  java: "Java", kt: "Kotlin", kts: "Kotlin", scala: "Scala",
  c: "C", h: "C", cpp: "C++", cc: "C++", cxx: "C++", hpp: "C++", hh: "C++",
  cs: "C#", fs: "F#", swift: "Swift", m: "Objective-C",
  rb: "Ruby", php: "PHP", pl: "Perl", lua: "Lua", r: "R", dart: "Dart", ex: "Elixir", exs: "Elixir", erl: "Erlang",
  hs: "Haskell", ml: "OCaml", clj: "Clojure", zig: "Zig", nim: "Nim", jl: "Julia",
  sh: "Shell", bash: "Shell", zsh: "Shell", fish: "Shell", ps1: "PowerShell", bat: "Batch",
  sql: "SQL", graphql: "GraphQL", proto: "Protocol Buffers",
  html: "HTML", htm: "HTML", css: "CSS", scss: "SCSS", sass: "Sass", less: "Less", vue: "Vue", svelte: "Svelte",
  md: "Markdown", markdown: "Markdown", mdx: "MDX", rst: "reStructuredText", txt: "Text", adoc: "AsciiDoc",
  json: "JSON", jsonc: "JSON", yaml: "YAML", yml: "YAML", toml: "TOML", xml: "XML", ini: "INI", csv: "CSV",
  svg: "SVG", png: "Image", jpg: "Image", jpeg: "Image", gif: "Image", webp: "Image", ico: "Image",
  ttf: "Font", woff: "Font", woff2: "Font", otf: "Font",
  ndjson: "NDJSON", log: "Log", lock: "Lockfile",
};

const BY_NAME: Readonly<Record<string, string>> = {
  Makefile: "Makefile", makefile: "Makefile", GNUmakefile: "Makefile",
  Dockerfile: "Dockerfile", Containerfile: "Dockerfile",
  Jenkinsfile: "Groovy", Rakefile: "Ruby", Gemfile: "Ruby",
};

export const OTHER_LANGUAGE = "Other";

export function languageOf(filePath: string): string {
  const name = filePath.slice(filePath.lastIndexOf("/") + 1);
  const byName = BY_NAME[name];
  if (byName !== undefined) return byName;
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return OTHER_LANGUAGE;
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? OTHER_LANGUAGE;
}
