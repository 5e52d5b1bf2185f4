// scripts/ensure-chromium.sh checks for the browser the webview tests drive; it never installs one itself.
import * as assert from "node:assert/strict";
import { fakeMachine, runScript, type FakeMachine } from "./fake-tools";

describe("scripts/ensure-chromium.sh: the browser for the webview tests", () => {
  let machine: FakeMachine;
  afterEach(() => machine.remove());

  it("stops with the exact apt-get command when Chromium's packages are missing, and runs no apt-get", async () => {
    machine = fakeMachine({ missingPackages: ["chromium", "fonts-noto-cjk"] });
    const result = await runScript("ensure-chromium.sh", machine.env({ AGENT_STREAM_CHROMIUM: process.execPath }));
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /^ {2}(sudo )?apt-get install chromium fonts-noto-cjk$/m);
    assert.deepEqual(machine.systemChanges(), []);
  });
});
