// The owner of every open permission request of one conversation: it asks what the user answered "always" before,
// then the setting, then the user, and answers each request exactly once. A request that waits for the user is found
// by its id, never by what it shows: two requests that look alike each get their own answer. Whatever is still open
// when the turn is stopped or the conversation closed is answered `cancelled`, never allowed. A request that names a
// file outside the workspace is never allowed but by the user: many agents write files themselves once allowed, so the
// answer is the only gate. A request that cannot be answered safely (two options with one id) or one too many at once
// is answered `cancelled` unseen. Nothing here knows which agent asks: each agent's adapter hands in a question. One
// desk per conversation, made by whoever starts its agent: an "always" answer holds for that conversation only.
import { autoAnswerFor, optionOfKind, type AutoAnswerPolicy } from "./permission-policy";
import {
  cancelledDecision,
  isAllowKind,
  offeredOption,
  selectedDecision,
  type PermissionDecision,
  type PermissionEvent,
  type PermissionOption,
  type PermissionOptionKind,
  type PermissionQuestion,
  type PermissionRequest,
} from "./permission-request";

/** The user's answer: one of the offered options by id, or the question dismissed (never an allow). */
export type PermissionChoice = { optionId: string } | "cancelled";

/**
 * Shows a waiting request where the transcript is not seen (the terminal of `agent-stream ask`); its choice answers
 * the request. `signal` aborts when the request is answered otherwise (Stop, close, agent gone).
 */
export type DecidePermission = (request: PermissionRequest, signal: AbortSignal) => Promise<PermissionChoice>;

/** Of the files a request names, those outside the workspace folders. */
export type OutsideWorkspace = (paths: readonly string[]) => Promise<string[]>;

/** What `answer` did: answered the request, or nothing (no such request waits; an option it does not offer). */
export type AnswerOutcome = "answered" | "not-waiting" | "not-offered";

export interface PermissionDeskOptions {
  /** Read at each request: a changed setting holds from the next request on. */
  policy: AutoAnswerPolicy;
  /** The workspace's bounds: a request naming a file past them is never allowed but by the user. */
  outsideWorkspace: OutsideWorkspace;
  log(message: string): void;
  /** How many requests wait for the user, after each change (the status bar, notifications). */
  onWaiting?(count: number): void;
  /** Without it, a request waits for `answer(requestId, …)` (the chat's card or notification). */
  decide?: DecidePermission;
}

/** Who asks: the run of the agent whose request it is. */
export interface Asker {
  /** Shows the request and its one answer (in the transcript of the turn that asked). */
  show(event: PermissionEvent): void;
  /** False once a Stop is under way: a request then is answered `cancelled` at once. */
  accepting(): boolean;
  /** Aborts when the agent no longer waits for the answer. */
  agentSignal: AbortSignal;
}

/** A request that waits for the user, and its identity for a standing answer (see PermissionQuestion.sameRequest). */
interface Waiting {
  request: PermissionRequest;
  sameRequest: string | undefined;
  settle(decision: PermissionDecision): void;
}

/**
 * How many requests may be in hand at once (being judged, or waiting for the user): agents ask one or a few at a time,
 * so more is a flood, and each one past this is answered `cancelled` at once instead of held.
 */
export const MAX_REQUESTS_IN_HAND = 64;

/** An "always" answer the user gave, and the "once" option that says the same where the agent offers no "always". */
const STANDING_ANSWERS = {
  allow_always: "allow_once",
  reject_always: "reject_once",
} as const satisfies Partial<Record<PermissionOptionKind, PermissionOptionKind>>;
type StandingAnswer = keyof typeof STANDING_ANSWERS;

export class PermissionDesk {
  private nextRequestId = 1;
  private inHand = 0;
  private readonly waiting = new Map<string, Waiting>();
  /**
   * The user's "always" answers for this conversation, by what was asked (see PermissionQuestion.sameRequest). Agents
   * that do not remember their own "always" option ask again; the user is not asked again for exactly the same thing,
   * and nothing broader is ever answered for them.
   */
  private readonly standing = new Map<string, StandingAnswer>();
  /** The rules the agent was handed with an "always" answer in this conversation, for its next runs (see keepAgentRules). */
  private readonly agentRules = new Set<string>();

  constructor(private readonly options: PermissionDeskOptions) {}

  /**
   * A CLI that starts a new process for each turn forgets the rules an "always" answer gave it: they are kept here, and
   * each later run is given them, so it does not ask again. Only the exact rules the answer handed back.
   */
  keepAgentRules(rules: readonly string[]): void {
    for (const rule of rules) this.agentRules.add(rule);
  }

  /** The rules kept so far, in the order they were first given. */
  get keptAgentRules(): readonly string[] {
    return [...this.agentRules];
  }

  /** How many requests wait for the user now. */
  get openCount(): number {
    return this.waiting.size;
  }

  /**
   * One request of the agent. `accepting` is asked once the request's files are judged, so a Stop pressed meanwhile
   * is not missed.
   */
  async ask(question: PermissionQuestion, asker: Asker): Promise<PermissionDecision> {
    const refusal = this.refusalOf(question);
    if (refusal !== undefined) {
      this.options.log(`permission request about tool call ${excerpt(question.toolCallId)} ${refusal}; answered cancelled, nobody asked`);
      return cancelledDecision();
    }
    this.inHand++;
    try {
      return await this.judge(question, asker);
    } finally {
      this.inHand--;
    }
  }

