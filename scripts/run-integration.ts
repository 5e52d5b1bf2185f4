// Runs the integration suite (test/integration/) inside a real VS Code extension host, on a fresh copy of
// examples/sample-workspace. The suite is the same module whichever host runs it:
//   --host electron     (default) desktop VS Code through @vscode/test-electron; VSCODE_EXECUTABLE_PATH picks an
//                       installed one, otherwise test-electron downloads one into .vscode-test/.
//   --host code-server  code-server driven by Debian's Chromium, where desktop VS Code cannot be had (CI here).
// Exits with the suite's exit code. Facts behind the code-server path: docs/real-vscode-host.md.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as util from "node:util";
import { downloadAndUnzipVSCode, runTests, TestRunFailedError } from "@vscode/test-electron";
import type { Browser } from "playwright-core";
import { launchChromium } from "./chromium";
import { repoRoot, startCodeServer, type CodeServer } from "./code-server";

const SUITE = path.join(repoRoot, "out", "test", "integration", "index.js");
const SAMPLE = path.join(repoRoot, "examples", "sample-workspace");
const RESULTS = path.join(repoRoot, "test-results");
const SUITE_TIMEOUT_MS = 10 * 60_000;
/** Given to the extension host by either host; the suite cannot rely on the host's own PATH or working directory. */
const EXTENSION_HOST_ENV = {
  // Where the tests find test/fake-clis/.
  AGENT_STREAM_REPO: repoRoot,
  // Makes activate() return the extension's test API (src/extension.ts).
  AGENT_STREAM_TEST_API: "1",
};

type Host = "electron" | "code-server";
/** Read by test/integration/index.ts to pick the suite files. */
type SuitePass = "trusted" | "restricted";

