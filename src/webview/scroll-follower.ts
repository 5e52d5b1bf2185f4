// Keeps the newest output in view while it streams, unless the user scrolled up to read; remembers where the
// user was (the only thing the view keeps across reloads).
import type { HostChannel, ViewState } from "./vscode-api";

/** Within this many pixels of the end counts as "at the bottom" (sub-pixel layouts and zoom). */
const BOTTOM_SLACK_PX = 24;

export class ScrollFollower {
  private following = true;
  /** Where the view last was while following: a scroll event finding it there or lower is not the user going up. */
  private followedTop = 0;
  private saveScheduled = false;
  /** Where `restore` takes the view at the next `follow` (set at once, it would lay the page out in this task). */
  private restoredTop: number | null = null;

  constructor(
    private readonly container: HTMLElement,
    private readonly host: HostChannel,
  ) {
    container.addEventListener("scroll", () => this.onScroll(), { passive: true });
  }

  /** After new content is painted. */
  follow(): void {
    if (this.restoredTop !== null) {
      // The user had scrolled up to read there (a place is restored only then): not following, whatever a scroll event
      // said meanwhile of a page still too short for the place (clamped to its end, it looked like the end).
      this.container.scrollTop = this.restoredTop;
      this.restoredTop = null;
      this.following = false;
      return;
    }
    if (!this.following) return;
    this.container.scrollTop = this.container.scrollHeight;
    this.followedTop = this.container.scrollTop;
  }

  /** The user sent a prompt: show its answer as it comes, wherever they had scrolled to. */
  followFromNowOn(): void {
    this.following = true;
  }

  /**
   * After the first snapshot of a reloaded view: back to where the user was, at the next `follow`. Returns that
   * place, to go back to once the turns above it are painted too (a snapshot paints from its end).
   */
  restore(saved: ViewState | undefined = this.host.loadViewState()): ViewState | undefined {
    this.following = saved?.following ?? true;
    this.restoredTop = saved !== undefined && !saved.following ? saved.scrollTop : null;
    return saved;
  }

  private onScroll(): void {
    const { scrollTop, scrollHeight, clientHeight } = this.container;
    // Content that grew under the view (a snapshot painted from its end grows upwards) is not the user leaving.
    const leftTheEnd = scrollTop < this.followedTop;
    this.following = scrollHeight - scrollTop - clientHeight <= BOTTOM_SLACK_PX || (this.following && !leftTheEnd);
    if (this.following) this.followedTop = scrollTop;
    if (this.saveScheduled) return;
    this.saveScheduled = true;
    requestAnimationFrame(() => {
      this.saveScheduled = false;
      this.host.saveViewState({ scrollTop: this.container.scrollTop, following: this.following });
    });
  }
}
