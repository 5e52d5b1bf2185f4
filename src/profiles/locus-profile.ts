// Locus: `locus exec --json-stream -- "<prompt>"`. It documents no way to continue a conversation or to be asked to
// stop other than a signal (SIGINT gives `error` then `done`).
import type { CliProfile } from "./cli-profile";

export const locusProfile: CliProfile = {
  name: "locus",
  // Its releases differ (protocol 1, or the later flat events): let `auto` tell them apart.
  dialect: "auto",
  command: "locus",
  defaultArgs: ["exec", "--json-stream"],
  login: { args: ["login"] },
  // "--" ends the options: a prompt that starts with "-" is still the prompt.
  invocation: ({ prompt, userArgs }) => ({ args: [...(userArgs ?? locusProfile.defaultArgs), "--", prompt] }),
};