async function main(): Promise<void> {
  const host = parseHost(process.argv.slice(2));
  // A copy, so that no test ever changes the repository's own files.
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-integration-"));
  fs.cpSync(SAMPLE, workspace, { recursive: true });
  try {
    if (host === "electron") {
      // test-electron always starts VS Code with --disable-workspace-trust: the Restricted Mode pass runs in code-server.
      process.exitCode = await runInElectron(workspace);
      return;
    }
    const trusted = await runInCodeServer(workspace, "trusted");
    process.exitCode = trusted !== 0 ? trusted : await runInCodeServer(workspace, "restricted");
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

function parseHost(args: string[]): Host {
  const at = args.indexOf("--host");
  const host = at === -1 ? "electron" : args[at + 1];
  if (host === "electron" || host === "code-server") return host;
  throw new Error(`unknown --host ${String(host)}: use electron or code-server`);
}

async function runInElectron(workspace: string): Promise<number> {
  const vscodeExecutablePath = installedVSCode() ?? (await downloadVSCode());
  // A fresh profile each run: nothing a previous run left open (the Agent Stream view, say) is restored.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-vscode-profile-"));
  try {
    await runTests({
      vscodeExecutablePath,
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: SUITE,
      extensionTestsEnv: EXTENSION_HOST_ENV,
      launchArgs: [workspace, "--disable-extensions", `--user-data-dir=${path.join(profile, "user-data")}`, `--extensions-dir=${path.join(profile, "extensions")}`],
    });
    return 0;
  } catch (error) {
    if (error instanceof TestRunFailedError) return error.code ?? 1;
    throw error;
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

function installedVSCode(): string | undefined {
  const executable = process.env["VSCODE_EXECUTABLE_PATH"];
  if (!executable) return undefined;
  if (!fs.existsSync(executable)) throw new Error(`VSCODE_EXECUTABLE_PATH is ${executable}, which does not exist`);
  return executable;
}

async function downloadVSCode(): Promise<string> {
  try {
    return await downloadAndUnzipVSCode({ extensionDevelopmentPath: repoRoot, timeout: 30_000 });
  } catch (error) {
    throw new Error(
      `could not download VS Code (${error instanceof Error ? error.message : String(error)}).\n` +
        "Set VSCODE_EXECUTABLE_PATH to an installed desktop VS Code, or run the suite in code-server: npm run test:integration:code-server",
    );
  }
}

/**
 * One window per pass: "trusted" runs every suite but the Restricted Mode one; "restricted" opens the folder with
 * workspace trust on and not granted, and runs only test/integration/*.restricted.itest.ts.
 */
async function runInCodeServer(workspace: string, pass: SuitePass): Promise<number> {
  const interrupted = untilSignal();
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  console.log(`\n== integration suite, ${pass} workspace`);
  try {
    server = await startCodeServer({ restricted: pass === "restricted" });
    // Playwright would otherwise end this process on Ctrl-C, before code-server is stopped.
    browser = await launchChromium({ handleSIGINT: false, handleSIGTERM: false });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // The workbench calls window.codeAutomationExit(code) once the suite's run() settles.
    let reportExit: (code: number) => void = () => undefined;
    const exited = new Promise<number>((resolve) => (reportExit = resolve));
    await page.exposeFunction("codeAutomationExit", (code: number) => reportExit(code));
    let suiteSpoke = false;
    await page.exposeFunction("agentStreamSuiteOutput", (args: unknown[]) => {
      suiteSpoke = true;
      console.log(suiteLine(args));
    });
    await page.addInitScript(CAPTURE_SUITE_OUTPUT);
    // Shown only if the suite never printed anything: then the workbench's own console says why.
    const workbenchConsole: string[] = [];
    page.on("console", (message) => workbenchConsole.push(message.text().replace(LOG_SERVICE_TEXT_STYLE, "$1 ")));
    await page.goto(server.workbenchUrl(workspace, { extensionTestsPath: SUITE, env: { ...EXTENSION_HOST_ENV, AGENT_STREAM_ITEST_PASS: pass } }));

    const outcome = await Promise.race([exited, interrupted, timeAfter(SUITE_TIMEOUT_MS)]);
    if (outcome === "SIGINT" || outcome === "SIGTERM") return 128 + os.constants.signals[outcome];
    if (outcome === 0) return 0;
    if (!suiteSpoke) console.log(`The suite printed nothing. The workbench's console:\n${workbenchConsole.join("\n")}`);
    // A failure leaves a picture of what the user would have seen.
    const screenshot = path.join(RESULTS, `integration-failure-${pass}.png`);
    fs.mkdirSync(RESULTS, { recursive: true });
    await page.screenshot({ path: screenshot }).catch(() => undefined);
    console.error(`screenshot: ${path.relative(process.cwd(), screenshot)}`);
    if (outcome !== "timeout") return outcome;
    console.error(`the suite did not finish within ${SUITE_TIMEOUT_MS / 60_000} min`);
    return 1;
  } finally {
    try {
      await browser?.close();
    } finally {
      await server?.stop();
    }
  }
}

/**
 * Runs in the workbench page before its own code. The extension host's console (the suite's reporter) reaches the
 * page through MainThreadConsole.$logExtensionHostMessage, which prints it with the workbench's log service like
 * the workbench's own chatter (open-vsx.org look-ups, sign-in probes): only the call stack tells them apart.
 */
const CAPTURE_SUITE_OUTPUT = `(() => {
  for (const method of ["debug", "log", "info", "warn", "error"]) {
    const original = console[method];
    console[method] = function (...args) {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 50;
      const stack = new Error().stack ?? "";
      Error.stackTraceLimit = limit;
      if (stack.includes("$logExtensionHostMessage")) window.agentStreamSuiteOutput(args);
      return original.apply(this, args);
    };
  }
})();`;

/** How the workbench's log service styles a line: `console.log("%c INFO", "color: #33f", message, ...args)`. */
const LOG_SERVICE_STYLE = /^%c\s*[A-Z]+$/;
/** The same styling in the text of a console message, with the level captured. */
const LOG_SERVICE_TEXT_STYLE = /^%c\s*([A-Z]+) color: #\w+ /;

/** The line as the extension host printed it: the log service's styling removed, printf-style arguments applied. */
function suiteLine(args: unknown[]): string {
  const printed = typeof args[0] === "string" && LOG_SERVICE_STYLE.test(args[0]) ? args.slice(2) : args;
  return util.format(...printed);
}

/** Resolves on Ctrl-C or SIGTERM, which then no longer end the process before clean-up (a second one still does). */
function untilSignal(): Promise<"SIGINT" | "SIGTERM"> {
  return new Promise((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve(signal));
  });
}

function timeAfter(ms: number): Promise<"timeout"> {
  return new Promise((resolve) => setTimeout(() => resolve("timeout"), ms).unref());
}

main().catch((error: unknown) => {
  console.error(`test:integration failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
