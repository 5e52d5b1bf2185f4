// The integration suite's entry point, loaded by VS Code as `extensionTestsPath`: it runs inside the real extension
// host, whichever runner started it (@vscode/test-electron on desktop, code-server here; scripts/run-integration.ts).
import * as fs from "node:fs";
import * as path from "node:path";
import Mocha from "mocha";
import * as vscode from "vscode";

/** Integration test files end in `.itest.js`: no `*.test.js` glob (the unit and webview suites) loads them outside VS Code. */
const TEST_FILE = /\.itest\.js$/;
/** Run only in a window whose folder is in Restricted Mode (the runner's second pass), and only there. */
const RESTRICTED_FILE = /\.restricted\.itest\.js$/;

export async function run(): Promise<void> {
  // The output reaches a terminal through the runner (code-server: the page's console), where colour codes are noise.
  const mocha = new Mocha({ ui: "bdd", reporter: "spec", color: false, timeout: 60_000, slow: 5_000 });
  const files = fs
    .readdirSync(__dirname, { recursive: true, encoding: "utf8" })
    .filter((file) => TEST_FILE.test(file) && RESTRICTED_FILE.test(file) === (process.env["AGENT_STREAM_ITEST_PASS"] === "restricted"))
    .sort()
    .map((file) => path.join(__dirname, file));
  if (files.length === 0) throw new Error(`no *.itest.js files under ${__dirname}: was the suite compiled (tsc -p .)?`);
  for (const file of files) mocha.addFile(file);

  console.log(`Agent Stream integration tests in VS Code ${vscode.version} (${vscode.env.appHost}), Node ${process.version}`);
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} test${failures === 1 ? "" : "s"} failed`);
}
