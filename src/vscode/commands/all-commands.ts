// Every command in package.json's `contributes.commands`, one file each.
import { askAboutWorkspace } from "./ask-about-workspace";
import type { AgentStreamCommand } from "./command";
import { newSession } from "./new-session";
import { openChat } from "./open-chat";
import { openChatInEditor } from "./open-chat-in-editor";
import { replayStreamFile } from "./replay-stream-file";
import { showLog } from "./show-log";
import { stop } from "./stop";

export const ALL_COMMANDS: readonly AgentStreamCommand[] = [askAboutWorkspace, openChat, openChatInEditor, stop, newSession, showLog, replayStreamFile];
