// Builds DOM nodes from plain values. Text goes in as textContent, never as markup.

export interface ElementOptions {
  className?: string;
  text?: string;
  attributes?: Readonly<Record<string, string>>;
}

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: ElementOptions = {},
  ...children: Node[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (options.className !== undefined) node.className = options.className;
  if (options.text !== undefined) node.textContent = options.text;
  for (const [name, value] of Object.entries(options.attributes ?? {})) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** A codicon; decorative, so hidden from screen readers (the surrounding control carries the label). */
export function icon(name: string, extraClass = ""): HTMLSpanElement {
  const className = `codicon codicon-${name}${extraClass ? " " + extraClass : ""}`;
  return element("span", { className, attributes: { "aria-hidden": "true" } });
}

/** Text only screen readers read: the state an icon shows. */
export function screenReaderText(text: string): HTMLSpanElement {
  return element("span", { className: "sr-only", text });
}

export interface ButtonOptions {
  label: string;
  iconName?: string;
  /** Shown next to the icon; without it the button is icon-only and the label is its aria-label and tooltip. */
  caption?: string;
  className?: string;
  onClick?: (event: MouseEvent) => void;
}

export function button(options: ButtonOptions): HTMLButtonElement {
  const node = element("button", {
    className: options.className ?? "",
    attributes: { type: "button", "aria-label": options.label, title: options.label },
  });
  if (options.iconName !== undefined) node.append(icon(options.iconName));
  if (options.caption !== undefined) node.append(element("span", { className: "button-caption", text: options.caption }));
  if (options.onClick !== undefined) node.addEventListener("click", options.onClick);
  return node;
}
