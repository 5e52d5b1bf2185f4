// Bundles what ships: the extension host entry, the `agent-stream` command line, and the chat webview
// (script, styles, and the codicon font it uses).
import * as esbuild from "esbuild";
import { copyFile, mkdir, rm } from "node:fs/promises";

const watch = process.argv.includes("--watch");
/** For F5: one "[watch] build started/finished" pair per rebuild, matched by .vscode/tasks.json's problem matcher. */
let building = 0;
/** Several bundles share sources: a problem is reported once per rebuild. */
const reported = new Set();
const watchReporter = {
  name: "watch-reporter",
  setup(build) {
    build.onStart(() => {
      if (building++ > 0) return;
      reported.clear();
      console.log("[watch] build started");
    });
    build.onEnd((result) => {
      const report = (severity) => ({ text, location }) => {
        const line = `${location ? `${location.file}:${location.line}:${location.column}` : "esbuild.mjs:1:1"}: ${severity}: ${text}`;
        if (!reported.has(line)) console.log(line);
        reported.add(line);
      };
      result.errors.forEach(report("error"));
      result.warnings.forEach(report("warning"));
      if (--building === 0) console.log("[watch] build finished");
    });
  },
};
const production = process.argv.includes("--production");

/** @type {import('esbuild').BuildOptions} */
const nodeDefaults = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  // VS Code's extension host reports every read of `navigator` as an error (a Node 21 global it has not adopted yet);
  // zod's probe for Cloudflare reads it. Under Node there is none to find, as before: the probe is compiled away.
  define: { navigator: "undefined" },
  sourcemap: production ? false : "linked",
  minify: production,
  logLevel: "warning",
};

/** @type {import('esbuild').BuildOptions} */
const browserDefaults = {
  bundle: true,
  platform: "browser",
  target: ["es2022", "chrome120"],
  sourcemap: production ? false : "linked",
  minify: production,
  logLevel: "warning",
};

const builds = [
  { ...nodeDefaults, entryPoints: ["src/extension.ts"], outfile: "dist/extension.js", external: ["vscode"] },
  {
    ...nodeDefaults,
    entryPoints: ["src/cli/main.ts"],
    outfile: "dist/cli.js",
    banner: { js: "#!/usr/bin/env node" },
  },
  {
    ...nodeDefaults,
    entryPoints: ["src/builtin-agent/main.ts"],
    outfile: "dist/builtin-agent.js",
    banner: { js: "#!/usr/bin/env node" },
  },
  // Started by the CLI runner with process.execPath; ends a CLI's processes if the host dies first.
  { ...nodeDefaults, entryPoints: ["src/process/process-watchdog.ts"], outfile: "dist/process-watchdog.js" },
  { ...browserDefaults, entryPoints: ["src/webview/main.ts"], outfile: "dist/webview.js", format: "iife" },
  { ...browserDefaults, entryPoints: ["src/webview/styles.css"], outfile: "dist/webview.css" },
];

/** The webview loads codicons from dist/, next to its own files (the CSP allows only the extension's origin). */
async function copyCodicons() {
  await mkdir("dist/codicons", { recursive: true });
  for (const file of ["codicon.css", "codicon.ttf"]) {
    await copyFile(`node_modules/@vscode/codicons/dist/${file}`, `dist/codicons/${file}`);
  }
}

// A clean dist/ each build: a production build must not ship maps or files a development build left behind.
await rm("dist", { recursive: true, force: true });
await copyCodicons();
if (watch) {
  for (const options of builds) {
    const context = await esbuild.context({ ...options, plugins: [watchReporter], logLevel: "silent" });
    await context.watch();
  }
  console.log("esbuild: watching for changes");
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
