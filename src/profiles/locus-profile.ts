// Locus: `locus exec --json-stream -- "<prompt>"`. It documents no way to continue a conversation or to be asked to
// stop other than a signal (SIGINT gives `error` then `done`).
import { defineProfile } from "./cli-profile";

const LOCUS_ARGS = ["exec", "--json-stream"];

export const locusProfile = defineProfile({
  name: "locus",
  displayName: "Locus",
  summary: "`locus exec --json-stream -- \"<prompt>\"`; stopped with signals.",
  commandNames: ["locus"],
  // Its releases differ (protocol 1, or the later flat events): let `auto` tell them apart.
  dialect: "auto",
  command: "locus",
  defaultArgs: LOCUS_ARGS,
  login: { args: ["login"] },
  // "--" ends the options: a prompt that starts with "-" is still the prompt.
  invocation: ({ prompt, userArgs }) => ({ args: [...(userArgs ?? LOCUS_ARGS), "--", prompt] }),
});
