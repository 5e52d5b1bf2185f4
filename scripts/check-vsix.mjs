// After `vsce package`: the .vsix must hold only what runs (bundles, media, manifest, README, LICENSE):
// no sources, tests, maps or node_modules. Prints the size for the record; exits 1 on anything else.
import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";

const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^media\/[\w.-]+\.svg$/,
  /^dist\/(extension|cli|builtin-agent|process-watchdog|webview)\.js$/,
  /^dist\/webview\.css$/,
  /^dist\/codicons\/codicon\.(css|ttf)$/,
];
const REQUIRED = ["package.json", "dist/extension.js", "dist/builtin-agent.js", "dist/process-watchdog.js", "dist/webview.js", "dist/webview.css"];

const listed = execFileSync("npx", ["vsce", "ls", "--no-dependencies"], { encoding: "utf8" })
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line !== "");
const unexpected = listed.filter((file) => !ALLOWED.some((pattern) => pattern.test(file)));
const missing = REQUIRED.filter((file) => !listed.includes(file));
const vsix = process.argv[2] ?? "agent-stream.vsix";
console.log(`${vsix}: ${listed.length} files, ${(statSync(vsix).size / 1024).toFixed(1)} KiB`);
if (unexpected.length > 0 || missing.length > 0) {
  if (unexpected.length > 0) console.error(`files that must not ship:\n  ${unexpected.join("\n  ")}`);
  if (missing.length > 0) console.error(`files missing from the package:\n  ${missing.join("\n  ")}`);
  process.exit(1);
}
