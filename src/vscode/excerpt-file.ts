// Open Diff of an edit known only by the part it replaced (a ToolDiff marked `excerpt`): the whole file, rebuilt from
// the file as it is now. The part the edit wrote must be found in it once, and only once: anywhere else, or twice, the
// file is not (or no longer) the one the edit left, and the diff shows the excerpt alone.

/** The whole file before and after the edit, or undefined when the file as it is now cannot say. */
export function wholeFileOfExcerpt(current: string, excerpt: { oldText: string | null; newText: string }): { before: string; after: string } | undefined {
  const { oldText, newText } = excerpt;
  if (oldText === null || newText === "") return undefined;
  const at = current.indexOf(newText);
  if (at === -1 || current.indexOf(newText, at + 1) !== -1) return undefined;
  return { before: current.slice(0, at) + oldText + current.slice(at + newText.length), after: current };
}
