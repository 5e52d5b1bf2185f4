// The long answer the webview benchmarks stream and reopen: about 500 KB of an agent's markdown (prose, lists,
// links, fenced code), the same on every run, and its split into deltas the size a model's chunks are.

const ANSWER_CHARS = 500_000;
const CODE_SHARE = 0.2;

/** mulberry32: the same answer, split the same way, on every run. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const WORDS = (
  "the request handler reads token from cache before refresh which means verify call sees stale value " +
  "so we move lookup after write and add test that covers expiry path while keeping public API stable " +
  "middleware session store config option default timeout retry backoff queue worker event stream parser"
).split(" ");
const IDENTIFIERS = ["verifyToken", "refresh()", "cache.get", "SessionStore", "retryAfterMs", "parseLine", "onChange", "BATCH_MS"];

export interface Answer {
  markdown: string;
  /** Each fenced block's code, as its <code> element holds it. */
  codeBlocks: string[];
  /** The answer's last line: it must be on screen at the end. */
  lastLine: string;
}

export function makeAnswer(): Answer {
  const next = random(0x5eed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const words = (count: number) => Array.from({ length: count }, () => pick(WORDS)).join(" ");
  const sentence = () => {
    const parts = [words(int(4, 9))];
    const extra = next();
    if (extra < 0.25) parts.push(`\`${pick(IDENTIFIERS)}\``);
    else if (extra < 0.4) parts.push(`[${words(2)}](https://example.com/docs/${int(1, 999)})`);
    else if (extra < 0.55) parts.push(`**${words(2)}**`);
    else if (extra < 0.65) parts.push(`*${words(1)}*`);
    parts.push(words(int(3, 8)));
    const text = parts.join(" ");
    return text[0].toUpperCase() + text.slice(1) + ".";
  };
  const paragraph = () => Array.from({ length: int(2, 5) }, sentence).join(" ");
  const codeBlocks: string[] = [];
  const code = (): string => {
    const language = pick(["ts", "py", "json"] as const);
    const lines: string[] = [];
    const count = int(6, 30);
    for (let i = 0; i < count; i++) {
      const indent = "  ".repeat(int(0, 2));
      if (language === "ts") lines.push(`${indent}const ${pick(IDENTIFIERS).replace(/\W/g, "")}${i} = await ${words(1)}(${int(0, 99)}, "${words(2)}");`);
      else if (language === "py") lines.push(`${indent}${words(1)}_${i} = ${words(1)}(${int(0, 99)}, "${words(2)}")  # ${words(3)}`);
      else lines.push(`${indent}"${words(1)}${i}": ${next() < 0.5 ? int(0, 9999) : `"${words(2)}"`},`);
    }
    const body = lines.join("\n") + "\n";
    codeBlocks.push(body);
    return "```" + language + "\n" + body + "```";
  };
  const list = () => {
    const ordered = next() < 0.4;
    return Array.from({ length: int(3, 6) }, (_, i) => `${ordered ? `${i + 1}.` : "-"} ${sentence()}`).join("\n");
  };

  const blocks: string[] = [];
  let length = 0;
  let codeLength = 0;
  let section = 0;
  while (length < ANSWER_CHARS - 200) {
    let block: string;
    if (codeLength < CODE_SHARE * length) {
      block = code();
      codeLength += block.length;
    } else {
      const kind = next();
      if (kind < 0.12) block = `${"#".repeat(int(2, 3))} ${++section}. ${words(int(2, 5))}`;
      else if (kind < 0.35) block = list();
      else if (kind < 0.4) block = `> ${sentence()}`;
      else block = paragraph();
    }
    blocks.push(block);
    length += block.length + 2;
  }
  const lastLine = `That is the whole answer: ${blocks.length} blocks, ${codeBlocks.length} of them code.`;
  blocks.push(lastLine);
  return { markdown: blocks.join("\n\n") + "\n", codeBlocks, lastLine };
}

/** Cut points anywhere (inside words, fences and markers alike): sizes vary as a model's chunks do. */
export function splitIntoDeltas(text: string, count: number): string[] {
  const next = random(0xde17a);
  const cuts = new Set<number>();
  while (cuts.size < count - 1) cuts.add(1 + Math.floor(next() * (text.length - 1)));
  const sorted = [...cuts].sort((a, b) => a - b);
  const deltas: string[] = [];
  let start = 0;
  for (const cut of [...sorted, text.length]) {
    deltas.push(text.slice(start, cut));
    start = cut;
  }
  return deltas;
}
