// Every command in package.json's `contributes.commands`, one file each.
import { addSelectionToChat } from "./add-selection-to-chat";
import { askAboutWorkspace } from "./ask-about-workspace";
import type { AgentStreamCommand } from "./command";
import { deleteAllSessions } from "./delete-all-sessions";
import { deleteSession } from "./delete-session";
import { newSession } from "./new-session";
import { newSessionWithAgent } from "./new-session-with-agent";
import { openChat } from "./open-chat";
import { openChatInEditor } from "./open-chat-in-editor";
import { openSession } from "./open-session";
import { openSessionInEditor } from "./open-session-in-editor";
import { refreshSessions } from "./refresh-sessions";
import { renameSession } from "./rename-session";
import { replayStreamFile } from "./replay-stream-file";
import { searchSessions } from "./search-sessions";
import { showLog } from "./show-log";
import { stop } from "./stop";

export const ALL_COMMANDS: readonly AgentStreamCommand[] = [
  askAboutWorkspace,
  addSelectionToChat,
  openChat,
  openChatInEditor,
  stop,
  newSession,
  newSessionWithAgent,
  openSession,
  openSessionInEditor,
  renameSession,
  deleteSession,
  deleteAllSessions,
  searchSessions,
  refreshSessions,
  showLog,
  replayStreamFile,
];
