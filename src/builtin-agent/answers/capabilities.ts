// For a request it does not understand, the agent says plainly what it can do, with prompts to try.
import { inlineCode } from "../markdown";

export function answerCapabilities(prompt: string): string {
  return [
    `I'm the built-in workspace agent. I work offline, only read this workspace (never change it), and I didn't recognise ${inlineCode(prompt.trim() || "(empty)")} as one of the things I can do. These are:`,
    "",
    "- **Summarise the workspace**: languages by file count and size, key files, the README's first paragraph, and how to build and test. Try: *summarise this workspace*",
    "- **Find text**: every line that contains it, with file and line. Try: *find \"createSession\"*",
    "- **Explain a file**: its outline (classes, functions, methods and exports). Try: *explain src/index.ts*",
    "- **List TODO and FIXME comments**, with file and line. Try: *list the TODOs*",
    "",
    "For anything else, use an agent CLI backed by a model.",
    "",
  ].join("\n");
}
