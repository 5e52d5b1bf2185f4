// Where Claude Code keeps a workspace folder's sessions: `~/.claude/projects/<the folder's path made a name>/`. The rule,
// checked against Claude Code 2.1.330 (test/fixtures/claude-recorded/2.1.330/sessions/README.md): every UTF-16 unit
// that is not an ASCII letter or digit becomes `-`; a name past 200 units keeps its first 200 and adds `-` and a
// djb2 hash of the path in base 36. Two paths can give one name (`/a.b`, `/a-b`), so a reader also checks each
// session's own `cwd`.
import * as path from "node:path";

const MAX_NAME_UNITS = 200;

/** The name of the folder under `~/.claude/projects/` that holds the sessions Claude Code ran in `cwd`. */
export function claudeProjectFolderName(cwd: string): string {
  // No `u` flag: Claude replaces each UTF-16 unit, so an emoji becomes two dashes.
  const name = cwd.replace(/[^a-zA-Z0-9]/g, "-");
  if (name.length <= MAX_NAME_UNITS) return name;
  return `${name.slice(0, MAX_NAME_UNITS)}-${Math.abs(djb2(cwd)).toString(36)}`;
}

/** `home`'s `.claude/projects` folder. */
export function claudeProjectsFolder(home: string): string {
  return path.join(home, ".claude", "projects");
}

/** The 32-bit djb2 hash (times 31, as JavaScript's `(h << 5) - h`), as Claude Code computes it. */
function djb2(text: string): number {
  let hash = 0;
  for (let at = 0; at < text.length; at++) hash = ((hash << 5) - hash + text.charCodeAt(at)) | 0;
  return hash;
}
