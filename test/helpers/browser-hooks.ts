// Mocha root hooks (loaded through .mocharc.json): the Chromium the webview suites share is closed once, at the end.
import { closeSharedBrowser } from "./webview-harness";

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await closeSharedBrowser();
  },
};
