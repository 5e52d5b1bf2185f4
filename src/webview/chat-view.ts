// The whole chat: the restriction notice, the turns, the composer, and the live region. Host messages update
// the turns' models at once; painting waits for the next animation frame, so a burst of changes costs one paint.
// A snapshot (a reopened session) is painted from its last turn back to its first, in slices of the main thread.
import type { HostMessage, SessionHeader, WebviewIntent } from "../protocol/messages";
import type { ContextUse, UsageCost } from "../protocol/usage";
import { AgentControlsView } from "./agent-controls";
import { codeForCopyButton, COPY_CODE_ATTRIBUTE } from "./code-blocks";
import { Composer } from "./composer";
import { button, element, icon } from "./element";
import { pathLinks, writtenPathOf } from "./path-links";
import { ScrollFollower } from "./scroll-follower";
import { slicedWork } from "./sliced-work";
import { TurnView } from "./turn-view";
import { UsageMeter } from "./usage-meter";
import { totalUsage, withUsageNow } from "../common/usage-totals";
import type { HostChannel, ViewState } from "./vscode-api";

const WEB_LINK = /^https?:\/\//i;

export class ChatView {
  private readonly header: HTMLElement;
  private readonly headerAgent: HTMLElement;
  private readonly headerTitle: HTMLElement;
  private readonly switchAgent: HTMLButtonElement;
  private readonly agentControls: AgentControlsView;
  private readonly usageMeter = new UsageMeter();
  /** The session shown: a snapshot of another one is a move, not a refresh. */
  private sessionId: string | null = null;
  private readonly banner: HTMLElement;
  private readonly bannerText: HTMLElement;
  private readonly transcript: HTMLElement;
  private readonly emptyHint: HTMLElement;
  private readonly liveRegion: HTMLElement;
  private readonly composer: Composer;
  private readonly scroll: ScrollFollower;
  private turns: TurnView[] = [];
  /**
   * What the agent said since the last turn's end (mid-turn): how full the context is, and what the running turn has
   * cost so far; the header's, until the turn's own figures say them.
   */
  private contextNow: ContextUse | null = null;
  private costNow: UsageCost | null = null;
  private readonly dirtyTurns = new Set<TurnView>();
  /** A snapshot's turns not painted yet, the first first: painted from the end, one job each. */
  private unpainted: TurnView[] = [];
  private frame: number | null = null;
  private restored = false;
  /** Where the user had scrolled to before a reload: gone back to again once the snapshot is painted whole. */
  private restoreWhenPainted: ViewState | undefined;
  private readonly post = (intent: WebviewIntent): void => {
    // Answering a card lets the agent go on: like a prompt, the user wants to see what comes of it.
    if (intent.type === "answerPermission") this.scroll.followFromNowOn();
    this.host.post(intent);
  };

