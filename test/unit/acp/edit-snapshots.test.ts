import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { EditSnapshots } from "../../../src/acp/edit-snapshots";
import type { AcpToolCall, AcpToolContent } from "../../../src/dialects/acp/acp-events";
import { CliStreamEventSchema, type EventOfType } from "../../../src/protocol/events";
import { agentStream } from "../../helpers/agent-stream-cli";
import { fakeCli } from "../../helpers/repo";

const call = (fields: Partial<AcpToolCall>): AcpToolCall => ({
  toolCallId: "t",
  title: "Edit",
  kind: "edit",
  status: "pending",
  content: [],
  locations: [],
  rawInput: undefined,
  rawOutput: undefined,
  cutChars: 0,
  fingerprint: { input: null, diffs: null },
  ...fields,
});
const at = (...paths: string[]) => paths.map((p) => ({ path: p, line: null }));
const missing = () => Object.assign(new Error("ENOENT: no such file"), { code: "ENOENT" });

/** Files as a map: a path not in it is missing; a string value starting "!" is a refusal with that reason. */
function disk(files: Record<string, string>) {
  return async (file: string): Promise<string> => {
    const text = files[file];
    if (text === undefined) throw missing();
    if (text.startsWith("!")) throw new Error(text.slice(1));
    return text;
  };
}

