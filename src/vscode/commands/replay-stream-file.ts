// "Replay Stream File…": a recorded stream shown in the chat; nothing runs, so it works in Restricted Mode.
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { createAdapter } from "../../dialects/registry";
import { escapeForLog } from "../../protocol/visible-text";
import { ReplayRun } from "../../session/replay";
import { readSettings } from "../settings";
import type { AgentStreamCommand, CommandContext } from "./command";

export const replayStreamFile: AgentStreamCommand = {
  id: "agentStream.replayStreamFile",
  run: (context, uri) => replay(context, uri instanceof vscode.Uri ? uri : undefined),
};

async function replay({ chat, log, revealChat }: CommandContext, given: vscode.Uri | undefined): Promise<void> {
  const uri =
    given ??
    (
      await vscode.window.showOpenDialog({
        title: "Agent Stream: Replay Stream File",
        openLabel: "Replay",
        canSelectMany: false,
        filters: { "Agent streams": ["ndjson", "jsonl", "json", "log", "txt"], "All files": ["*"] },
      })
    )?.[0];
  if (uri === undefined) return;
  const settings = readSettings(log);
  const name = path.basename(uri.path);
  const started = chat.replay(`Replay of ${name}`, (listener) => {
    log.info(escapeForLog(`replay: ${uri.toString(true)} (dialect ${settings.dialect})`));
    // A recording may hold several turns (`ask --json`, a log of ACP traffic): all of them, in order, as `transcript` reads it.
    return new ReplayRun(readChunks(uri), { adapter: createAdapter(settings.dialect), maxLineBytes: settings.maxLineBytes, severalTurns: true, ...listener });
  });
  if (!started) {
    void vscode.window.showInformationMessage("Agent Stream is still answering. Stop it, then replay the file.");
    return;
  }
  await revealChat();
}

/** Local files are streamed (a recording can be hundreds of MB); other schemes are read through the editor. */
async function* readChunks(uri: vscode.Uri): AsyncIterable<Uint8Array> {
  if (uri.scheme === "file") {
    yield* fs.createReadStream(uri.fsPath, { highWaterMark: 256 * 1024 });
    return;
  }
  yield await vscode.workspace.fs.readFile(uri);
}
