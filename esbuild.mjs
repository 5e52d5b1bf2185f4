// Bundles what ships: the extension host entry, the `agent-stream` command line.
import * as esbuild from "esbuild";

const watch = process.argv.includes("--watch");
const production = process.argv.includes("--production");

/** @type {import('esbuild').BuildOptions} */
const nodeDefaults = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
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
];

if (watch) {
  for (const options of builds) {
    const context = await esbuild.context(options);
    await context.watch();
  }
  console.log("esbuild: watching for changes");
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
