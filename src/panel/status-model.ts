// What the status bar item says: the state of the newest turn, in a few words and an icon, with details in the
// tooltip. Plain TypeScript; the editor glue only copies a StatusView onto a StatusBarItem.
import { errorHeadline } from "../protocol/error-guides";
import type { SessionChange, Turn } from "../protocol/messages";
import type { PermissionBlock, ToolCard } from "../protocol/transcript";
import { formatDuration } from "../common/duration";
import { isFinished } from "../protocol/session-states";
import { toolAbout } from "../common/tool-summary";
import { failingError, firstLine } from "../common/turn-failure";
import { escapeForLog } from "../protocol/visible-text";
import { realScheduler, type ScheduledCall, type Scheduler } from "../process/scheduler";
import type { ConversationObserver } from "./conversation";

export type StatusKind = "idle" | "starting" | "streaming" | "tool" | "waiting" | "completed" | "failed" | "stopped";

export interface StatusView {
  kind: StatusKind;
  /** With `$(icon)` codicon syntax. */
  text: string;
  tooltip: string;
  /** "error" paints the item in the theme's error colours, "warning" (the agent waits for the user) in its warning colours. */
  tone: "normal" | "warning" | "error";
}

/** A completed turn says so for this long, then the item goes back to idle. */
export const COMPLETED_VISIBLE_MS = 5000;

/** Characters of a tool's name the item shows; a longer one is cut, so the item never crowds out the rest of the bar. */
const MAX_TOOL_NAME_CHARS = 40;

const NAME = "Agent Stream";
const OPEN_HINT = "Click to show the chat.";

export function idleStatus(): StatusView {
  return { kind: "idle", text: `$(comment-discussion) ${NAME}`, tooltip: `${NAME}: idle. ${OPEN_HINT}`, tone: "normal" };
}

export function statusOf(turn: Turn | undefined): StatusView {
  if (turn === undefined) return idleStatus();
  const who = turn.agent;
  if (turn.done !== null) {
    const took = formatDuration(turn.done.durationMs);
    switch (turn.status) {
      case "completed":
        return { kind: "completed", text: `$(check) ${NAME}: completed in ${took}`, tooltip: `${who} answered in ${took}. ${OPEN_HINT}`, tone: "normal" };
      case "canceled":
        return { kind: "stopped", text: `$(debug-stop) ${NAME}: stopped`, tooltip: `You stopped ${who} after ${took}. ${OPEN_HINT}`, tone: "normal" };
      default: {
        const error = failingError(turn);
        // Its final dots go, the sentence goes on; the lookbehind tries a run of dots from its first one only.
        const why = error === null ? "it ended without success" : `${errorHeadline(error)}: ${firstLine(error.message).replace(/(?<!\.)\.+$/, "")}`;
        return { kind: "failed", text: `$(error) ${NAME}: failed`, tooltip: `${who} failed: ${why}. ${OPEN_HINT}`, tone: "error" };
      }
    }
  }
  // Before the running tool: the agent is stopped until the user answers, and the user should see that first.
  const request = waitingPermission(turn);
  if (request !== null) {
    return {
      kind: "waiting",
      text: `$(shield) ${NAME}: waiting for your approval`,
      tooltip: `${who} asks: ${request.title}. ${OPEN_HINT}`,
      tone: "warning",
    };
  }
  const tool = runningTool(turn);
  if (tool !== null) {
    const about = toolAbout(tool);
    return {
      kind: "tool",
      text: `$(tools) ${NAME}: ${itemText(tool.tool, MAX_TOOL_NAME_CHARS)}`,
      tooltip: `${who} is running ${tool.tool}${about === "" ? "" : `: ${about}`}. ${OPEN_HINT}`,
      tone: "normal",
    };
  }
  if (turn.state === "idle" || turn.state === "starting") {
    return { kind: "starting", text: `$(loading~spin) ${NAME}: starting`, tooltip: `Starting ${who}. ${OPEN_HINT}`, tone: "normal" };
  }
  return { kind: "streaming", text: `$(loading~spin) ${NAME}: streaming`, tooltip: `${who} is answering. ${OPEN_HINT}`, tone: "normal" };
}

function runningTool(turn: Turn): ToolCard | null {
  return turn.blocks.findLast((b): b is ToolCard => b.kind === "tool" && b.status === "running") ?? null;
}

/** The newest permission request nobody has answered yet. */
export function waitingPermission(turn: Turn): PermissionBlock | null {
  return turn.blocks.findLast((b): b is PermissionBlock => b.kind === "permission" && b.decision === null) ?? null;
}

/**
 * Follows the conversation and renders a StatusView whenever what it says changes (not on every delta):
 * a completed turn goes back to idle after COMPLETED_VISIBLE_MS; failed and stopped stay until the next turn.
 */
export class StatusTracker implements ConversationObserver {
  private current: StatusView;
  private backToIdle: ScheduledCall | undefined;

  constructor(
    private readonly render: (view: StatusView) => void,
    initial: Turn | undefined,
    private readonly scheduler: Scheduler = realScheduler,
  ) {
    // After a reload the last turn's ending is old news: a finished turn shows as idle.
    this.current = initial === undefined || initial.done !== null ? idleStatus() : statusOf(initial);
    render(this.current);
  }

  get view(): StatusView {
    return this.current;
  }

  turnStarted(turn: Turn): void {
    this.show(statusOf(turn));
  }

  turnChanged(turn: Turn, change: SessionChange): void {
    // Text deltas never change what the item says; skip the work for the hundreds per second. A finished state
    // arrives just before its `done`, which carries the duration: wait for that.
    if (change.kind === "text-appended" || (change.kind === "state" && isFinished(change.state))) return;
    this.show(statusOf(turn));
  }

  dispose(): void {
    this.backToIdle?.cancel();
  }

  private show(view: StatusView): void {
    if (view.kind !== "completed" || this.current.kind !== "completed") {
      this.backToIdle?.cancel();
      this.backToIdle = undefined;
    }
    if (view.kind === "completed" && this.backToIdle === undefined) {
      this.backToIdle = this.scheduler.after(COMPLETED_VISIBLE_MS, () => {
        this.backToIdle = undefined;
        this.show(idleStatus());
      });
    }
    if (sameView(view, this.current)) return;
    this.current = view;
    this.render(view);
  }
}

function sameView(a: StatusView, b: StatusView): boolean {
  return a.kind === b.kind && a.text === b.text && a.tooltip === b.tooltip && a.tone === b.tone;
}

/**
 * The agent's words (a tool's name) in the item's text, which VS Code reads for `$(icon)`: an icon written there is
 * escaped (`\$(…)` shows as written, microsoft/vscode#124703), control characters are shown as escapes, and a long
 * name is cut. The item cannot be made to say "completed" with a check mark while the agent runs.
 */
function itemText(text: string, maxChars: number): string {
  const plain = escapeForLog(text).replace(/\$\(/g, "\\$(");
  return plain.length > maxChars ? plain.slice(0, maxChars - 1).trimEnd() + "…" : plain;
}
