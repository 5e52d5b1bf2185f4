// Which file a command runs, decided the way Go's exec.LookPath does: a bare name is looked up only in the absolute
// folders of PATH, so an empty, `.` or `bin` entry can never make a workspace's own `./locus` run; a path with a
// separator must already be absolute, because relative to what (the workspace) is exactly the problem.
import * as fs from "node:fs";
import * as path from "node:path";

export type CommandPath = { ok: true; file: string } | { ok: false; errno: string; message: string };

/** libuv's own fallback when the environment has no PATH at all. */
const DEFAULT_POSIX_PATH = "/usr/bin:/bin";
const DEFAULT_PATHEXT = ".COM;.EXE;.BAT;.CMD";

/**
 * The absolute file `command` names. `env` is the child's environment: its PATH (and on Windows PATHEXT) is what the
 * operating system would have searched.
 */
export function resolveCommandPath(command: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): CommandPath {
  const pathApi = platform === "win32" ? path.win32 : path.posix;
  if (hasSeparator(command, platform)) {
    if (pathApi.isAbsolute(command)) return { ok: true, file: command };
    return {
      ok: false,
      errno: "ENOENT",
      message:
        `Could not start '${command}': agentStream.cli.path must be absolute or a bare command name on PATH: ` +
        `'${command}' is relative, so it would be looked up in the working folder (the workspace). Give its full path.`,
    };
  }
  const found = searchPath(command, env, platform);
  if (found !== undefined) return { ok: true, file: found };
  return {
    ok: false,
    errno: "ENOENT",
    message:
      `Could not start '${command}': it was not found on PATH (only its absolute folders are searched; relative entries such as '.' ` +
      `are skipped, so a program of the workspace never runs). Install it, or give its full path (in VS Code: the agentStream.cli.path setting).`,
  };
}

function hasSeparator(command: string, platform: NodeJS.Platform): boolean {
  return command.includes("/") || (platform === "win32" && (command.includes("\\") || command.includes(":")));
}

function searchPath(name: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | undefined {
  const pathApi = platform === "win32" ? path.win32 : path.posix;
  const searchPath = environmentValue(env, "PATH", platform) ?? (platform === "win32" ? "" : DEFAULT_POSIX_PATH);
  const names = candidateNames(name, env, platform);
  for (const folder of searchPath.split(platform === "win32" ? ";" : ":")) {
    // Relative entries (empty, ".", "bin", "node_modules/.bin") mean "relative to the working folder": never searched.
    const unquoted = platform === "win32" ? folder.replace(/^"(.*)"$/, "$1") : folder;
    if (!pathApi.isAbsolute(unquoted)) continue;
    for (const candidate of names) {
      const file = pathApi.join(unquoted, candidate);
      if (isExecutableFile(file, platform)) return file;
    }
  }
  return undefined;
}

/** On Windows `claude` is `claude.exe`, `claude.cmd`, …, in PATHEXT's order; a name with one of them is tried as is first. */
function candidateNames(name: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  if (platform !== "win32") return [name];
  const extensions = (environmentValue(env, "PATHEXT", platform) ?? DEFAULT_PATHEXT).split(";").filter((ext) => ext !== "");
  const hasKnownExtension = extensions.some((ext) => name.toLowerCase().endsWith(ext.toLowerCase()));
  return [...(hasKnownExtension ? [name] : []), ...extensions.map((ext) => name + ext)];
}

function isExecutableFile(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    // Windows has no execute bit: the extension (PATHEXT) is what makes a file runnable.
    if (platform !== "win32") fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Windows environment names are case-insensitive (`Path`); elsewhere they are exact. */
function environmentValue(env: NodeJS.ProcessEnv, name: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== "win32") return env[name];
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}
