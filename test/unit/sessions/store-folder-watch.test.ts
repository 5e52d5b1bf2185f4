import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { watchStoreFolder, type StoreFolderWatch } from "../../../src/sessions/store-folder-watch";
import { eventually } from "../../helpers/eventually";
import { VirtualScheduler } from "../../helpers/virtual-scheduler";

describe("watching a CLI's session store", () => {
  let folder: string;
  let watch: StoreFolderWatch | undefined;
  beforeEach(() => (folder = fs.mkdtempSync(path.join(os.tmpdir(), "store-watch-"))));
  afterEach(() => {
    watch?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it("does not watch a folder that does not exist, nor a file, nor a link to a folder", () => {
    assert.equal(watchStoreFolder(path.join(folder, "missing"), () => {}), undefined);
    fs.writeFileSync(path.join(folder, "file"), "");
    assert.equal(watchStoreFolder(path.join(folder, "file"), () => {}), undefined);
    fs.symlinkSync(os.tmpdir(), path.join(folder, "link"));
    assert.equal(watchStoreFolder(path.join(folder, "link"), () => {}), undefined);
  });

  it("tells of a session written, once for a burst of writes, after the interval", async () => {
    const scheduler = new VirtualScheduler();
    let told = 0;
    watch = watchStoreFolder(folder, () => told++, { scheduler, intervalMs: 3000 });
    assert.ok(watch?.watching);
    const session = path.join(folder, "0b9a.jsonl");
    for (let line = 0; line < 20; line++) fs.appendFileSync(session, `{"line":${line}}\n`);
    await eventually("the watch to hear a change", () => scheduler.waiting > 0);
    scheduler.advance(2999);
    assert.equal(told, 0, "not before the interval");
    scheduler.advance(1);
    assert.equal(told, 1);
    // Whatever of the burst arrives after the call starts the next interval: never more than one call per interval.
    scheduler.advance(3000);
    assert.ok(told <= 2, `told ${told} times`);
  });

  it("tells nothing after it was closed", async () => {
    const scheduler = new VirtualScheduler();
    let told = 0;
    watch = watchStoreFolder(folder, () => told++, { scheduler });
    fs.writeFileSync(path.join(folder, "a.jsonl"), "{}\n");
    await eventually("the watch to hear a change", () => scheduler.waiting > 0);
    watch?.close();
    scheduler.advance(10_000);
    assert.equal(told, 0);
    assert.equal(watch?.watching, false);
  });
});