  /**
   * The user's answer to the request with this id: one of its options, or null for dismissed (answered `cancelled`).
   * An option it does not offer answers nothing: the request still waits for a real answer.
   */
  answer(requestId: string, optionId: string | null): AnswerOutcome {
    const waiting = this.waiting.get(requestId);
    if (waiting === undefined) return "not-waiting";
    if (optionId === null) {
      waiting.settle(cancelledDecision());
      return "answered";
    }
    const option = offeredOption(waiting.request, optionId);
    if (option === undefined) {
      this.options.log(`permission answer ${excerpt(optionId)} is not one of the options of request ${requestId}; ignored`);
      return "not-offered";
    }
    if (waiting.sameRequest !== undefined && option.kind in STANDING_ANSWERS) this.standing.set(waiting.sameRequest, option.kind as StandingAnswer);
    waiting.settle(selectedDecision(option, "user"));
    return "answered";
  }

  /** Stop, the session deleted, close: every open request is answered `cancelled`. */
  cancelAll(): void {
    for (const waiting of [...this.waiting.values()]) waiting.settle(cancelledDecision());
  }

  /** Why a request gets no card and no question, only `cancelled`; undefined for one that may be asked. */
  private refusalOf(question: PermissionQuestion): string | undefined {
    if (this.inHand >= MAX_REQUESTS_IN_HAND) return `came while ${MAX_REQUESTS_IN_HAND} others were open`;
    const repeated = repeatedId(question.offeredIds);
    // Whichever of the two the user picked, the agent could take the id for the other.
    if (repeated !== undefined) return `offers two options with the id ${excerpt(repeated)}`;
    return undefined;
  }

  private async judge(question: PermissionQuestion, asker: Asker): Promise<PermissionDecision> {
    const { toolCallId, title, toolKind, options } = question;
    const outsideWorkspace = await this.options.outsideWorkspace(question.files);
    const request: PermissionRequest = { requestId: String(this.nextRequestId++), toolCallId, title, toolKind, options, outsideWorkspace };
    asker.show({ type: "permission_requested", request });
    const decision = asker.accepting() ? await this.decideOnce(request, question.sameRequest, asker.agentSignal) : cancelledDecision();
    asker.show({ type: "permission_answered", requestId: request.requestId, toolCallId, decision });
    return decision;
  }

  private decideOnce(request: PermissionRequest, sameRequest: string | undefined, agentSignal: AbortSignal): Promise<PermissionDecision> {
    const remembered = this.withoutTheUser(request, this.rememberedAnswer(request, sameRequest), "an earlier \u201calways\u201d");
    if (remembered !== undefined) return Promise.resolve(selectedDecision(remembered, "remembered"));
    const automatic = this.withoutTheUser(request, autoAnswerFor(this.options.policy, request.toolKind, request.options), "the setting");
    if (automatic !== undefined) return Promise.resolve(selectedDecision(automatic, "setting"));
    return this.waitForTheUser(request, sameRequest, agentSignal);
  }

  /** Waits until the request is answered by its id, or by `decide`, or cancelled (Stop, close, the agent gone). */
  private waitForTheUser(request: PermissionRequest, sameRequest: string | undefined, agentSignal: AbortSignal): Promise<PermissionDecision> {
    const { requestId } = request;
    const shown = new AbortController();
    return new Promise<PermissionDecision>((resolve) => {
      const settle = (decision: PermissionDecision): void => {
        if (!this.waiting.delete(requestId)) return;
        this.options.onWaiting?.(this.waiting.size);
        agentSignal.removeEventListener("abort", onAgentAbort);
        shown.abort();
        resolve(decision);
      };
      const onAgentAbort = (): void => settle(cancelledDecision());
      this.waiting.set(requestId, { request, sameRequest, settle });
      this.options.onWaiting?.(this.waiting.size);
      agentSignal.addEventListener("abort", onAgentAbort);
      if (agentSignal.aborted) return onAgentAbort();
      this.options.decide?.(request, shown.signal).then(
        (choice) => {
          if (choice === "cancelled" || offeredOption(request, choice.optionId) !== undefined) {
            this.answer(requestId, choice === "cancelled" ? null : choice.optionId);
            return;
          }
          // An id the agent did not offer is no answer at all, and nobody else will answer here: cancelled, never a guess.
          this.options.log(`permission answer ${excerpt(choice.optionId)} is not one of the options of request ${requestId}; answered cancelled`);
          settle(cancelledDecision());
        },
        (error: unknown) => {
          this.options.log(`permission request ${requestId} could not be shown (${String(error)}); answered cancelled`);
          settle(cancelledDecision());
        },
      );
    });
  }

  /** An answer given without asking the user: a reject always stands; an allow only for files inside the workspace. */
  private withoutTheUser(request: PermissionRequest, option: PermissionOption | undefined, source: string): PermissionOption | undefined {
    if (option === undefined || request.outsideWorkspace.length === 0 || !isAllowKind(option.kind)) return option;
    this.options.log(`permission request ${request.requestId} names ${request.outsideWorkspace.join(", ")} outside the workspace; asking the user instead of allowing by ${source}`);
    return undefined;
  }

  /** The agent's option that repeats the user's "always" answer to this same request: "always" again, else "once". */
  private rememberedAnswer(request: PermissionRequest, sameRequest: string | undefined): PermissionOption | undefined {
    const answer = sameRequest === undefined ? undefined : this.standing.get(sameRequest);
    if (answer === undefined) return undefined;
    return optionOfKind(request.options, answer) ?? optionOfKind(request.options, STANDING_ANSWERS[answer]);
  }
}

/** The first id offered twice. */
function repeatedId(ids: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

/** The agent's text quoted for a log line, cut short: it may be any size. */
function excerpt(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}\u2026` : text);
}
