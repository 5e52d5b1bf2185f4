// Tells when a CLI's own session store changes (Claude Code writes a session's file as it runs, from the panel or a
// terminal), so the list of its sessions is read again. Bounded: one watch of one folder, not of its subfolders, and
// at most one call per `intervalMs` however often the CLI writes. A folder that does not exist is not watched, nor a
// symbolic link (a CLI's store folder is never one).
import * as fs from "node:fs";
import { realScheduler, type ScheduledCall, type Scheduler } from "../process/scheduler";

/** How often at most a store that keeps changing (a CLI writing its session line by line) is read again. */
export const STORE_CHANGE_INTERVAL_MS = 3000;

export interface StoreFolderWatch {
  readonly folder: string;
  /** Whether it still watches: false once the folder went away (a later look may watch it anew). */
  readonly watching: boolean;
  close(): void;
}

export interface StoreFolderWatchOptions {
  intervalMs?: number;
  scheduler?: Scheduler;
}

/** Watches `folder` and calls `onChanged` after a change, at most once per interval; undefined when it is no folder. */
export function watchStoreFolder(folder: string, onChanged: () => void, options: StoreFolderWatchOptions = {}): StoreFolderWatch | undefined {
  const { intervalMs = STORE_CHANGE_INTERVAL_MS, scheduler = realScheduler } = options;
  let watcher: fs.FSWatcher;
  try {
    if (!fs.lstatSync(folder).isDirectory()) return undefined;
    watcher = fs.watch(folder, { persistent: false });
  } catch {
    return undefined;
  }
  let due: ScheduledCall | undefined;
  let open = true;
  const close = () => {
    open = false;
    due?.cancel();
    due = undefined;
    watcher.close();
  };
  watcher.on("change", () => {
    // The first change of a quiet spell is told after the interval, with every change that came meanwhile.
    due ??= scheduler.after(
      intervalMs,
      () => {
        due = undefined;
        if (open) onChanged();
      },
      { unref: true },
    );
  });
  // The folder was removed or can no longer be read: nothing more comes from this watch.
  watcher.on("error", close);
  return {
    folder,
    get watching() {
      return open;
    },
    close,
  };
}
