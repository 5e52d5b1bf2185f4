// The README's first paragraph of prose: past the title, badges, HTML and front matter.

export function firstParagraph(markdown: string): string | null {
  const lines = withoutFrontMatter(markdown.split(/\r?\n/));
  const paragraph: string[] = [];
  let inFence = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) inFence = !inFence;
    const prose = !inFence && isProse(line);
    if (prose) paragraph.push(line);
    else if (paragraph.length === 1 && /^(=+|-+)$/.test(line)) paragraph.length = 0; // That line was a setext title.
    else if (paragraph.length > 0) break;
  }
  return paragraph.length > 0 ? paragraph.join(" ") : null;
}

function isProse(line: string): boolean {
  if (line === "") return false;
  if (/^(#|<|!\[|\[!\[|\||>|```|~~~|={3,}$|-{3,}$|\*{3,}$|\[[^\]]+\]:)/.test(line)) return false;
  return !/^([-*+]|\d+[.)])\s/.test(line);
}

function withoutFrontMatter(lines: string[]): string[] {
  if (lines[0]?.trim() !== "---") return lines;
  const end = lines.indexOf("---", 1);
  return end === -1 ? lines : lines.slice(end + 1);
}
