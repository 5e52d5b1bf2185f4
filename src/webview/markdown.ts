// The one place markdown becomes DOM. markdown-it with raw HTML off, then DOMPurify with a short allow-list;
// DOMPurify hands back sanitised nodes (no HTML string is parsed twice), so nothing in the webview sets innerHTML.
import DOMPurify, { type Config } from "dompurify";
import MarkdownIt from "markdown-it";
import { decorateCodeBlocks } from "./code-blocks";
import { pathLinks } from "./path-links";

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });
// An address is plain text: a mailto: link would only be stripped again below.
markdown.linkify.set({ fuzzyEmail: false });
// Images never load (the CSP allows none from outside): show the text the author gave instead.
markdown.renderer.rules.image = (tokens, index, options, env, renderer) =>
  markdown.utils.escapeHtml(renderer.renderInlineAsText(tokens[index].children ?? [], options, env));

// A table column's alignment is a class, not markdown-it's inline `style` (the CSP forbids inline styles: each cell was
// a CSP error and lost its alignment).
const ALIGNMENT_CLASSES: ReadonlyMap<string, string> = new Map([
  ["text-align:left", "align-left"],
  ["text-align:center", "align-center"],
  ["text-align:right", "align-right"],
]);
markdown.core.ruler.push("alignment_classes", (state) => {
  for (const token of state.tokens) {
    if (token.type !== "th_open" && token.type !== "td_open") continue;
    const style = token.attrGet("style");
    if (style === null) continue;
    const alignment = ALIGNMENT_CLASSES.get(String(style));
    token.attrs = (token.attrs ?? []).filter(([name]) => name !== "style");
    if (alignment !== undefined) token.attrSet("class", alignment);
  }
  return true;
});
const ALIGNMENT_CLASS_NAMES = new Set(ALIGNMENT_CLASSES.values());

/** Links may only go to the web; the host checks again before opening anything. */
const WEB_LINK = /^https?:\/\//i;
const LANGUAGE_CLASS = /^language-[\w#+.-]{1,40}$/;

const purifier = DOMPurify(window);
purifier.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") keepOnlyWebLink(node);
  keepOnlyOurClasses(node);
});

/** What markdown-it produces, minus images; no forms, frames, media, SVG, MathML, styles or scripts. */
const SANITIZE_CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  ALLOWED_TAGS: [
    "a", "blockquote", "br", "code", "del", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "li", "ol", "p", "pre", "s",
    "strong", "table", "tbody", "td", "th", "thead", "tr", "ul",
  ],
  ALLOWED_ATTR: ["href", "title", "class", "start"],
  FORBID_TAGS: ["style", "script", "img", "svg", "math", "form", "input", "button", "iframe", "object", "embed", "base", "meta", "link"],
  FORBID_ATTR: ["style"],
  ALLOWED_URI_REGEXP: WEB_LINK,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  RETURN_DOM_FRAGMENT: true,
};

/**
 * markdown-it's per-document state (link reference definitions). Finished segments of one block share one, so a
 * reference defined earlier in the answer still resolves later on.
 */
export type MarkdownEnvironment = Record<string, unknown>;

/** The link reference definitions a whole text makes, to render its parts with. */
export function referencesOf(source: string): MarkdownEnvironment {
  const env: MarkdownEnvironment = {};
  markdown.parse(source, env);
  return env;
}

/** Renders markdown to sanitised, decorated DOM nodes. */
export function renderMarkdown(source: string, env: MarkdownEnvironment = {}): DocumentFragment {
  const fragment = purifier.sanitize(markdown.render(source, env), SANITIZE_CONFIG);
  decorateCodeBlocks(fragment);
  pathLinks.markCandidates(fragment);
  return fragment;
}

function keepOnlyWebLink(anchor: Element): void {
  const href = anchor.getAttribute("href");
  if (href === null || !WEB_LINK.test(href)) {
    anchor.removeAttribute("href");
    return;
  }
  anchor.setAttribute("rel", "noopener noreferrer");
}

/**
 * markdown-it marks a fence's language and a table cell's alignment as a class; no other class may reach the page (it
 * could borrow our UI's).
 */
function keepOnlyOurClasses(node: Element): void {
  const className = node.getAttribute("class");
  if (className === null) return;
  if (node.tagName === "CODE" && LANGUAGE_CLASS.test(className)) return;
  if ((node.tagName === "TH" || node.tagName === "TD") && ALIGNMENT_CLASS_NAMES.has(className)) return;
  node.removeAttribute("class");
}
