// The webview's own regular expressions that need a page to run (its markdown renderer's link and language checks,
// a link's click, the reference-definition hint), and answers of about a megabyte built against them. The webview
// suite renders each; the linearity test counts the expressions covered here as examined.
import { repeated } from "../helpers/hostile-text";
import { sitesIn, type RegexSite } from "../unit/architecture/regex-sites";

export interface WebviewHostileText {
  /** What the answer holds. */
  name: string;
  covers: readonly RegexSite[];
  /** The answer's markdown, of about `chars` characters. */
  markdown(chars: number): string;
  /** A selector of the page that shows the answer was rendered. */
  rendered: string;
}

export const WEBVIEW_HOSTILE_TEXTS: readonly WebviewHostileText[] = [
  {
    name: "a link to a megabyte-long web address",
    covers: [...sitesIn("webview/markdown.ts", /^https?:\/\//i), ...sitesIn("webview/chat-view.ts", /^https?:\/\//i)],
    markdown: (chars) => `[the link](https://${repeated("a", chars)})`,
    rendered: ".answer-text a[href^='https://']",
  },
  {
    name: "a code fence whose language is a megabyte long",
    covers: [...sitesIn("webview/markdown.ts", /^language-[\w#+.-]{1,40}$/), ...sitesIn("webview/code-blocks.ts", /^language-(.+)$/)],
    markdown: (chars) => `\`\`\`${repeated("a", chars)}\ncode\n\`\`\``,
    rendered: ".answer-text pre code",
  },
  {
    name: "a line that opens a reference label and never closes it",
    covers: sitesIn("webview/markdown-view.ts", /^ {0,3}\[[^\]\n]+\]:/m),
    markdown: (chars) => `[${repeated("a", chars)}`,
    rendered: ".answer-text p",
  },
];
