// A workspace's .gitignore and .git/info/exclude are read with ReadFile's rules: a FIFO, a link to a device or a link
// out of the workspace is no ignore file at all. Real FIFOs and symlinks, and the built agent as a real process.
import * as assert from "node:assert/strict";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { listFiles } from "../../../src/builtin-agent/tools/list-files";
import { repoRoot } from "../../helpers/repo";

const AGENT = path.join(repoRoot, "dist", "builtin-agent.js");
const LIST_FILES = path.join(repoRoot, "out", "src", "builtin-agent", "tools", "list-files.js");

describe("the built-in agent's ignore files", function () {
  let root: string;
  let outside: string;
  const children: ChildProcess[] = [];

  beforeEach(function () {
    if (process.platform === "win32") this.skip();
    root = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-ignore-"));
    outside = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-outside-"));
    fs.mkdirSync(path.join(root, ".git", "info"), { recursive: true });
    fs.writeFileSync(path.join(root, "README.md"), "# Sample\n\nA workspace.\n");
    fs.writeFileSync(path.join(root, "secret.txt"), "listed\n");
  });

  afterEach(() => {
    // A child that hangs on a FIFO (the bug) must not outlive the test.
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  /** Resolves with what the child printed once it has exited. */
  async function output(child: ChildProcess): Promise<string> {
    children.push(child);
    let stdout = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    await once(child, "close");
    return stdout;
  }

  it("answers when .gitignore and .git/info/exclude are FIFOs nobody writes to", async () => {
    execFileSync("mkfifo", [path.join(root, ".gitignore")]);
    execFileSync("mkfifo", [path.join(root, ".git", "info", "exclude")]);
    const agent = spawn(process.execPath, [AGENT, "exec", "--json-stream", "what is in this workspace?"], {
      cwd: root,
      env: { ...process.env, AGENT_STREAM_BUILTIN_DELAY_MS: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const events = (await output(agent)).trimEnd().split("\n").map((line) => JSON.parse(line) as { type: string; payload: Record<string, unknown> });
    const done = events.at(-1);
    assert.equal(done?.type, "done");
    assert.equal(done?.payload["exitCode"], 0);
  });

  it("does not read a .gitignore that links to /dev/zero: memory stays small", async () => {
    fs.symlinkSync("/dev/zero", path.join(root, ".gitignore"));
    fs.symlinkSync("/dev/zero", path.join(root, ".git", "info", "exclude"));
    // Its own process, so what it allocated is its peak resident size and nothing of the test runner's.
    const probe = `require(${JSON.stringify(LIST_FILES)}).listFiles(process.argv[1]).then((r) => console.log(JSON.stringify({ ok: r.ok, maxRssKiB: process.resourceUsage().maxRSS })))`;
    const result = JSON.parse(await output(spawn(process.execPath, ["-e", probe, root], { stdio: ["ignore", "pipe", "inherit"] }))) as { ok: boolean; maxRssKiB: number };
    assert.equal(result.ok, true);
    // A bare Node is ~50 MB; reading /dev/zero until the string limit took ~620 MB.
    assert.ok(result.maxRssKiB < 200 * 1024, `peak resident size ${Math.round(result.maxRssKiB / 1024)} MB`);
  });

  it("ignores a .gitignore that links out of the workspace", async () => {
    fs.writeFileSync(path.join(outside, "rules"), "secret.txt\n");
    fs.symlinkSync(path.join(outside, "rules"), path.join(root, ".gitignore"));
    fs.symlinkSync(path.join(outside, "rules"), path.join(root, ".git", "info", "exclude"));
    const listing = await listFiles(root);
    assert.ok(listing.ok);
    assert.ok(listing.value.files.some((file) => file.path === "secret.txt"), "a file outside the workspace decided what is listed");
    assert.equal(listing.value.ignoredEntries, 0);
  });

  it("still honours a .gitignore that links to a file inside the workspace", async () => {
    fs.writeFileSync(path.join(root, "rules"), "secret.txt\n");
    fs.symlinkSync(path.join(root, "rules"), path.join(root, ".gitignore"));
    const listing = await listFiles(root);
    assert.ok(listing.ok);
    assert.deepEqual(listing.value.files.map((file) => file.path), [".gitignore", "README.md", "rules"]);
  });
});
