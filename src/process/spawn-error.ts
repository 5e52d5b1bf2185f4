// Turns a failed spawn into a message that names what is wrong and how to fix it.
// Only runs after a failure, so the file-system checks it makes cost nothing on the normal path.
import * as fs from "node:fs";
import * as path from "node:path";
import { errorCode } from "./error-code";

export interface SpawnError {
  errno: string;
  message: string;
}

const settingHint = "(in VS Code: the agentStream.cli.path setting)";

export function describeSpawnError(
  error: unknown,
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): SpawnError {
  const errno = errorCode(error) ?? "UNKNOWN";
  const start = `Could not start '${command}':`;
  // A missing working folder fails exactly like a missing command (ENOENT), so rule it out first.
  const folderProblem = describeFolderProblem(cwd);
  if (folderProblem !== undefined && (errno === "ENOENT" || errno === "ENOTDIR" || errno === "EACCES")) {
    return { errno, message: `${start} ${folderProblem}` };
  }
  return { errno, message: `${start} ${describeCommandProblem(errno, error, command, cwd, env)}` };
}

function describeFolderProblem(cwd: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(cwd);
  } catch {
    return `the working folder '${cwd}' does not exist. Open an existing folder, or create it.`;
  }
  if (!stat.isDirectory()) return `the working folder '${cwd}' is a file, not a folder. Choose a folder.`;
  try {
    fs.accessSync(cwd, fs.constants.X_OK);
  } catch {
    return `the working folder '${cwd}' cannot be entered (permission denied). Check its permissions.`;
  }
  return undefined;
}

function describeCommandProblem(
  errno: string,
  error: unknown,
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): string {
  const file = isPathLike(command) ? path.resolve(cwd, command) : findOnPath(command, env);
  switch (errno) {
    case "ENOENT":
      if (!isPathLike(command)) {
        return `it was not found on PATH. Install it, or give its full path ${settingHint}.`;
      }
      if (file !== undefined && fs.existsSync(file)) {
        return `its interpreter (the '#!' line at the top of '${file}') was not found. Install the interpreter, or fix that line.`;
      }
      return `'${file ?? command}' does not exist. Check the path ${settingHint}.`;
    case "EACCES":
      if (file !== undefined && isDirectory(file)) {
        return `'${file}' is a folder, not a program. Give the path of the program itself ${settingHint}.`;
      }
      return `'${file ?? command}' is not executable. Make it executable (chmod +x '${file ?? command}').`;
    case "E2BIG":
      return "the command line is too long for the operating system (Linux allows 128 KiB per argument). Shorten the prompt.";
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

function isPathLike(command: string): boolean {
  return command.includes("/") || (process.platform === "win32" && command.includes("\\"));
}

/** The PATH entry the OS most likely tried; only to name the file in the message. */
function findOnPath(command: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, command);
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}
