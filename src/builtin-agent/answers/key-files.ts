// The files a newcomer opens first, found by name, each with a line on what it is for.
import type { ListedFile } from "../tools/list-files";

const KEY_FILES: { test: RegExp; about: string }[] = [
  { test: /^readme(\.\w+)?$/i, about: "introduction to the project" },
  { test: /^package\.json$/, about: "npm manifest: name, dependencies and scripts" },
  { test: /^tsconfig\.json$/, about: "TypeScript compiler settings" },
  { test: /^pyproject\.toml$/, about: "Python project settings" },
  { test: /^requirements\.txt$/, about: "Python dependencies" },
  { test: /^setup\.py$/, about: "Python package setup" },
  { test: /^go\.mod$/, about: "Go module definition" },
  { test: /^Cargo\.toml$/, about: "Rust crate manifest" },
  { test: /^(GNUmakefile|[Mm]akefile)$/, about: "make targets" },
  { test: /^(Dockerfile|Containerfile)$/, about: "container image build" },
  { test: /^(docker-)?compose\.ya?ml$/, about: "containers run together" },
  { test: /^\.github\/workflows\/[^/]+\.ya?ml$/, about: "CI workflow" },
  { test: /^\.gitignore$/, about: "what git (and this agent) leave out" },
  { test: /^(LICENSE|LICENCE|COPYING)(\.\w+)?$/i, about: "licence" },
  { test: /^CONTRIBUTING(\.\w+)?$/i, about: "how to contribute" },
  { test: /^CHANGELOG(\.\w+)?$/i, about: "release history" },
  { test: /^(src\/)?(index|main|extension|app|server|cli)\.(ts|js|mjs|cjs)$/, about: "likely entry point" },
  { test: /^(main|app|__main__)\.py$/, about: "likely entry point" },
  { test: /^(main\.go|cmd\/[^/]+\/main\.go)$/, about: "likely entry point" },
  { test: /^src\/(main|lib)\.rs$/, about: "crate entry point" },
];

export interface KeyFile {
  path: string;
  about: string;
}

/** In the order of KEY_FILES, then by path. */
export function keyFilesIn(files: readonly ListedFile[]): KeyFile[] {
  const found: KeyFile[] = [];
  for (const { test, about } of KEY_FILES) {
    for (const file of files) if (test.test(file.path)) found.push({ path: file.path, about });
  }
  return found;
}
