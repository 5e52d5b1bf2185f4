// Lines the agent wrote that could not be used: one folded notice per turn, the details inside.
import type { Problem } from "../protocol/transcript";
import { element, icon } from "./element";

/** A broken CLI can write thousands of bad lines; the log has them all. */
const MAX_LISTED = 200;

export class ProblemsNotice {
  readonly element: HTMLDetailsElement;
  private readonly title: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly more: HTMLElement;
  private listed = 0;
  private counted = 0;
  private everyOneHasALine = true;

  constructor() {
    this.title = element("span");
    this.list = element("ul");
    this.more = element("p", { className: "problems-more" });
    this.element = element("details", { className: "problems-notice" }, element("summary", {}, icon("chevron-right", "chevron"), icon("warning"), this.title), this.list, this.more);
    this.element.hidden = true;
  }

  /** Shows the turn's problems; only the ones not listed yet are added. */
  show(problems: readonly Problem[]): void {
    for (; this.counted < problems.length; this.counted++) this.everyOneHasALine &&= problems[this.counted].line !== null;
    this.element.hidden = problems.length === 0;
    this.title.textContent = noticeTitle(problems.length, this.everyOneHasALine);
    for (; this.listed < Math.min(problems.length, MAX_LISTED); this.listed++) this.list.append(problemItem(problems[this.listed]));
    const unlisted = problems.length - this.listed;
    this.more.textContent = unlisted > 0 ? `…and ${unlisted} more (see the log)` : "";
    this.more.hidden = unlisted === 0;
  }
}

function noticeTitle(n: number, everyOneHasALine: boolean): string {
  if (everyOneHasALine) return `${n} ${n === 1 ? "line" : "lines"} could not be read`;
  return `${n} ${n === 1 ? "problem" : "problems"} with the agent's output`;
}

function problemItem(problem: Problem): HTMLLIElement {
  const where = problem.line !== null ? `line ${problem.line}` : "stream";
  return element("li", {}, element("span", { className: "problem-where", text: `${where} · ${problem.code}` }), element("span", { text: ` ${problem.message}` }));
}
