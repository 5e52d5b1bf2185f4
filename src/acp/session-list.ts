// An ACP agent's own list of its sessions (`session/list`), as the Sessions view shows them: a capability of the agent,
// present only when its `initialize` answer offers `sessionCapabilities.list` (sessions-design pattern 3). The list is
// the agent's word, so it is read through a schema and bounded: pages, sessions, and the length of every field.
import { createHash } from "node:crypto";
import type { InitializeResponse } from "@agentclientprotocol/sdk";
import * as z from "zod/mini";
import { TITLE_CHARS, titleFromPrompt } from "../common/session-title";
import type { SessionSummary } from "../protocol/sessions";

/** Pages of `session/list` read at most: an agent that always answers with a next cursor is not followed for ever. */
export const MAX_LIST_PAGES = 20;
/** Sessions listed at most, over all pages. */
export const MAX_LISTED_SESSIONS = 1_000;
/** Longer than any real session id, folder or time: a value this long is not one, and its session is left out. */
const MAX_FIELD_CHARS = 4096;

const Field = z.string().check(z.maxLength(MAX_FIELD_CHARS));
const SessionInfoSchema = z.object({
  sessionId: Field.check(z.minLength(1)),
  cwd: Field,
  title: z.optional(z.nullable(z.string())),
  updatedAt: z.optional(z.nullable(Field)),
});
const ListPageSchema = z.object({ sessions: z.array(z.unknown()), nextCursor: z.optional(z.nullable(Field)) });

/** A session the agent listed: its row in the Sessions view, and the agent's own id, to `session/load` or resume it. */
export interface AcpListedSession {
  summary: SessionSummary;
  acpSessionId: string;
}

/** The agent lists its sessions: those of `cwd`, newest first, as rows of `agent`'s. */
export interface AcpSessionList {
  list(cwd: string, agent: ListingAgent): Promise<AcpListedSession[]>;
}

/** Sends one request to the agent and resolves with its unchecked answer. */
export type AgentRequest = (method: "session/list", params: { cwd: string; cursor?: string }) => Promise<unknown>;

/** Who the sessions belong to, for their rows: the profile and the name people know the agent by. */
export interface ListingAgent {
  profile: string;
  displayName: string;
}

/** The capability, or undefined when the agent's `initialize` answer does not offer it. */
export function sessionListOf(init: InitializeResponse, request: AgentRequest, log: (message: string) => void = () => {}): AcpSessionList | undefined {
  if (init.agentCapabilities?.sessionCapabilities?.list == null) return undefined;
  return { list: (cwd, agent) => listAll(cwd, request, agent, log) };
}

async function listAll(cwd: string, request: AgentRequest, agent: ListingAgent, log: (message: string) => void): Promise<AcpListedSession[]> {
  const listed = new Map<string, AcpListedSession>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES && listed.size < MAX_LISTED_SESSIONS; page++) {
    const answer = ListPageSchema.safeParse(await request("session/list", cursor === undefined ? { cwd } : { cwd, cursor }));
    if (!answer.success) {
      log(`session/list answered with something that is not a list of sessions; ${listed.size} listed so far are kept`);
      break;
    }
    for (const value of answer.data.sessions) {
      const info = SessionInfoSchema.safeParse(value);
      // The agent is asked for this folder's sessions; one of another folder is not this workspace's, whatever it says.
      if (!info.success || info.data.cwd !== cwd || listed.size >= MAX_LISTED_SESSIONS) continue;
      listed.set(info.data.sessionId, listedSession(info.data, agent));
    }
    cursor = answer.data.nextCursor ?? undefined;
    if (cursor === undefined) break;
    if (page === MAX_LIST_PAGES - 1) log(`session/list had more than ${MAX_LIST_PAGES} pages; the first ${MAX_LIST_PAGES} are listed`);
  }
  return [...listed.values()].sort((a, b) => b.summary.updatedAt - a.summary.updatedAt);
}

function listedSession(info: z.infer<typeof SessionInfoSchema>, agent: ListingAgent): AcpListedSession {
  const updatedAt = info.updatedAt == null ? NaN : Date.parse(info.updatedAt);
  const time = Number.isFinite(updatedAt) ? updatedAt : 0;
  const title = titleFromPrompt(info.title ?? "", TITLE_CHARS);
  return {
    acpSessionId: info.sessionId,
    summary: {
      id: sessionIdFor(agent.profile, info.sessionId),
      title: title === "" ? `${agent.displayName} session` : title,
      agent: { profile: agent.profile, displayName: agent.displayName },
      status: "completed",
      createdAt: time,
      updatedAt: time,
      // The list does not say; opening the session (session/load) shows them.
      turnCount: 0,
      changes: null,
      source: "acp",
    },
  };
}

/**
 * Our id for an agent's session: a UUID made from the profile and the agent's id (whose form is the agent's: `ses_…`,
 * a UUID, a number), so the same session is the same row each time it is listed, and two agents' ids never meet.
 */
export function sessionIdFor(profile: string, acpSessionId: string): string {
  const hex = createHash("sha256").update(`acp\0${profile}\0${acpSessionId}`).digest("hex");
  // RFC 9562 version 8 (custom) and its variant bits.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

