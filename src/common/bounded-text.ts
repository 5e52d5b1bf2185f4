// Agent output shown as text has a size bound: a tool that printed megabytes must not freeze the chat.
export interface BoundedText {
  text: string;
  /** Characters left out at the end; 0 when the text is whole. */
  cutChars: number;
}

/** The start of `text`, at most `maxChars` characters, and how much was left out. */
export function bounded(text: string, maxChars: number): BoundedText {
  return text.length <= maxChars ? { text, cutChars: 0 } : { text: text.slice(0, maxChars), cutChars: text.length - maxChars };
}
