// How to build and test, from what the workspace itself declares: package.json scripts, Makefile targets,
// and the standard commands of Cargo, Go and Python projects. Nothing is guessed beyond those.
// zod/mini: the same checks, without bundling all of zod (~450 KB) into the agent.
import * as z from "zod/mini";
import { inlineCode, tableRow } from "../markdown";

export interface BuildSources {
  paths: ReadonlySet<string>;
  /** package.json's text, when it was read. */
  packageJson?: string;
  /** The Makefile's text, when it was read. */
  makefile?: string;
}

const PackageJsonSchema = z.object({
  name: z.optional(z.string()),
  description: z.optional(z.string()),
  scripts: z.optional(z.record(z.string(), z.unknown())),
});
export type PackageJson = z.infer<typeof PackageJsonSchema>;

export function parsePackageJson(text: string): PackageJson | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = PackageJsonSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function buildInstructions(sources: BuildSources): string[] {
  const out: string[] = [];
  if (sources.packageJson !== undefined) out.push(...npmInstructions(sources.packageJson, sources.paths));
  if (sources.makefile !== undefined) out.push(...makeInstructions(sources.makefile));
  if (sources.paths.has("Cargo.toml")) out.push("With Cargo:", "", "- Build: `cargo build`", "- Test: `cargo test`", "");
  if (sources.paths.has("go.mod")) out.push("With Go:", "", "- Build: `go build ./...`", "- Test: `go test ./...`", "");
  out.push(...pythonInstructions(sources.paths));
  if (out.length === 0) out.push("I found no build configuration I know (package.json, Makefile, Cargo.toml, go.mod, pyproject.toml, requirements.txt).", "");
  return out;
}

function npmInstructions(text: string, paths: ReadonlySet<string>): string[] {
  const pkg = parsePackageJson(text);
  if (pkg === null) return ["`package.json` is not valid JSON, so I cannot tell its scripts.", ""];
  const scripts = Object.entries(pkg.scripts ?? {}).flatMap(([name, command]) => (typeof command === "string" ? [{ name, command }] : []));
  const manager = packageManager(paths);
  const out = [`With ${manager.name}${manager.lockfile ? ` (${inlineCode(manager.lockfile)} is present)` : ""}:`, "", `- Install: ${inlineCode(manager.install)}`];
  const has = (name: string) => scripts.some((s) => s.name === name);
  if (has("build")) out.push(`- Build: ${inlineCode(manager.run("build"))}`);
  if (has("test")) out.push(`- Test: ${inlineCode(manager.run("test"))}`);
  if (!has("build") && !has("test")) out.push("- There is no `build` or `test` script.");
  out.push("");
  if (scripts.length === 0) return [...out, "`package.json` declares no scripts.", ""];
  out.push("`package.json` scripts:", "", tableRow(["Script", "Runs"]), tableRow(["---", "---"]));
  for (const { name, command } of scripts) out.push(tableRow([inlineCode(name), inlineCode(command)]));
  return [...out, ""];
}

function packageManager(paths: ReadonlySet<string>): { name: string; lockfile?: string; install: string; run: (script: string) => string } {
  if (paths.has("pnpm-lock.yaml")) return { name: "pnpm", lockfile: "pnpm-lock.yaml", install: "pnpm install", run: (s) => `pnpm ${s}` };
  if (paths.has("yarn.lock")) return { name: "Yarn", lockfile: "yarn.lock", install: "yarn install", run: (s) => `yarn ${s}` };
  if (paths.has("bun.lockb") || paths.has("bun.lock")) return { name: "Bun", install: "bun install", run: (s) => `bun run ${s}` };
  const npmRun = (s: string) => (s === "test" || s === "start" ? `npm ${s}` : `npm run ${s}`);
  if (paths.has("package-lock.json")) return { name: "npm", lockfile: "package-lock.json", install: "npm ci", run: npmRun };
  return { name: "npm", install: "npm install", run: npmRun };
}

function makeInstructions(text: string): string[] {
  const targets: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const target = /^([A-Za-z0-9][\w.-]*)\s*:(?!=)/.exec(line);
    if (target && !targets.includes(target[1])) targets.push(target[1]);
  }
  if (targets.length === 0) return ["The `Makefile` has no targets I can read.", ""];
  return [`\`Makefile\` targets (run with \`make <target>\`): ${targets.map(inlineCode).join(", ")}`, ""];
}

function pythonInstructions(paths: ReadonlySet<string>): string[] {
  const install = paths.has("requirements.txt") ? "pip install -r requirements.txt" : paths.has("pyproject.toml") || paths.has("setup.py") ? "pip install -e ." : null;
  if (install === null) return [];
  const hasTests = [...paths].some((p) => /(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(p));
  return ["With Python:", "", `- Install: ${inlineCode(install)}`, ...(hasTests ? ["- Test: `python -m pytest`"] : []), ""];
}
