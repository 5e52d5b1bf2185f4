import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { emptyAgentState } from "../../../src/protocol/agent-state";
import type { SessionId, StoredSession } from "../../../src/protocol/sessions";
import { maxFileBytes } from "../../../src/sessions/kept-turns";
import { SessionStore, type SessionStoreOptions } from "../../../src/sessions/session-store";
import { summaryOf } from "../../../src/sessions/session-summary";
import { storedSession } from "../../helpers/stored-session-builder";
import { permissionBlock, toolBlock, turnWith } from "../../helpers/turn-builder";

const CRASH_WHILE_SAVING = path.join(__dirname, "..", "..", "helpers", "crash-while-saving.js");

describe("the session store", () => {
  let storage: string;
  let warnings: string[];
  let stores: SessionStore[];

  beforeEach(() => {
    storage = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-sessions-"));
    warnings = [];
    stores = [];
  });

  afterEach(async () => {
    // A write still under way would land in the next test's folder list and log.
    await Promise.all(stores.map((store) => store.flush()));
    fs.rmSync(storage, { recursive: true, force: true });
  });

  async function open(options: Partial<SessionStoreOptions> = {}): Promise<SessionStore> {
    const store = await SessionStore.open(storage, { maxBytes: Infinity, log: { warn: (message) => warnings.push(message) }, ...options });
    stores.push(store);
    return store;
  }

  async function saved(store: SessionStore, session: StoredSession): Promise<StoredSession> {
    assert.equal(await store.save(session, summaryOf(session, "completed")), true);
    return session;
  }

  function sessionFile(id: SessionId): string {
    return path.join(storage, "sessions", `${id}.json`);
  }

  function filesIn(): string[] {
    return fs.readdirSync(path.join(storage, "sessions")).sort();
  }

  it("gives back a saved session as it was, in another store opened on the same folder", async () => {
    const session = await saved(await open(), storedSession({ title: "Fix the parser" }));
    assert.deepEqual(await (await open()).load(session.id), session);
  });

  it("gives back the agent state and the chosen mode and model saved with a session", async () => {
    const agentState = {
      ...emptyAgentState(),
      mode: {
        currentId: "plan",
        offered: [
          { id: "default", name: "Default", description: null, approvesItself: false },
          { id: "bypassPermissions", name: "Bypass permissions", description: null, approvesItself: true },
        ],
        configId: null,
      },
      model: { currentId: "claude-opus-5-5", offered: [], configId: null },
    };
    const session = await saved(await open(), storedSession({ agentState, chosen: { mode: "plan" } }));
    const loaded = await (await open()).load(session.id);
    assert.deepEqual([loaded?.agentState, loaded?.chosen], [agentState, { mode: "plan" }]);
  });

  it("reads a session file written before agent states were kept, with neither", async () => {
    const session = storedSession({ title: "from before" });
    await saved(await open(), session);
    fs.writeFileSync(sessionFile(session.id), JSON.stringify(session));
    const loaded = await (await open()).load(session.id);
    assert.deepEqual([loaded?.title, loaded?.agentState, loaded?.chosen], ["from before", undefined, undefined]);
  });

  it("keeps a session whose stored agent state no longer fits, with an empty one in its place", async () => {
    const session = storedSession({ title: "kept" });
    await saved(await open(), session);
    fs.writeFileSync(sessionFile(session.id), JSON.stringify({ ...session, agentState: { mode: "plan" }, chosen: { mode: 7 } }));
    const loaded = await (await open()).load(session.id);
    assert.deepEqual([loaded?.title, loaded?.agentState, loaded?.chosen], ["kept", emptyAgentState(), {}]);
    assert.deepEqual(warnings, []);
  });

  it("keeps a session's pending prompts, in order, with their context", async () => {
    const pendingPrompts = [
      { id: "p1", prompt: "and the tests too", context: null, createdAt: 5_000 },
      { id: "p2", prompt: "explain this", context: { summary: "src/a.ts:3", text: "const a = 1;" }, createdAt: 6_000 },
    ];
    const session = await saved(await open(), storedSession({ pendingPrompts }));
    assert.deepEqual((await (await open()).load(session.id))?.pendingPrompts, pendingPrompts);
  });

  it("reads a session file written before pending prompts were kept as having none", async () => {
    const store = await open();
    const session = await saved(store, storedSession());
    const { pendingPrompts: _, ...older } = session;
    fs.writeFileSync(sessionFile(session.id), JSON.stringify(older));
    assert.deepEqual(await (await open()).load(session.id), { ...session, pendingPrompts: [] });
    assert.deepEqual(warnings, []);
  });

  describe("the images of queued messages", () => {
    const image = { kind: "image" as const, mimeType: "image/png" as const, data: Buffer.from("\x89PNG\r\n\x1a\n the screenshot").toString("base64"), name: "shot.png" };
    const attachment = { kind: "file" as const, path: "src/a.ts" };
    const queued = { id: "0b7c1f3e-5a2d-4c8e-9f10-2b3c4d5e6f70", prompt: "what is wrong here?", context: null, createdAt: 7_000, attachments: [attachment], images: [image] };

    function imagesFolder(id: SessionId): string {
      return path.join(storage, "sessions", `${id}.queued-images`);
    }

    it("keeps a queued message's attachments and images, the images beside the session's file rather than in it", async () => {
      const session = await saved(await open(), storedSession({ pendingPrompts: [queued] }));
      assert.ok(!fs.readFileSync(sessionFile(session.id), "utf8").includes(image.data), "the session's file does not carry the image");
      assert.deepEqual(fs.readdirSync(imagesFolder(session.id)), [`${queued.id}.json`]);
      assert.deepEqual((await (await open()).load(session.id))?.pendingPrompts, [queued]);
    });

    it("removes a message's images once it no longer waits, and a deleted session's", async () => {
      const store = await open();
      const session = await saved(store, storedSession({ pendingPrompts: [queued] }));
      await saved(store, { ...session, pendingPrompts: [] });
      assert.equal(fs.existsSync(imagesFolder(session.id)), false);
      await saved(store, { ...session, pendingPrompts: [queued] });
      await store.delete(session.id);
      assert.equal(fs.existsSync(imagesFolder(session.id)), false);
    });

    it("removes the images a reloaded window's store finds for a message that was sent meanwhile", async () => {
      const session = await saved(await open(), storedSession({ pendingPrompts: [queued] }));
      const reloaded = await open();
      const loaded = await reloaded.load(session.id);
      assert.ok(loaded);
      await saved(reloaded, { ...loaded, pendingPrompts: [] });
      assert.equal(fs.existsSync(imagesFolder(session.id)), false);
    });

    it("gives back a message whose images were lost without them, with one log line", async () => {
      const session = await saved(await open(), storedSession({ pendingPrompts: [queued] }));
      fs.writeFileSync(path.join(imagesFolder(session.id), `${queued.id}.json`), JSON.stringify([{ ...image, mimeType: "text/html" }]));
      const { images: _, ...withoutImages } = queued;
      assert.deepEqual((await (await open()).load(session.id))?.pendingPrompts, [withoutImages]);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0] ?? "", /images of a queued message .* were not read back: it does not fit its schema/);
    });
  });

  it("lists sessions newest first", async () => {
    const store = await open();
    const older = await saved(store, storedSession({ title: "older", updatedAt: 1 }));
    const newer = await saved(store, storedSession({ title: "newer", updatedAt: 3 }));
    const middle = await saved(store, storedSession({ title: "middle", updatedAt: 2 }));
    assert.deepEqual(
      (await open()).list().map((summary) => summary.id),
      [newer.id, middle.id, older.id],
    );
  });

  it("opens from the index without reading the sessions' files", async () => {
    const session = await saved(await open(), storedSession({ title: "listed from the index" }));
    fs.writeFileSync(sessionFile(session.id), "not read at open");
    const reopened = await open();
    assert.deepEqual(reopened.list().map((summary) => summary.title), ["listed from the index"]);
    assert.deepEqual(warnings, []);
  });

  it("writes a session's file and the index only through a rename: no temporary file stays", async () => {
    const store = await open();
    const session = await saved(store, storedSession());
    await store.flush();
    assert.deepEqual(filesIn(), [`${session.id}.json`, "index.json"].sort());
  });

  it("has every save written, its file and the index, once flush resolves: what deactivation waits for", async () => {
    const store = await open();
    const sessions = [storedSession({ title: "one" }), storedSession({ title: "two" })];
    for (const session of sessions) void store.save(session, summaryOf(session, "running"));
    await store.flush();
    const index = JSON.parse(fs.readFileSync(path.join(storage, "sessions", "index.json"), "utf8")) as { sessions: { summary: { title: string } }[] };
    assert.deepEqual(index.sessions.map((entry) => entry.summary.title).sort(), ["one", "two"]);
    for (const session of sessions) assert.equal(JSON.parse(fs.readFileSync(sessionFile(session.id), "utf8")).title, session.title);
  });

  it("leaves the old file whole when the window dies between writing a session and renaming it", async function () {
    const store = await open();
    const before = await saved(store, storedSession({ title: "before the crash" }));
    const after = path.join(storage, "after.json");
    fs.writeFileSync(after, JSON.stringify({ ...before, title: "never written", updatedAt: 9_000 }));
    const crash = spawnSync(process.execPath, [CRASH_WHILE_SAVING, storage, after, "1"], { encoding: "utf8" });
    assert.equal(crash.signal, "SIGKILL", crash.stderr);
    const reopened = await open();
    assert.deepEqual(await reopened.load(before.id), before);
    assert.deepEqual(reopened.list().map((summary) => summary.title), ["before the crash"]);
    assert.deepEqual(warnings, []);
  });

  it("loses nothing when the window dies between a new session's file and the index", async () => {
    await open();
    const session = storedSession({ title: "saved just before the crash" });
    const file = path.join(storage, "session.json");
    fs.writeFileSync(file, JSON.stringify(session));
    const crash = spawnSync(process.execPath, [CRASH_WHILE_SAVING, storage, file, "2"], { encoding: "utf8" });
    assert.equal(crash.signal, "SIGKILL", crash.stderr);
    const reopened = await open();
    assert.deepEqual(reopened.list().map((summary) => summary.title), ["saved just before the crash"]);
    assert.deepEqual(await reopened.load(session.id), session);
  });

  it("brings a list row up to date when the window died between a session's newer file and the index", async () => {
    const store = await open();
    const session = await saved(store, storedSession({ title: "first title", updatedAt: 1_000 }));
    const newer = { ...session, title: "newer title", updatedAt: 5_000 };
    const file = path.join(storage, "session.json");
    fs.writeFileSync(file, JSON.stringify(newer));
    assert.equal(spawnSync(process.execPath, [CRASH_WHILE_SAVING, storage, file, "2"]).signal, "SIGKILL");
    const reopened = await open();
    assert.deepEqual(await reopened.load(session.id), newer);
    assert.deepEqual(reopened.list().map((summary) => [summary.title, summary.updatedAt]), [["newer title", 5_000]]);
    await reopened.flush();
    assert.deepEqual((await open()).list().map((summary) => summary.title), ["newer title"]);
  });

  it("ends many saves of one session in flight at once with the last of them, in its file and in the list", async () => {
    const store = await open();
    const first = storedSession({ title: "save 0" });
    const saves = Array.from({ length: 50 }, (_, n) => {
      const session = { ...first, title: `save ${n}`, updatedAt: first.updatedAt + n };
      return store.save(session, summaryOf(session, "running"));
    });
    assert.deepEqual(new Set(await Promise.all(saves)), new Set([true]));
    await store.flush();
    const reopened = await open();
    assert.equal((await reopened.load(first.id))?.title, "save 49");
    assert.deepEqual(reopened.list().map((summary) => summary.title), ["save 49"]);
  });

  it("keeps the saves of different sessions apart when they are in flight together", async () => {
    const store = await open();
    const sessions = Array.from({ length: 20 }, (_, n) => storedSession({ title: `session ${n}`, updatedAt: n }));
    await Promise.all(sessions.map((session) => store.save(session, summaryOf(session, "completed"))));
    await store.flush();
    const reopened = await open();
    assert.equal(reopened.list().length, 20);
    for (const session of sessions) assert.deepEqual(await reopened.load(session.id), session);
  });

  it("saves a permission request that still waits as cancelled: nobody can answer it after a reload", async () => {
    const store = await open();
    const waiting = storedSession({ turns: [turnWith(1, [permissionBlock()])] });
    await saved(store, waiting);
    const block = (await (await open()).load(waiting.id))?.turns[0]?.blocks[0];
    assert.deepEqual(block?.kind === "permission" && [block.decision, block.optionId, block.answeredBy], ["cancelled", null, null]);
    assert.equal(waiting.turns[0]?.blocks[0]?.kind === "permission" && waiting.turns[0].blocks[0].decision, null, "the caller's session is not changed");
  });

  it("keeps the first part of a session past its size and counts the rest in the turn that lost it", async () => {
    const store = await open({ maxSessionChars: 1_000 });
    const text = (chars: number) => ({ kind: "text" as const, text: "x".repeat(chars) });
    const session = storedSession({ turns: [turnWith(1, [text(600)], { done: true }), turnWith(2, [text(600), text(10)], { done: true })] });
    await saved(store, session);
    const loaded = await (await open()).load(session.id);
    const second = loaded?.turns[1]?.blocks;
    assert.equal(loaded?.turns[0]?.blocks[0]?.kind === "text" && loaded.turns[0].blocks[0].text.length, 600);
    // Every string of a block counts, its kind's name too.
    const left = 1_000 - (600 + "text".length) - "text".length;
    assert.deepEqual(second?.[0]?.kind === "text" && [second[0].text.length, second[0].truncatedChars], [left, 600 - left]);
    assert.deepEqual(second?.[1], { kind: "status", status: "session full", message: "This session keeps about 0 MiB of text; 1 more block of this turn was not saved." });
  });

  it("skips a session file that is not JSON with one log line and lists it no more", async () => {
    const store = await open();
    const session = await saved(store, storedSession());
    fs.writeFileSync(sessionFile(session.id), "{ torn");
    assert.equal(await store.load(session.id), undefined);
    assert.deepEqual(warnings, [`session file ${session.id}.json is not JSON and was skipped`]);
    assert.deepEqual(store.list(), []);
    assert.ok(fs.existsSync(sessionFile(session.id)), "the file stays: it is not ours to throw away");
  });

  it("skips a session file of a newer version with one log line, never trusting its fields", async () => {
    const store = await open();
    const session = await saved(store, storedSession());
    fs.writeFileSync(sessionFile(session.id), JSON.stringify({ ...session, version: 2, turns: "a shape this version does not know" }));
    assert.equal(await store.load(session.id), undefined);
    assert.deepEqual(warnings, [`session file ${session.id}.json was written by a newer version and was skipped`]);
  });

  it("skips a file that holds another session under this session's name", async () => {
    const store = await open();
    const session = await saved(store, storedSession());
    fs.writeFileSync(sessionFile(session.id), JSON.stringify(storedSession()));
    assert.equal(await store.load(session.id), undefined);
    assert.deepEqual(warnings, [`session file ${session.id}.json holds another session's id and was skipped`]);
  });

  it("skips a session file larger than the store writes, without reading it", async () => {
    const store = await open({ maxSessionChars: 1_000 });
    const session = await saved(store, storedSession());
    // Sparse: as large as the check needs, at no cost to the disk.
    fs.truncateSync(sessionFile(session.id), maxFileBytes(1_000) + 1);
    assert.equal(await store.load(session.id), undefined);
    assert.deepEqual(warnings, [`session file ${session.id}.json is over its size bound (${maxFileBytes(1_000) + 1} of at most ${maxFileBytes(1_000)} bytes) and was skipped`]);
  });

  it("skips a FIFO named as a session's file at open instead of waiting on it forever", async function () {
    if (process.platform === "win32") this.skip();
    const store = await open();
    await store.flush();
    fs.rmSync(path.join(storage, "sessions", "index.json"));
    const id = storedSession().id;
    assert.equal(spawnSync("mkfifo", [sessionFile(id)]).status, 0);
    assert.deepEqual((await open()).list(), []);
    assert.deepEqual(warnings, [`session file ${id}.json is not a file and was skipped`]);
  });

  it("does not follow a link named as a session's file", async function () {
    if (process.platform === "win32") this.skip();
    const store = await open();
    const session = await saved(store, storedSession());
    const elsewhere = path.join(storage, "elsewhere.json");
    fs.renameSync(sessionFile(session.id), elsewhere);
    fs.symlinkSync(elsewhere, sessionFile(session.id));
    assert.equal(await store.load(session.id), undefined);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, new RegExp(`^session file ${session.id}\\.json could not be read and was skipped: ELOOP`));
  });

  it("says a save failed, rather than rejecting, when the session holds a value JSON cannot write", async () => {
    const store = await open();
    const session = storedSession({ turns: [turnWith(1, [toolBlock({ parameters: { count: 10n } })])] });
    assert.equal(await store.save(session, summaryOf(session, "running")), false);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, new RegExp(`^session ${session.id} could not be saved: .*BigInt`));
    await store.flush();
  });

  it("does not write a session larger than it could read back", async () => {
    const store = await open({ maxSessionChars: 1_000 });
    const session = storedSession({ turns: [{ ...turnWith(1, []), prompt: "p".repeat(maxFileBytes(1_000)) }] });
    assert.equal(await store.save(session, summaryOf(session, "completed")), false);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, new RegExp(`^session ${session.id} was not saved: it is over a file's size bound \\(\\d+ of at most ${maxFileBytes(1_000)} bytes\\)$`));
  });

  it("rebuilds a missing index from the sessions' files", async () => {
    const store = await open();
    const one = await saved(store, storedSession({ title: "one", updatedAt: 1 }));
    const two = await saved(store, storedSession({ title: "two", updatedAt: 2 }));
    await store.flush();
    fs.rmSync(path.join(storage, "sessions", "index.json"));
    const reopened = await open();
    assert.deepEqual(reopened.list(), [summaryOf(two, "completed"), summaryOf(one, "completed")]);
    assert.deepEqual(warnings, []);
  });

  it("rebuilds an index that does not fit its schema, with one log line, and skips a bad file on the way", async () => {
    const store = await open();
    await saved(store, storedSession({ title: "kept" }));
    const bad = await saved(store, storedSession({ title: "torn" }));
    await store.flush();
    fs.writeFileSync(path.join(storage, "sessions", "index.json"), JSON.stringify({ version: 1, sessions: [{ summary: "not a summary" }] }));
    fs.writeFileSync(sessionFile(bad.id), "[");
    const reopened = await open();
    assert.deepEqual(reopened.list().map((summary) => summary.title), ["kept"]);
    assert.deepEqual(warnings, [
      "the sessions' index does not fit its schema and is rebuilt from the session files",
      `session file ${bad.id}.json is not JSON and was skipped`,
    ]);
  });

  it("rebuilds an index too large to be one, without reading it", async () => {
    const store = await open();
    await saved(store, storedSession({ title: "kept" }));
    await store.flush();
    fs.truncateSync(path.join(storage, "sessions", "index.json"), 64 * 1024 * 1024 + 1);
    assert.deepEqual((await open()).list().map((summary) => summary.title), ["kept"]);
    assert.deepEqual(warnings, [`the sessions' index is over its size bound (${64 * 1024 * 1024 + 1} of at most ${64 * 1024 * 1024} bytes) and is rebuilt from the session files`]);
  });

  it("drops from the list a session whose file is gone", async () => {
    const store = await open();
    const session = await saved(store, storedSession());
    await store.flush();
    fs.rmSync(sessionFile(session.id));
    assert.deepEqual((await open()).list(), []);
  });

  it("deletes a session's file and its row", async () => {
    const store = await open();
    const kept = await saved(store, storedSession({ title: "kept" }));
    const deleted = await saved(store, storedSession({ title: "deleted" }));
    await store.delete(deleted.id);
    assert.deepEqual(store.list().map((summary) => summary.id), [kept.id]);
    assert.equal(fs.existsSync(sessionFile(deleted.id)), false);
    assert.deepEqual((await open()).list().map((summary) => summary.id), [kept.id]);
  });

  it("does not bring a deleted session back through a save of it still waiting", async () => {
    const store = await open();
    const session = storedSession();
    void store.save(session, summaryOf(session, "running"));
    void store.save({ ...session, title: "waiting" }, summaryOf({ ...session, title: "waiting" }, "running"));
    await store.delete(session.id);
    await store.flush();
    assert.deepEqual(store.list(), []);
    assert.equal(fs.existsSync(sessionFile(session.id)), false);
  });

  it("says a save that cannot be written failed, with one log line, and leaves no temporary file", async () => {
    const store = await open();
    const session = storedSession();
    fs.mkdirSync(sessionFile(session.id));
    assert.equal(await store.save(session, summaryOf(session, "completed")), false);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, new RegExp(`^session ${session.id} could not be saved: `));
    assert.deepEqual(store.list(), []);
    assert.deepEqual(filesIn(), [session.id + ".json", "index.json"].sort());
  });

  it("does not write a session it could not read back, keeping its file as it was, with one log line", async () => {
    const store = await open();
    const session = await saved(store, storedSession({ title: "as it was" }));
    const tooLong = { ...session, title: "t".repeat(5_000) };
    assert.equal(await store.save(tooLong, summaryOf(session, "completed")), false);
    assert.deepEqual(warnings, [`session ${session.id} was not saved: it does not fit the session schema at title`]);
    assert.equal((await (await open()).load(session.id))?.title, "as it was");
  });

  it("does not write a session whose summary the index could not read back", async () => {
    const store = await open();
    const session = storedSession();
    assert.equal(await store.save(session, { ...summaryOf(session, "completed"), turnCount: -1 }), false);
    assert.deepEqual(warnings, [`session ${session.id} was not saved: it has a summary that does not fit its schema at turnCount`]);
    assert.deepEqual(filesIn(), ["index.json"]);
  });

  it("removes at open a temporary file a crash left long ago, and leaves one another window is writing", async () => {
    await open();
    const folder = path.join(storage, "sessions");
    const [stale, fresh] = [path.join(folder, ".index.json.1.tmp"), path.join(folder, ".index.json.2.tmp")];
    fs.writeFileSync(stale, "{");
    fs.writeFileSync(fresh, "{");
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    fs.utimesSync(stale, hourAgo, hourAgo);
    await open();
    assert.deepEqual(filesIn(), [".index.json.2.tmp", "index.json"]);
  });

  it("lists at the next open the sessions two windows saved on the same folder, though each wrote its own index", async () => {
    const [window1, window2] = [await open(), await open()];
    const first = await saved(window1, storedSession({ title: "from window 1", updatedAt: 1 }));
    const second = await saved(window2, storedSession({ title: "from window 2", updatedAt: 2 }));
    await Promise.all([window1.flush(), window2.flush()]);
    const reopened = await open();
    assert.deepEqual(reopened.list().map((summary) => summary.id), [second.id, first.id]);
    assert.deepEqual(warnings, []);
  });

  it("refuses an id that is not a session's, touching no path outside its folder", async () => {
    const store = await open();
    const outside = path.join(storage, "outside.json");
    fs.writeFileSync(outside, "{}");
    const escaping = "../outside" as SessionId;
    await assert.rejects(store.delete(escaping), /not a session id/);
    await assert.rejects(store.load(escaping), /not a session id/);
    assert.throws(() => store.save(storedSession({ id: escaping }), summaryOf(storedSession({ id: escaping }), "new")), /not a session id/);
    assert.ok(fs.existsSync(outside));
  });

  describe("eviction", () => {
    /** Five sessions, oldest first, whose files are all the same size. */
    async function fiveSessions(store: SessionStore): Promise<{ ids: SessionId[]; bytes: number }> {
      const ids: SessionId[] = [];
      for (let n = 1; n <= 5; n++) ids.push((await saved(store, storedSession({ updatedAt: n * 1_000 }))).id);
      return { ids, bytes: fs.statSync(sessionFile(ids[0]!)).size };
    }

    it("deletes the oldest sessions first until the files fit the bound, skipping an open one", async () => {
      const first = await open();
      const { ids, bytes } = await fiveSessions(first);
      const store = await open({ maxBytes: Math.floor(2.5 * bytes) });
      const evicted = await store.evict(new Set([ids[0]!]));
      assert.deepEqual(evicted, [ids[1], ids[2], ids[3]]);
      assert.deepEqual(store.list().map((summary) => summary.id), [ids[4], ids[0]]);
      assert.deepEqual(filesIn(), [`${ids[0]}.json`, `${ids[4]}.json`, "index.json"].sort());
    });

    it("deletes nothing while the files fit the bound", async () => {
      const { bytes } = await fiveSessions(await open());
      const store = await open({ maxBytes: 5 * bytes });
      assert.deepEqual(await store.evict(new Set()), []);
      assert.equal(store.list().length, 5);
    });

    it("never deletes an open session, even when the open ones alone are past the bound", async () => {
      const { ids } = await fiveSessions(await open());
      const store = await open({ maxBytes: 1 });
      const evicted = await store.evict(new Set([ids[3]!, ids[4]!]));
      assert.deepEqual(evicted, ids.slice(0, 3));
      assert.deepEqual(store.list().map((summary) => summary.id), [ids[4], ids[3]]);
    });
  });
});
