// The words both CLIs' scenarios use, so their recordings tell the same story and can be compared.

export const PLAIN_PROMPT = "Greet me in three languages and show a tiny code sample.";

/** Emoji (one with a ZWJ sequence), CJK, and a fenced code block that arrives split across deltas. */
export const PLAIN_ANSWER_CHUNKS: readonly string[] = [
  "Hello 👋! ",
  "In Japanese: こんにちは、世界。",
  " In Chinese: 你好，世界！ ",
  "Family emoji: 👨‍👩‍👧‍👦 and a flag: 🇯🇵.\n\n",
  "Here is the code:\n\n```ts\n",
  "function greet(name: string): string {\n",
  "  return `Hi, ${name} 🎉`;\n",
  "}\n```\n",
  "\nThat's all — 完了 ✅",
];

export const THINKING_PROMPT = "What is 17 × 23? Think first.";
export const THINKING_CHUNKS: readonly string[] = ["The user asks for 17 × 23. ", "17 × 20 = 340, ", "17 × 3 = 51, ", "340 + 51 = 391."];
export const THINKING_ANSWER_CHUNKS: readonly string[] = ["17 × 23 = ", "**391**."];

export const TOOL_PROMPT = "Read notes.txt, then run `echo hi`, then tell me what you found.";
export const NOTES_FILE = "notes.txt";
export const NOTES_TEXT = "Remember: the build is green.\nSecond line: ünïcødé ✓\n";
export const TOOL_INTRO_CHUNKS: readonly string[] = ["I'll read ", "the notes first."];
export const TOOL_MIDDLE_CHUNKS: readonly string[] = ["Now I'll run ", "the command."];
export const TOOL_ANSWER_CHUNKS: readonly string[] = ["The notes say the build is green, ", "and `echo hi` printed `hi`."];

export const TOOL_ERROR_PROMPT = "Read missing.txt and tell me what it says.";
export const MISSING_FILE = "missing.txt";
export const TOOL_ERROR_ANSWER_CHUNKS: readonly string[] = ["I couldn't read missing.txt: ", "the file does not exist."];

export const SHORT_PROMPT = "Say hi.";
export const SHORT_ANSWER_CHUNKS: readonly string[] = ["Hi ", "there!"];

export const LONG_PROMPT = "Count slowly to two thousand.";
export const LONG_ANSWER_DELTAS = 2000;
/** 2,000 small deltas, a line break every 20, as a fast model streams a long answer. */
export function longAnswerChunks(): string[] {
  return Array.from({ length: LONG_ANSWER_DELTAS }, (_, index) => `${index + 1}${(index + 1) % 20 === 0 ? "\n" : " "}`);
}

export const SLOW_PROMPT = "Tell me a long story.";
/** A slow answer for interrupting: long enough that no recording sees its end. */
export function slowAnswerChunks(): string[] {
  return Array.from({ length: 600 }, (_, index) => `word${index + 1} `);
}
export const SLOW_DELTA_DELAY_MS = 100;

export const FIRST_MESSAGE = "My name is Ada. Remember it.";
export const FIRST_ANSWER_CHUNKS: readonly string[] = ["Nice to meet you, ", "Ada!"];
export const SECOND_MESSAGE = "What is my name?";
export const SECOND_ANSWER_CHUNKS: readonly string[] = ["Your name is ", "Ada."];

export const STEER_FIRST_MESSAGE = "Read notes.txt and tell me what it says.";
/** Several slow deltas, so the second message arrives while they stream. */
export const STEER_INTRO_CHUNKS: readonly string[] = ["Let ", "me ", "read ", "the ", "notes ", "first."];
export const STEER_MESSAGE = "Also say it in French.";
export const STEER_ANSWER_CHUNKS: readonly string[] = ["The notes say the build is green; ", "en français : le build est vert."];

export const EDIT_PROMPT = "In notes.txt, change green to red, and create todo.md with one item.";
export const EDIT_FROM = "the build is green.";
export const EDIT_TO = "the build is red.";
export const NEW_FILE = "todo.md";
export const NEW_FILE_TEXT = "# Todo\n\n- fix the build\n";
export const EDIT_INTRO_CHUNKS: readonly string[] = ["I'll edit ", "the notes."];
export const EDIT_ANSWER_CHUNKS: readonly string[] = ["Done: notes.txt now says red, ", "and todo.md has one item."];

/** A file whose text holds a code fence: a command that prints it shows the fence as text, not as markdown. */
export const FENCE_FILE = "fence.md";
export const FENCE_TEXT = "Before\n```ts\nconst x = 1;\n```\nAfter\n";
/** The smallest PNG (1×1, transparent): Claude Code's Read returns an image, not text. */
export const PIXEL_FILE = "pixel.png";
export const PIXEL_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
export const NOTEBOOK_FILE = "cells.ipynb";
export const NOTEBOOK_TEXT = JSON.stringify(
  {
    cells: [{ cell_type: "code", id: "cell-one", metadata: {}, execution_count: null, outputs: [], source: ["print('green')\n"] }],
    metadata: { language_info: { name: "python" } },
    nbformat: 4,
    nbformat_minor: 5,
  },
  null,
  1,
);
export const EDIT_MORE_PROMPT = "Change green to red in notes.txt, create todo.md, fix the notebook cell, show fence.md and look at pixel.png.";
