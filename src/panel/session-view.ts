// One view (a webview) and the session it shows now. It joins a session when its page says `ready` (a snapshot, then
// changes), and moves to another by leaving the first. Intents are checked twice: the envelope here (an intent about a
// session the view no longer shows, sent before the move reached the page, is dropped, never applied to the session
// shown now), the intent itself by the conversation.
import { IntentEnvelopeSchema, type HostMessage } from "../protocol/messages";
import type { ChatSession } from "./chat-session";
import type { ConversationView } from "./conversation";

export class SessionView {
  private readonly view: ConversationView;
  private session: ChatSession | undefined;
  private ready = false;

  constructor(
    post: (message: HostMessage) => void,
    /** The session to show once the page is ready. */
    private target: ChatSession,
    private readonly logRejected: (reason: string) => void,
  ) {
    this.view = { post };
  }

  /** The session the view shows now (undefined before its page said `ready`). */
  get shown(): ChatSession | undefined {
    return this.session;
  }

  /** The session the view shows, or will show as soon as its page is ready (a view just opened is loading it). */
  get showing(): ChatSession {
    return this.target;
  }

  /** Shows another session: at once when the page is ready, else when it says so. */
  show(session: ChatSession): void {
    this.target = session;
    if (this.ready) this.join(session);
  }

  /** Everything the page sends comes through here. */
  receive(raw: unknown): void {
    const envelope = IntentEnvelopeSchema.safeParse(raw);
    if (!envelope.success) {
      this.logRejected("dropped a message from the chat view that is not an intent in its envelope");
      return;
    }
    const { sessionId, intent } = envelope.data;
    if (typeof intent === "object" && intent !== null && (intent as { type?: unknown }).type === "ready") {
      this.ready = true;
      this.join(this.target);
      return;
    }
    const session = this.session;
    if (session === undefined || sessionId !== session.id) {
      // A prompt typed in the instant between New Session and the page's move to the new session is the new
      // session's first prompt: the user's words are not lost. Any other intent about another session is dropped.
      if (session !== undefined && session.isEmpty && isSend(intent)) {
        session.conversation.handleIntent(this.view, intent);
        return;
      }
      this.logRejected(`dropped an intent about session ${sessionId ?? "(none)"}, which this view does not show`);
      return;
    }
    session.conversation.handleIntent(this.view, intent);
  }

  dispose(): void {
    this.session?.conversation.detach(this.view);
    this.session = undefined;
  }

  private join(session: ChatSession): void {
    if (this.session !== session) this.session?.conversation.detach(this.view);
    this.session = session;
    session.conversation.attach(this.view);
  }
}

function isSend(intent: unknown): boolean {
  return typeof intent === "object" && intent !== null && (intent as { type?: unknown }).type === "send";
}
