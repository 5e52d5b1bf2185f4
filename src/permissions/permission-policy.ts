// Which answer a permission request gets, chosen by option *kind*: option ids differ per agent (`proceed_once`,
// `allow`, `approved`, …) and their order means nothing. Nothing here ever allows by default, and nothing answers
// "always" unless the user picked exactly that.
import type { PermissionOption, PermissionOptionKind, ToolKind } from "./permission-request";

/** What a setting may do on its own for a tool kind: "ask" (the default) leaves it to the user. */
export type AutoAnswer = "allow" | "reject" | "ask";

/** E.g. `{ read: "allow", search: "allow" }`; kinds not named are asked. */
export type AutoAnswerPolicy = Partial<Record<ToolKind, AutoAnswer>>;

/** The option of exactly this kind, if the agent offers one (the first, when it offers several). */
export function optionOfKind(options: readonly PermissionOption[], kind: PermissionOptionKind): PermissionOption | undefined {
  return options.find((option) => option.kind === kind);
}

/**
 * What the setting answers for this tool kind without asking: only ever a "once" option. Undefined means ask the
 * user: no rule for the kind, or the agent offers no "once" option of the wanted sort.
 */
export function autoAnswerFor(
  policy: AutoAnswerPolicy,
  toolKind: ToolKind,
  options: readonly PermissionOption[],
): PermissionOption | undefined {
  const rule = policy[toolKind] ?? "ask";
  if (rule === "allow") return optionOfKind(options, "allow_once");
  if (rule === "reject") return optionOfKind(options, "reject_once");
  return undefined;
}