  constructor(
    root: HTMLElement,
    private readonly host: HostChannel,
  ) {
    this.headerAgent = element("span", { className: "session-agent" });
    this.headerTitle = element("span", { className: "session-title" });
    this.switchAgent = button({
      label: "New session with another agent",
      caption: "New session with another agent",
      className: "session-switch-agent",
      onClick: () => this.post({ type: "newSessionWithAgent" }),
    });
    this.switchAgent.hidden = true;
    this.agentControls = new AgentControlsView(this.post);
    this.header = element("header", { className: "session-header", attributes: { "aria-label": "Session" } }, icon("hubot"), this.headerAgent, this.headerTitle, this.usageMeter.element, this.switchAgent);
    this.header.append(this.agentControls.element);
    this.bannerText = element("span", { className: "restriction-text" });
    this.banner = element("div", { className: "restriction-banner", attributes: { role: "status" } }, icon("workspace-untrusted"), this.bannerText);
    this.banner.hidden = true;
    this.emptyHint = element("p", { className: "empty-hint", text: "Ask the agent about this workspace. Its answer, thinking and tool calls appear here as they stream." });
    this.transcript = element("div", { className: "transcript", attributes: { "aria-label": "Conversation", role: "region", tabindex: "0" } }, this.emptyHint);
    this.transcript.addEventListener("click", (event) => this.onTranscriptClick(event));
    this.transcript.addEventListener("auxclick", (event) => this.onTranscriptClick(event));
    this.transcript.addEventListener("keydown", (event) => this.onTranscriptKey(event));
    pathLinks.connect({ check: (paths) => this.post({ type: "checkPaths", paths }) });
    this.liveRegion = element("div", { className: "sr-only", attributes: { "aria-live": "polite", role: "status" } });
    this.composer = new Composer(
      this.post,
      () => this.turns.at(-1)?.markStopRequested(),
      () => this.turns.map((turn) => turn.prompt),
      host,
    );
    // Escape stops the running turn, as in a terminal, unless a card (or anything else in a turn) or a menu has the
    // focus: Escape there belongs to it (a waiting permission card answers it with Reject).
    document.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || event.isComposing || event.defaultPrevented || ownsEscape(document.activeElement)) return;
      if (this.composer.stopFromKeyboard()) event.preventDefault();
    });
    this.scroll = new ScrollFollower(this.transcript, host);
    slicedWork.watch((busy) => this.showBusy(busy));
    root.append(this.header, this.banner, this.transcript, this.composer.element, this.liveRegion);
  }

  receive(message: HostMessage): void {
    switch (message.type) {
      case "snapshot": {
        const moved = this.sessionId !== null && this.sessionId !== message.sessionId;
        this.sessionId = message.sessionId;
        // The host says it again after the snapshot if it still holds.
        this.contextNow = null;
        this.costNow = null;
        this.composer.showSession(message.sessionId);
        // Another session's queue, if it has one, follows the snapshot.
        if (moved) this.composer.showQueue({ items: [], held: false });
        if (moved) this.agentControls.clear();
        this.showHeader(message.header);
        this.replaceTurns(message.turns.map((turn) => new TurnView(turn, this.post)));
        this.showRestriction(message.restriction);
        // Another session opens at its end, as a new one would; a reloaded page goes back to where the user was.
        if (moved) this.scroll.followFromNowOn();
        this.paintFromTheEnd(!this.restored);
        this.restored = true;
        return;
      }
      case "header":
        this.showHeader(message.header);
        return;
      case "pathsChecked":
        pathLinks.answered(message.checked, message.found);
        return;
      case "queue":
        this.composer.showQueue(message);
        return;
      case "commands":
        this.composer.setCommands(message.commands);
        return;
      case "controls":
        this.agentControls.show(message.controls);
        return;
      case "attach":
        this.composer.attach(message.attachment);
        return;
      case "promptRefused":
        this.composer.refused(message.reason);
        return;
      case "filesFound":
        this.composer.filesFound(message.requestId, message.files);
        return;
      case "filesDropped":
        this.composer.filesDropped(message.attachments, message.refused);
        return;
      case "turn-started": {
        const view = new TurnView(message.turn, this.post);
        // The host may start a turn again (a retry); the new one replaces the old in place.
        const same = this.turns.findIndex((turn) => turn.id === view.id);
        if (same === -1) {
          this.turns.push(view);
          this.transcript.append(view.element);
        } else {
          this.turns[same].element.replaceWith(view.element);
          this.dirtyTurns.delete(this.turns[same]);
          this.turns[same] = view;
        }
        // A new prompt means the user wants to see its answer.
        this.scroll.followFromNowOn();
        this.markDirty(view);
        return;
      }
      case "context":
        this.contextNow = message.context;
        this.costNow = message.cost;
        this.showUsage();
        return;
      case "changes": {
        const view = this.turns.find((turn) => turn.id === message.turnId);
        if (view === undefined) return;
        for (const change of message.changes) view.apply(change);
        this.markDirty(view);
        return;
      }
    }
  }

  private replaceTurns(turns: TurnView[]): void {
    this.turns = turns;
    this.unpainted = [...turns];
    this.announce("");
    this.dirtyTurns.clear();
    this.transcript.replaceChildren(this.emptyHint, ...turns.map((turn) => turn.element));
  }

  /** Who answers in this session, and, when new sessions would get another agent, a way to start one with it. */
  private showHeader(header: SessionHeader): void {
    this.headerAgent.textContent = header.agent;
    this.headerTitle.textContent = header.title;
    this.headerTitle.title = header.title;
    this.switchAgent.hidden = header.otherAgent === null;
    const words = header.otherAgent === null ? "New session with another agent" : `New session with ${header.otherAgent}`;
    this.switchAgent.replaceChildren(words);
    this.switchAgent.setAttribute("aria-label", words);
    this.switchAgent.title = `${words}: this session stays in the Sessions list, with ${header.agent}.`;
  }

  /**
   * The chat opens at its end, so the last turn is painted first and the ones above it after, a turn a job
   * (its markdown in jobs of its own, run before the next turn's): no task holds the page for long, and a change that
   * arrives meanwhile paints its turn at the next frame as always. The view is kept at the end while it grows
   * upwards, or taken back to where the user had scrolled once the turns above that place are in.
   */
  private paintFromTheEnd(restoreScroll: boolean): void {
    this.showTurnsState();
    if (restoreScroll) this.restoreWhenPainted = this.scroll.restore();
    const paintNext = (): void => {
      const turn = this.unpainted.pop();
      if (turn === undefined) return;
      this.paintTurn(turn);
      slicedWork.add(paintNext);
    };
    slicedWork.add(paintNext);
    // Scrolling lays the page out: at the next frame, not in this task.
    this.frame ??= requestAnimationFrame(() => this.paint());
  }

  /**
   * While sliced work goes on the page is not final: assistive technology is told, and the end is kept in view
   * (a place restored meanwhile may not exist yet, so it is restored again at the end).
   */
  private showBusy(busy: boolean): void {
    const wasBusy = this.transcript.hasAttribute("aria-busy");
    if (busy) this.transcript.setAttribute("aria-busy", "true");
    else this.transcript.removeAttribute("aria-busy");
    if (busy && !wasBusy) this.keepInViewWhileBusy();
    if (busy || this.restoreWhenPainted === undefined) return;
    this.scroll.restore(this.restoreWhenPainted);
    this.restoreWhenPainted = undefined;
    // Taken there at the next frame, not at the next change: a snapshot painted in several slices has no change left to
    // paint, and the place asked for while the page was still short (clamped to its end) would never be gone back to.
    requestAnimationFrame(() => this.scroll.follow());
  }

  private keepInViewWhileBusy(): void {
    requestAnimationFrame(() => {
      this.scroll.follow();
      if (this.transcript.hasAttribute("aria-busy")) this.keepInViewWhileBusy();
    });
  }

  private showRestriction(restriction: string | null): void {
    this.banner.hidden = restriction === null;
    this.bannerText.textContent = restriction ?? "";
    this.composer.setRestricted(restriction !== null);
  }

  private markDirty(turn: TurnView): void {
    this.dirtyTurns.add(turn);
    this.frame ??= requestAnimationFrame(() => this.paint());
  }

  private paint(): void {
    this.frame = null;
    for (const turn of this.dirtyTurns) this.paintTurn(turn);
    this.dirtyTurns.clear();
    this.showTurnsState();
    this.scroll.follow();
  }

  private showTurnsState(): void {
    this.emptyHint.hidden = this.turns.length > 0;
    this.composer.setRunning(this.turns.at(-1)?.running ?? false);
    this.showUsage();
  }

  private showUsage(): void {
    this.usageMeter.show(withUsageNow(totalUsage(this.turns.map((turn) => turn.usage)), this.contextNow, this.costNow));
  }

  /** Painting a turn twice costs nothing: it paints only what changed since. */
  private paintTurn(turn: TurnView): void {
    turn.paint();
    const words = turn.takeAnnouncement();
    if (words !== null) this.announce(words);
  }

  private announce(words: string): void {
    this.liveRegion.textContent = words;
  }

  /** Links and code-copy buttons are re-created as text streams, so their clicks are handled here, once. */
  private onTranscriptClick(event: MouseEvent): void {
    if (!(event.target instanceof Element)) return;
    const anchor = event.target.closest("a");
    if (anchor !== null) {
      // Nothing navigates the webview; the host opens web links after its own check.
      event.preventDefault();
      const href = anchor.getAttribute("href");
      if (href !== null && WEB_LINK.test(href) && event.type === "click") this.post({ type: "openLink", url: href });
      return;
    }
    const copyButton = event.target.closest(`[${COPY_CODE_ATTRIBUTE}]`);
    if (copyButton !== null && event.type === "click") {
      const code = codeForCopyButton(copyButton);
      if (code !== null) this.post({ type: "copy", text: code });
      return;
    }
    const pathLink = event.target.closest(".path-link");
    if (pathLink !== null && event.type === "click") this.openPath(pathLink);
  }

  /** A path link has the keyboard: Enter opens it, as a link's would. */
  private onTranscriptKey(event: KeyboardEvent): void {
    if (event.key !== "Enter" || !(event.target instanceof Element) || !event.target.classList.contains("path-link")) return;
    event.preventDefault();
    this.openPath(event.target);
  }

  private openPath(link: Element): void {
    const written = writtenPathOf(link);
    if (written !== null) this.post({ type: "openPath", path: written.path, line: written.line });
  }
}

/** Whether Escape belongs to the focused element: anything in a turn (a card, its buttons, links and folds), or a menu. */
function ownsEscape(focused: Element | null): boolean {
  if (focused === null) return false;
  return focused.closest(".transcript .turn, [role=menu], [role=listbox], [role=dialog]") !== null;
}
