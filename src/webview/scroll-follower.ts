// Keeps the newest output in view while it streams, unless the user scrolled up to read; remembers where the
// user was (the only thing the view keeps across reloads).
import type { HostChannel } from "./vscode-api";

/** Within this many pixels of the end counts as "at the bottom" (sub-pixel layouts and zoom). */
const BOTTOM_SLACK_PX = 24;

export class ScrollFollower {
  private following = true;
  private saveScheduled = false;

  constructor(
    private readonly container: HTMLElement,
    private readonly host: HostChannel,
  ) {
    container.addEventListener("scroll", () => this.onScroll(), { passive: true });
  }

  /** After new content is painted. */
  follow(): void {
    if (this.following) this.container.scrollTop = this.container.scrollHeight;
  }

  /** The user sent a prompt: show its answer as it comes, wherever they had scrolled to. */
  followFromNowOn(): void {
    this.following = true;
  }

  /** After the first snapshot of a reloaded view: back to where the user was. */
  restore(): void {
    const saved = this.host.loadViewState();
    this.following = saved?.following ?? true;
    if (saved !== undefined && !saved.following) this.container.scrollTop = saved.scrollTop;
    else this.follow();
  }

  private onScroll(): void {
    const { scrollTop, scrollHeight, clientHeight } = this.container;
    this.following = scrollHeight - scrollTop - clientHeight <= BOTTOM_SLACK_PX;
    if (this.saveScheduled) return;
    this.saveScheduled = true;
    requestAnimationFrame(() => {
      this.saveScheduled = false;
      this.host.saveViewState({ scrollTop: this.container.scrollTop, following: this.following });
    });
  }
}
