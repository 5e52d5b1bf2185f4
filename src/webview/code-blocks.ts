// A fenced code block gets a header: its language, and a button that copies the code.
import { button, element } from "./element";

/** Marks the copy buttons; the transcript handles their clicks in one place (they are re-created as text streams). */
export const COPY_CODE_ATTRIBUTE = "data-copy-code";

export function decorateCodeBlocks(root: DocumentFragment | Element): void {
  for (const pre of Array.from(root.querySelectorAll("pre"))) {
    const code = pre.querySelector("code");
    if (code === null) continue;
    const language = languageOf(code);
    const copy = button({ label: "Copy code", iconName: "copy", className: "icon-button code-copy" });
    copy.setAttribute(COPY_CODE_ATTRIBUTE, "");
    const header = element("div", { className: "code-header" }, element("span", { className: "code-language", text: language }), copy);
    const wrapper = element("div", { className: "code-block" });
    pre.replaceWith(wrapper);
    wrapper.append(header, pre);
  }
}

/** The code a copy button belongs to. */
export function codeForCopyButton(copyButton: Element): string | null {
  return copyButton.closest(".code-block")?.querySelector("pre code")?.textContent ?? null;
}

function languageOf(code: Element): string {
  const match = /^language-(.+)$/.exec(code.getAttribute("class") ?? "");
  return match?.[1] ?? "";
}
