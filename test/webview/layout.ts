// What a person sees go wrong in a narrow side bar, measured in the page: the chat scrolls sideways, something sticks
// out past its edge, text is cut off by its box, or one block is drawn over another.
import type { Page } from "playwright-core";

/** Each fault in words, naming the element by its classes; none is the good answer. */
export function layoutFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const faults: string[] = [];
    const describe = (el: Element): string => {
      const classes = typeof el.className === "string" && el.className.trim() !== "" ? `.${el.className.trim().split(/\s+/).join(".")}` : "";
      const text = (el.textContent ?? "").trim().slice(0, 30);
      return `${el.tagName.toLowerCase()}${classes}${text === "" ? "" : ` "${text}"`}`;
    };
    const px = (value: number): number => Math.round(value);
    // A box the user scrolls (code, long output) or that ends its line in "…" shows its overflow on purpose.
    const showsOverflow = (style: CSSStyleDeclaration, axis: "x" | "y"): boolean => {
      const overflow = axis === "x" ? style.overflowX : style.overflowY;
      return overflow === "auto" || overflow === "scroll" || (axis === "x" && style.textOverflow === "ellipsis");
    };
    const hidesOverflow = (style: CSSStyleDeclaration, axis: "x" | "y"): boolean => {
      const overflow = axis === "x" ? style.overflowX : style.overflowY;
      return overflow === "hidden" || overflow === "clip";
    };
    // Screen-reader text is clipped to nothing by design.
    const visuallyHidden = (style: CSSStyleDeclaration): boolean => style.clipPath !== "none" || style.visibility === "hidden";

    for (const box of [document.documentElement, ...document.querySelectorAll(".transcript, .composer")]) {
      if (box.scrollWidth > box.clientWidth + 1) faults.push(`${describe(box)} scrolls sideways: ${box.scrollWidth} px of content in ${box.clientWidth}`);
    }

    const width = document.documentElement.clientWidth;
    // Inside a box that scrolls sideways (the transcript, code), what reaches past the edge is that box's overflow.
    const check = (el: Element, inScroller: boolean): void => {
      const style = getComputedStyle(el);
      if (style.display === "none" || visuallyHidden(style)) return;
      const rects = [...el.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
      for (const rect of inScroller ? [] : rects) {
        if (rect.left < -0.5 || rect.right > width + 0.5) faults.push(`${describe(el)} reaches ${px(rect.left)}–${px(rect.right)} px of ${width}`);
      }
      for (const axis of ["x", "y"] as const) {
        const over = axis === "x" ? el.scrollWidth - el.clientWidth : el.scrollHeight - el.clientHeight;
        if (hidesOverflow(style, axis) && !showsOverflow(style, axis) && over > 1) faults.push(`${describe(el)} cuts off ${over} px of its content (${axis})`);
      }
      const children = [...el.children].flatMap((child) => {
        const childStyle = getComputedStyle(child);
        if (childStyle.position === "absolute" || childStyle.position === "fixed" || visuallyHidden(childStyle)) return [];
        return [...child.getClientRects()].filter((r) => r.width > 0 && r.height > 0).map((rect) => ({ child, rect }));
      });
      for (let i = 0; i < children.length; i++) {
        for (let j = i + 1; j < children.length; j++) {
          const [a, b] = [children[i]!, children[j]!];
          if (a.child === b.child) continue;
          const x = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
          const y = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
          if (x > 1 && y > 1) faults.push(`${describe(a.child)} and ${describe(b.child)} overlap by ${px(x)}×${px(y)} px`);
        }
      }
      for (const child of el.children) check(child, inScroller || showsOverflow(style, "x"));
    };
    check(document.body, false);
    return faults;
  });
}
