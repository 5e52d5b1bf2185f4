// The owner of every open permission request: it asks what the user answered "always" before, then the setting, then
// the user, and answers each request exactly once. Whatever is still open when the turn is stopped or the conversation
// closed is answered `cancelled`, never allowed. A request that names a file outside the workspace is never allowed
// but by the user: many agents write files themselves once allowed, so the answer is the only gate. A request that
// cannot be answered safely (two options with one id) or one too many at once is answered `cancelled` unseen.
import type { RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import type { AcpEvent, AcpPermissionDecision, AcpPermissionOption, AcpPermissionRequest, AcpToolCall, PermissionOptionKind } from "../dialects/acp/acp-events";
import { cancelledDecision, isAllowKind, offeredOption, pathsOf, permissionRequestOf, selectedDecision } from "../dialects/acp/permission-request";
import { autoAnswerFor, optionOfKind, type AutoAnswerPolicy } from "./permission-policy";
import { sameRequestKey } from "./same-request";

/** The user's answer: one of the offered options by id, or the question dismissed (never an allow). */
export type PermissionChoice = { optionId: string } | "cancelled";

/** Shows the request to the user; `signal` aborts when the request is answered otherwise (Stop, close, agent gone). */
export type DecidePermission = (request: AcpPermissionRequest, signal: AbortSignal) => Promise<PermissionChoice>;

/** Of the files a request names, those outside the workspace folders. */
export type OutsideWorkspace = (paths: readonly string[]) => Promise<string[]>;

interface OpenRequest {
  settle(decision: AcpPermissionDecision): void;
}

/** A request as the desk judges it: what the user is shown, and its identity for a standing answer. */
interface Judged {
  request: AcpPermissionRequest;
  /** See sameRequestKey: undefined when no standing answer may be given or kept for it. */
  key: string | undefined;
}

/**
 * How many requests may be in hand at once (being judged, or waiting for the user): agents ask one or a few at a time,
 * so more is a flood, and each one past this is answered `cancelled` at once instead of held.
 */
export const MAX_REQUESTS_IN_HAND = 64;

const cancelledResponse = (): RequestPermissionResponse => ({ outcome: { outcome: "cancelled" } });

/** An "always" answer the user gave, and the "once" option that says the same where the agent offers no "always". */
const STANDING_ANSWERS = {
  allow_always: "allow_once",
  reject_always: "reject_once",
} as const satisfies Partial<Record<PermissionOptionKind, PermissionOptionKind>>;
type StandingAnswer = keyof typeof STANDING_ANSWERS;

export class PermissionDesk {
  private nextRequestId = 1;
  private inHand = 0;
  private readonly open = new Map<number, OpenRequest>();
  /**
   * The user's "always" answers for this conversation, by what was asked: the tool kind, the title the user read and
   * what the call will do (its command, files and diffs). Agents that do not remember their own "always" option ask
   * again; the user is not asked again for exactly the same thing, and nothing broader is ever answered for them.
   */
  private readonly standing = new Map<string, StandingAnswer>();

  constructor(
    private readonly emit: (event: AcpEvent) => void,
    private readonly decide: DecidePermission,
    private readonly policy: AutoAnswerPolicy,
    private readonly log: (message: string) => void,
    /** How many requests wait for the user, after each change: their wait is the user's, not the agent's. */
    private readonly onWaiting: (openCount: number) => void = () => {},
    private readonly outsideWorkspace: OutsideWorkspace = async () => [],
  ) {}

  get openCount(): number {
    return this.open.size;
  }

  /**
   * One `session/request_permission`. `tool` is the call as merged so far (the request may be its first mention).
   * `accepting` false (a Stop is under way) answers `cancelled` at once; it is asked once the request's files are
   * judged, so a Stop pressed meanwhile is not missed.
   */
  async ask(params: RequestPermissionRequest, tool: AcpToolCall | undefined, accepting: () => boolean, agentSignal: AbortSignal): Promise<RequestPermissionResponse> {
    const refusal = this.refusalOf(params);
    if (refusal !== undefined) {
      this.log(`permission request about tool call ${excerpt(params.toolCall.toolCallId)} ${refusal}; answered cancelled, nobody asked`);
      return cancelledResponse();
    }
    this.inHand++;
    try {
      return await this.answer(params, tool, accepting, agentSignal);
    } finally {
      this.inHand--;
    }
  }

  /** Stop, New Session, close: every open request is answered `cancelled`. */
  cancelAll(): void {
    for (const request of [...this.open.values()]) request.settle(cancelledDecision());
  }

  /** Why a request gets no card and no question, only `cancelled`; undefined for one that may be asked. */
  private refusalOf(params: RequestPermissionRequest): string | undefined {
    if (this.inHand >= MAX_REQUESTS_IN_HAND) return `came while ${MAX_REQUESTS_IN_HAND} others were open`;
    const repeated = repeatedOptionId(params.options);
    // Whichever of the two the user picked, the agent could take the id for the other.
    if (repeated !== undefined) return `offers two options with the id ${excerpt(repeated)}`;
    return undefined;
  }

  private async answer(params: RequestPermissionRequest, tool: AcpToolCall | undefined, accepting: () => boolean, agentSignal: AbortSignal): Promise<RequestPermissionResponse> {
    const request = permissionRequestOf(this.nextRequestId++, params, tool);
    request.outsideWorkspace = await this.outsideWorkspace(pathsOf(tool));
    this.emit({ type: "permission_requested", request });
    const judged = { request, key: sameRequestKey(request, tool) };
    const decision = accepting() ? await this.decideOnce(judged, agentSignal) : cancelledDecision();
    this.emit({ type: "permission_answered", requestId: request.requestId, toolCallId: request.toolCallId, decision });
    return decision.outcome === "selected" ? { outcome: { outcome: "selected", optionId: decision.optionId } } : cancelledResponse();
  }

  private decideOnce(judged: Judged, agentSignal: AbortSignal): Promise<AcpPermissionDecision> {
    const { request } = judged;
    const remembered = this.withoutTheUser(request, this.rememberedAnswer(judged), "an earlier \u201calways\u201d");
    if (remembered !== undefined) return Promise.resolve(selectedDecision(remembered, "remembered"));
    const automatic = this.withoutTheUser(request, autoAnswerFor(this.policy, request.toolKind, request.options), "the setting");
    if (automatic !== undefined) {
      return Promise.resolve(selectedDecision(automatic, "setting"));
    }
    const abort = new AbortController();
    return new Promise<AcpPermissionDecision>((resolve) => {
      const settle = (decision: AcpPermissionDecision): void => {
        if (!this.open.delete(request.requestId)) return;
        this.onWaiting(this.open.size);
        agentSignal.removeEventListener("abort", onAgentAbort);
        abort.abort();
        resolve(decision);
      };
      const onAgentAbort = (): void => settle(cancelledDecision());
      this.open.set(request.requestId, { settle });
      this.onWaiting(this.open.size);
      agentSignal.addEventListener("abort", onAgentAbort);
      if (agentSignal.aborted) return onAgentAbort();
      this.decide(request, abort.signal).then(
        (choice) => settle(this.decisionOf(choice, judged)),
        (error: unknown) => {
          this.log(`permission request ${request.requestId} could not be shown (${String(error)}); answered cancelled`);
          settle(cancelledDecision());
        },
      );
    });
  }

  /** An id the agent did not offer is no answer at all: cancelled, never a guess. */
  private decisionOf(choice: PermissionChoice, { request, key }: Judged): AcpPermissionDecision {
    if (choice === "cancelled") return cancelledDecision();
    const option = offeredOption(request, choice.optionId);
    if (option === undefined) {
      this.log(`permission answer ${JSON.stringify(choice.optionId)} is not one of the agent's options; answered cancelled`);
      return cancelledDecision();
    }
    if (key !== undefined && option.kind in STANDING_ANSWERS) this.standing.set(key, option.kind as StandingAnswer);
    return selectedDecision(option, "user");
  }

  /** An answer given without asking the user: a reject always stands; an allow only for files inside the workspace. */
  private withoutTheUser(request: AcpPermissionRequest, option: AcpPermissionOption | undefined, source: string): AcpPermissionOption | undefined {
    if (option === undefined || request.outsideWorkspace.length === 0 || !isAllowKind(option.kind)) return option;
    this.log(`permission request ${request.requestId} names ${request.outsideWorkspace.join(", ")} outside the workspace; asking the user instead of allowing by ${source}`);
    return undefined;
  }

  /** The agent's option that repeats the user's "always" answer to this same request: "always" again, else "once". */
  private rememberedAnswer({ request, key }: Judged): AcpPermissionOption | undefined {
    const answer = key === undefined ? undefined : this.standing.get(key);
    if (answer === undefined) return undefined;
    return optionOfKind(request.options, answer) ?? optionOfKind(request.options, STANDING_ANSWERS[answer]);
  }
}

/** The first option id offered twice, of whatever kinds (even ones not shown). */
function repeatedOptionId(options: readonly { optionId: string }[]): string | undefined {
  const seen = new Set<string>();
  for (const { optionId } of options) {
    if (seen.has(optionId)) return optionId;
    seen.add(optionId);
  }
  return undefined;
}

/** The agent's text quoted for a log line, cut short: it may be any size. */
function excerpt(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}\u2026` : text);
}
