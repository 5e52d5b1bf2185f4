// A path as a card names it: relative to the run's folder when inside it (short, and it reads as the user's project),
// else as the agent wrote it, so a path outside the workspace is never made to look like one inside it.
import * as path from "node:path";

export function shownPath(target: string, cwd: string | undefined): string {
  if (cwd === undefined || !path.isAbsolute(target)) return target;
  const relative = path.relative(cwd, target);
  if (relative === "" || relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return target;
  return relative;
}