describe("edits the agent sends no diff for", () => {
  it("get the file before the call and after it completed", async () => {
    const files: Record<string, string> = { "/w/a.ts": "old\n" };
    const snapshots = new EditSnapshots(disk(files));
    await snapshots.before(call({ locations: at("/w/a.ts") }));
    files["/w/a.ts"] = "new\n";
    const computed = await snapshots.after(call({ status: "completed", locations: at("/w/a.ts") }));
    assert.deepEqual(computed, { diffs: [{ type: "diff", path: "/w/a.ts", oldText: "old\n", newText: "new\n" }], notes: [] });
    assert.equal(snapshots.size, 0);
  });

  it("show a file the edit created as new", async () => {
    const files: Record<string, string> = {};
    const snapshots = new EditSnapshots(disk(files));
    await snapshots.before(call({ locations: at("/w/new.ts") }));
    files["/w/new.ts"] = "made\n";
    const computed = await snapshots.after(call({ status: "completed", locations: at("/w/new.ts") }));
    assert.deepEqual(computed?.diffs, [{ type: "diff", path: "/w/new.ts", oldText: null, newText: "made\n" }]);
  });

  it("leave a file the agent sent its own diff for to that diff, named relative or absolute", async () => {
    const reads: string[] = [];
    const snapshots = new EditSnapshots(async (file) => (reads.push(file), "x"));
    await snapshots.before(call({ locations: at("/w/a.ts") }));
    const diff: AcpToolContent = { type: "diff", path: "a.ts", oldText: null, newText: "y" };
    assert.equal(await snapshots.after(call({ status: "completed", locations: at("/w/a.ts"), content: [diff] })), undefined);
    assert.deepEqual(reads, ["/w/a.ts"]);
  });

  it("say why a file has no diff: outside the workspace, unchanged, or not copied before the edit", async () => {
    const files: Record<string, string> = { "/etc/hosts": "!/etc/hosts is outside the workspace folders", "/w/same.ts": "same" };
    const snapshots = new EditSnapshots(disk(files));
    await snapshots.before(call({ locations: at("/etc/hosts", "/w/same.ts") }));
    const computed = await snapshots.after(call({ status: "completed", locations: at("/etc/hosts", "/w/same.ts") }));
    assert.deepEqual(computed?.notes, ["No diff of /etc/hosts: /etc/hosts is outside the workspace folders.", "No diff of /w/same.ts: the file is unchanged."]);
    const late = await new EditSnapshots(disk(files)).after(call({ toolCallId: "u", status: "completed", locations: at("/w/same.ts") }));
    assert.match(late?.notes[0] ?? "", /^No diff of \/w\/same\.ts: there is no copy of it from before the edit/);
  });

  it("say nothing of a call of no known kind that left its files as they were, and show a diff if it changed one", async () => {
    const files: Record<string, string> = { "/w/a.ts": "a", "/w/b.ts": "b" };
    const snapshots = new EditSnapshots(disk(files));
    await snapshots.before(call({ kind: "other", locations: at("/w/a.ts", "/w/b.ts") }));
    files["/w/b.ts"] = "b2";
    const computed = await snapshots.after(call({ kind: "other", status: "completed", locations: at("/w/a.ts", "/w/b.ts") }));
    assert.deepEqual(computed, { diffs: [{ type: "diff", path: "/w/b.ts", oldText: "b", newText: "b2" }], notes: [] });
  });

  it("copy the files named by a later message of the call too (claude-agent-acp names none at first)", async () => {
    const files: Record<string, string> = { "/w/a.ts": "old" };
    const snapshots = new EditSnapshots(disk(files));
    await snapshots.before(call({}));
    await snapshots.before(call({ locations: at("/w/a.ts") }));
    files["/w/a.ts"] = "new";
    const computed = await snapshots.after(call({ status: "completed", locations: at("/w/a.ts") }));
    assert.deepEqual(computed?.diffs.map((d) => [d.oldText, d.newText]), [["old", "new"]]);
  });

  it("hold copies within their allowance of characters, and say so of a file past it", async () => {
    const files: Record<string, string> = { "/w/a": "a".repeat(60), "/w/b": "b".repeat(60) };
    const snapshots = new EditSnapshots(disk(files), { chars: 100 });
    await snapshots.before(call({ toolCallId: "1", locations: at("/w/a") }));
    await snapshots.before(call({ toolCallId: "2", locations: at("/w/b") }));
    files["/w/b"] = "changed";
    const computed = await snapshots.after(call({ toolCallId: "2", status: "completed", locations: at("/w/b") }));
    assert.match(computed?.notes[0] ?? "", /too many large files are being edited at once/);
    snapshots.forget("1");
    await snapshots.before(call({ toolCallId: "3", locations: at("/w/b") }));
    assert.deepEqual((await snapshots.after(call({ toolCallId: "3", status: "completed", locations: at("/w/b") })))?.notes, ["No diff of /w/b: the file is unchanged."]);
  });

  it("read one file at a time, however many edits start at once", async () => {
    let reading = 0;
    let most = 0;
    const snapshots = new EditSnapshots(async () => {
      most = Math.max(most, ++reading);
      await new Promise((resolve) => setImmediate(resolve));
      reading--;
      return "x";
    });
    await Promise.all(["1", "2", "3"].map((id) => snapshots.before(call({ toolCallId: id, locations: at("/w/a", "/w/b") }))));
    assert.equal(most, 1);
  });

  it("follow a bounded number of calls at once", async () => {
    const snapshots = new EditSnapshots(async () => "x", { calls: 2 });
    for (const id of ["1", "2", "3"]) await snapshots.before(call({ toolCallId: id, locations: at("/w/a") }));
    assert.equal(snapshots.size, 2);
    snapshots.clear();
    assert.equal(snapshots.size, 0);
  });

  it("are shown on the card of an allowed edit through agent-stream ask, before and after, beside the agent's output", async function () {
    this.timeout(60_000);
    const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "edit-snapshots-")));
    try {
      const file = path.join(workspace, "a.txt");
      fs.writeFileSync(file, "one\ntwo\n");
      const args = ["ask", "--json", "--profile", "acp", "--cli", process.execPath, `--arg=${fakeCli("fake-acp-fs-agent.mjs")}`, "--cwd", workspace, "--approve", "allow", "--", "go"];
      const run = await agentStream(args, { env: { ...process.env, FAKE_ACP_FS: JSON.stringify([{ edit: file, content: "one\n2\n" }]) } });
      assert.equal(run.code, 0, run.stderr);
      const events = run.stdout.split("\n").filter((line) => line.trim() !== "").map((line) => CliStreamEventSchema.parse(JSON.parse(line)));
      const updates = events.filter((e): e is EventOfType<"tool_updated"> => e.type === "tool_updated" && e.payload.toolId === "edit-1");
      const last = updates.at(-1)?.payload;
      assert.deepEqual([last?.status, last?.output, last?.diffs], ["completed", "edited", [{ path: file, oldText: "one\ntwo\n", newText: "one\n2\n" }]], run.stdout);
      assert.equal(events.at(-1)?.type, "done");
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });
});
